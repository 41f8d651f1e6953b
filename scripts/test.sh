#!/usr/bin/env bash
# Runs everything CI runs: formatting, clippy with -D warnings, and the whole test suite with
# default features and with all optional features. Installs what a fresh machine lacks.
set -euo pipefail
source "$(dirname "$0")/lib/setup.sh"
cd "$REPO"

ensure_apt libclang-dev influxdb influxdb-client
command -v npm >/dev/null 2>&1 || ensure_apt nodejs npm
ensure_rust_tools
require_testdata
# The real Solana clients (Python solana/solders, @solana/web3.js) the rpc tests drive.
scripts/rpc-client-deps.sh

log "cargo fmt --check"
cargo fmt --all --check

log "cargo clippy (all targets, all features, -D warnings)"
cargo clippy --release --workspace --all-targets --all-features -- -D warnings
# Code only an optional feature uses is dead, and warned about, in the builds without it.
log "cargo clippy (default features; bstore-ledger without RocksDB; -D warnings)"
cargo clippy --release --workspace --all-targets -- -D warnings
cargo clippy --release -p bstore-ledger --no-default-features --lib --tests -- -D warnings

log "tests: default features"
cargo nextest run --release --workspace --no-fail-fast

log "tests: all features (fetch-pool)"
cargo nextest run --release --workspace --all-features --no-fail-fast

log "tests: bstore-ledger without RocksDB (formats, and the store on the in-memory engine)"
cargo nextest run --release -p bstore-ledger --no-default-features --lib --tests --no-fail-fast

log "live-validator scripts offline (comparer, load clients, freshness, restart phases on loopback stubs)"
(cd interop/live && python3 -m unittest test_live)

if [ -x scripts/fuzz-smoke.sh ]; then
    log "fuzz smoke"
    scripts/fuzz-smoke.sh
fi
