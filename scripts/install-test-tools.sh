#!/usr/bin/env bash
# Install the real clients the end-to-end tests drive: Neovim (language
# server test) and code-server + Chromium (VS Code extension test, and the
# HTML report test), and Graphviz, which draws the graphs.
# Idempotent; each installer says what it needs when it cannot install.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/install-debian-package.sh" dot graphviz \
    "to draw graphs (amrcheck render, --html reports, the editor's graph view)"
"$here/install-test-editors.sh"
"$here/install-vscode-test.sh"
