#!/usr/bin/env bash
# Install the real editors that the language-server tests drive as clients.
#
# Idempotent: does nothing when the editors are already on PATH. Needs root
# (or sudo) to install; otherwise it says what to install and exits 0, so the
# editor tests are skipped with a clear reason instead of failing the build.
#
#   scripts/install-test-editors.sh      # Neovim (Debian "neovim", 0.7+)
set -euo pipefail

if command -v nvim >/dev/null 2>&1; then
    echo "nvim already installed: $(nvim --version | head -n 1)"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo"
else
    echo "nvim is missing and we are not root: install the Debian package" \
         "'neovim' to run the Neovim language-server test" >&2
    exit 0
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends neovim
echo "installed: $(nvim --version | head -n 1)"
