#!/usr/bin/env bash
# Install Graphviz (dot, gvpack, neato): the layout engine behind
# `amrcheck render`, `diff --html`, `score --html` and the editor's graph view.
#
# Idempotent: does nothing when dot is already on PATH. Needs root (or sudo)
# to install; otherwise it says what to install and exits 0, so the drawing
# tests are skipped with a clear reason instead of failing the build.
#
#   scripts/install-graphviz.sh      # Debian/Ubuntu package "graphviz"
set -euo pipefail

if command -v dot >/dev/null 2>&1; then
    echo "graphviz already installed: $(dot -V 2>&1)"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo"
else
    echo "graphviz is missing and we are not root: install the Debian package" \
         "'graphviz' to draw graphs and run the drawing tests" >&2
    exit 0
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends graphviz
echo "installed: $(dot -V 2>&1)"
