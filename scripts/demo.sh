#!/usr/bin/env bash
# The main job: `bstore demo` inserts a generated mainnet-like slot stream FEC set by FEC
# set while replay, the completed-data-sets service and RPC-like full-slot readers run on
# the same blockstore, then prints per-slot stats, fetch-time percentiles and a chart.
# Defaults finish in about a minute. Extra arguments go to `bstore demo` (see --help).
set -euo pipefail
source "$(dirname "$0")/lib/setup.sh"
cd "$REPO"

ensure_apt libclang-dev
ensure_rust_tools

log "building bstore (release)"
cargo build --release -p bstore --quiet
BIN="${CARGO_TARGET_DIR:-$REPO/target}/release/bstore"

require_testdata
SLOT_DIR="$BSTORE_TESTDATA/sig-testnet-417955322"
log "real data first: testnet slot 417955322 (320 shreds) deshredded, PoH verified from its parent blockhash"
"$BIN" shreds deshred "$SLOT_DIR/shreds.bin" --verify-poh 67TBWCoT7EGNWCoJep2FY8pdU85tgs3CnGa29Pm8i2Bz

OUT="${BSTORE_DEMO_OUT:-$REPO/target/demo}"
log "bstore demo (chart in $OUT)"
"$BIN" demo --out "$OUT" "$@"
