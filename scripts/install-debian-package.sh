#!/usr/bin/env bash
# Install one Debian package unless its command is already on PATH.
#
#   scripts/install-debian-package.sh COMMAND PACKAGE WHAT-FOR
#
# Idempotent. Needs root (or sudo) to install; otherwise it says what to
# install and exits 0, so the tests that need the command are skipped with a
# clear reason instead of failing the build.
set -euo pipefail
command="$1" package="$2" purpose="$3"

if command -v "$command" >/dev/null 2>&1; then
    echo "$package already installed ($(command -v "$command"))"
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    SUDO=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    SUDO="sudo"
else
    echo "$command is missing and we are not root: install the Debian package" \
         "'$package' $purpose" >&2
    exit 0
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "$package"
echo "installed $package ($(command -v "$command"))"
