#!/usr/bin/env bash
# Installs what building (and, with --browser, testing) kvbudget needs, skipping what is present.
# Everything comes from package registries: crates.io, npm, Debian. Nothing is downloaded by Trunk.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
want_browser=0
[ "${1:-}" = "--browser" ] && want_browser=1

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

# Rust toolchain components and the wasm target (rust-toolchain.toml names them; rustup adds what is missing).
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
for c in clippy rustfmt; do
  rustup component list --installed | grep -q "^$c" || { say "adding $c"; rustup component add "$c"; }
done

# Trunk, pinned (0.22 needs a newer rustc).
if ! trunk --version 2>/dev/null | grep -qx "trunk $TRUNK_VERSION"; then
  say "installing trunk $TRUNK_VERSION (about 10 minutes on 2 cores, once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

# wasm-bindgen CLI at exactly the version in Cargo.lock (without --locked: its lock wants a crate the registry lacks).
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
if [ -z "$WB_VERSION" ]; then echo "setup: no wasm-bindgen in Cargo.lock" >&2; exit 1; fi
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $WB_VERSION"; then
  say "installing wasm-bindgen-cli $WB_VERSION (about 3 minutes, once)"
  cargo install wasm-bindgen-cli --version "$WB_VERSION"
fi
if ! grep -q "wasm_bindgen = \"$WB_VERSION\"" Trunk.toml; then
  echo "setup: Trunk.toml [tools] wasm_bindgen must be \"$WB_VERSION\" (Cargo.lock)" >&2
  exit 1
fi

# wasm-opt from the npm package binaryen (Debian's is too old), and playwright-core and axe-core
# for the e2e suite.
if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -f node_modules/axe-core/axe.min.js ]; then
  say "installing npm tools (binaryen, playwright-core, axe-core)"
  npm ci --no-audit --no-fund
fi

# Crates for Trunk's offline build.
cargo fetch --quiet

if [ "$want_browser" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  say "installing Debian's Chromium"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium chromium-driver
fi
# A font with Chinese glyphs, so the zh-CN page renders (and its screenshots show text, not boxes).
if [ "$want_browser" = 1 ] && ! fc-list :lang=zh 2>/dev/null | grep -q .; then
  say "installing a Chinese font (WenQuanYi Micro Hei)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q fonts-wqy-microhei
fi
say "ready: $(trunk --version), $(wasm-bindgen --version), $(wasm-opt --version)"
