#!/usr/bin/env bash
# Every test kvbudget has, in the order a failure is cheapest to find.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "format"
cargo fmt --all --check

step "clippy (native: core, CLI, tests)"
cargo clippy --workspace --all-targets --locked -- -D warnings

step "clippy (wasm32: the page and its worker)"
cargo clippy -p kvbudget -p kvbudget-worker --target wasm32-unknown-unknown --locked -- -D warnings

step "native tests"
cargo test --workspace --locked

step "release site (trunk build --release), a build for a course site's path, and a test-only build with the panic trigger"
trunk build --release --features panic-test --dist target/dist-panic
trunk build --release --public-url /courses/llm/kvbudget/ --dist target/dist-sub
trunk build --release

step "Chromium e2e under a sub-path, and the size budget"
node --test tests/e2e/*.test.mjs
