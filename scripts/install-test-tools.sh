#!/usr/bin/env bash
# Install the real clients the end-to-end tests drive: Neovim (language
# server test) and code-server + Chromium (VS Code extension test, and the
# HTML report test), Graphviz, which draws the graphs, and a C compiler,
# which builds the compiled core (tests/test_compiled.py).
# Idempotent; each installer says what it needs when it cannot install.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/install-debian-package.sh" dot graphviz \
    "to draw graphs (amrcheck render, --html reports, the editor's graph view)"
"$here/install-debian-package.sh" gcc build-essential \
    "to build the compiled core (AMRCHECK_COMPILE=1 pip install .; tests/test_compiled.py)"
"$here/install-test-editors.sh"
"$here/install-vscode-test.sh"
