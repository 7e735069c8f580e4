#!/usr/bin/env bash
# Install the real editors that the language-server tests drive as clients.
#
# Idempotent: does nothing when the editors are already on PATH. Needs root
# (or sudo) to install; otherwise it says what to install and exits 0, so the
# editor tests are skipped with a clear reason instead of failing the build.
#
#   scripts/install-test-editors.sh      # Neovim (Debian "neovim", 0.7+)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/install-debian-package.sh" nvim neovim \
    "to run the Neovim language-server test"
