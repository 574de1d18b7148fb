#!/usr/bin/env bash
# Installs what the editor end-to-end tests (tests/editors/) need on a fresh Debian machine.
# Idempotent: every step checks first, so a second run takes a second or two.
#
# Environment:
#   HCLJSON_EDITORS_CACHE  where npm-installed tools go (default: $HOME/.cache/hcljson-ls-ci);
#                          tests/editors/ look in the same place.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${HCLJSON_EDITORS_CACHE:-$HOME/.cache/hcljson-ls-ci}
mkdir -p "$CACHE"

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

# Installs the Debian packages given as arguments that are not installed yet.
apt_ensure() {
    local missing=()
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "install-editors: apt-get install ${missing[*]}"
        as_root apt-get -o DPkg::Lock::Timeout=600 update -qq
        DEBIAN_FRONTEND=noninteractive as_root apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}"
    fi
}

# --- VS Code ---
# code-server (VS Code in a browser) + Debian's Chromium driven by playwright-core; the extension's
# build tools come from vscode-extension/package-lock.json.
CODE_SERVER_VERSION=4.100.3   # the last code-server that runs on Node 20 (VS Code 1.100.3)
PLAYWRIGHT_CORE_VERSION=1.65.1
RIPGREP_CACHE_NAME=vscode-ripgrep-cache-1.15.11  # the cache folder @vscode/ripgrep 1.15.11 reads

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    apt_ensure nodejs npm
fi

apt_ensure chromium fonts-dejavu-core ca-certificates \
    build-essential pkg-config libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev ripgrep

VSC_TOOLS="$CACHE/vscode"
want="code-server@$CODE_SERVER_VERSION playwright-core@$PLAYWRIGHT_CORE_VERSION"
if [ "$(cat "$VSC_TOOLS/.installed" 2>/dev/null)" != "$want" ] \
    || [ ! -x "$VSC_TOOLS/node_modules/.bin/code-server" ] \
    || [ ! -d "$VSC_TOOLS/node_modules/playwright-core" ]; then
    echo "install-editors: npm install $want into $VSC_TOOLS (about a minute)"
    # @vscode/ripgrep downloads a binary in its postinstall step, which cannot work without internet:
    # seed its download cache with Debian's rg so it finds the archive there instead.
    rg_cache="$(node -p "require('os').tmpdir()")/$RIPGREP_CACHE_NAME"
    mkdir -p "$rg_cache"
    for triple in x86_64-unknown-linux-musl aarch64-unknown-linux-musl; do
        tarball="$rg_cache/ripgrep-v13.0.0-10-$triple.tar.gz"
        [ -f "$tarball" ] || tar czf "$tarball" -C "$(dirname "$(command -v rg)")" rg
    done
    mkdir -p "$VSC_TOOLS"
    [ -f "$VSC_TOOLS/package.json" ] || echo '{"name": "hcljson-ls-editor-tools", "private": true}' >"$VSC_TOOLS/package.json"
    (cd "$VSC_TOOLS" && npm_config_unsafe_perm=true npm_config_yes=true npm_config_fund=false \
        npm_config_audit=false npm install --foreground-scripts $want)
    echo "$want" >"$VSC_TOOLS/.installed"
fi

EXT="$ROOT/vscode-extension"
if [ ! -f "$EXT/node_modules/.package-lock.json" ] \
    || [ "$EXT/package-lock.json" -nt "$EXT/node_modules/.package-lock.json" ]; then
    echo "install-editors: npm ci in vscode-extension"
    (cd "$EXT" && npm_config_fund=false npm_config_audit=false npm ci --prefer-offline)
    touch "$EXT/node_modules/.package-lock.json"
fi
echo "install-editors: VS Code tools ready (code-server $CODE_SERVER_VERSION, playwright-core $PLAYWRIGHT_CORE_VERSION, $(command -v chromium))"
