#!/usr/bin/env bash
# Install what the VS Code end-to-end test needs: Debian chromium and
# code-server (the real VS Code, served to a browser), outside the repository.
#
# Idempotent: each part is skipped when it is already there. Needs root (or
# sudo) for apt; without it the script says what to install and exits 0, so
# the test is skipped with a clear reason instead of failing the build.
#
#   scripts/install-vscode-test.sh
#
# Where: $AMRCHECK_VSCODE_TEST_HOME (default ~/.cache/amrcheck-vscode-test);
# code-server ends up in $AMRCHECK_VSCODE_TEST_HOME/node_modules/code-server.
# code-server 4.100.3 is the last release that runs on node 20.
set -euo pipefail

CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.100.3}"
HOME_DIR="${AMRCHECK_VSCODE_TEST_HOME:-$HOME/.cache/amrcheck-vscode-test}"
APT_PACKAGES="chromium build-essential pkg-config libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev ripgrep"

# -- apt: chromium, ripgrep and the headers code-server's native modules need --
missing=""
for pkg in $APT_PACKAGES; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        SUDO=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo"
    else
        echo "missing Debian packages:$missing; install them as root to run" \
             "the VS Code end-to-end test" >&2
        exit 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update
    $SUDO apt-get install -y --no-install-recommends $missing
else
    echo "apt packages already installed"
fi

# -- code-server from npm (its postinstall downloads fail offline: done by hand) --
CS="$HOME_DIR/node_modules/code-server"
if [ -f "$HOME_DIR/.installed-$CODE_SERVER_VERSION" ] && [ -f "$CS/out/node/entry.js" ]; then
    echo "code-server $CODE_SERVER_VERSION already installed in $HOME_DIR"
    exit 0
fi
mkdir -p "$HOME_DIR"
cd "$HOME_DIR"
[ -f package.json ] || echo '{"name": "amrcheck-vscode-test", "private": true}' > package.json
export npm_config_yes=true npm_config_unsafe_perm=true npm_config_fund=false npm_config_audit=false
npm install --ignore-scripts "code-server@$CODE_SERVER_VERSION"
npm rebuild argon2
cd node_modules/code-server/lib/vscode
npm install --omit=dev --ignore-scripts
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
npm rebuild
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
(cd extensions && npm install --omit=dev)
touch "$HOME_DIR/.installed-$CODE_SERVER_VERSION"
echo "installed code-server $CODE_SERVER_VERSION in $HOME_DIR"
