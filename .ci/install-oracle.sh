#!/bin/sh
# Install what the test-only HCL reference oracle (tests/oracle/) needs:
# the Go toolchain and hashicorp/hcl v2 sources (plus go-cty, go-textseg,
# agext/levenshtein, ... as dependencies) from Debian. Idempotent: exits
# quickly when everything is already installed. Needs root (or sudo).
set -eu

PKGS="golang-go golang-github-hashicorp-hcl-v2-dev"
HCL_DIR=/usr/share/gocode/src/github.com/hashicorp/hcl/v2

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

if [ -n "$missing" ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
        SUDO="sudo"
    fi
    echo "install-oracle: installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -qq --no-install-recommends $missing
fi

command -v go >/dev/null 2>&1 || { echo "install-oracle: go not on PATH after install" >&2; exit 1; }
for d in "$HCL_DIR/json" "$HCL_DIR/hclsyntax" "$HCL_DIR/ext/typeexpr" \
         /usr/share/gocode/src/github.com/zclconf/go-cty/cty \
         /usr/share/gocode/src/github.com/apparentlymart/go-textseg \
         /usr/share/gocode/src/github.com/agext/levenshtein; do
    [ -d "$d" ] || { echo "install-oracle: missing $d" >&2; exit 1; }
done
echo "install-oracle: ok ($(go version))"
