#!/usr/bin/env bash
# The main job: decode the real testnet slot 417955322 from ../shared/testdata (320 shreds)
# into entries, verify its PoH from the parent blockhash, and print the slot's summary.
set -euo pipefail
source "$(dirname "$0")/lib/setup.sh"
cd "$REPO"

ensure_apt libclang-dev
ensure_rust_tools
require_testdata

log "building bstore (release)"
cargo build --release -p bstore --quiet
BIN="${CARGO_TARGET_DIR:-$REPO/target}/release/bstore"

SLOT_DIR="$BSTORE_TESTDATA/sig-testnet-417955322"
PARENT_BLOCKHASH=67TBWCoT7EGNWCoJep2FY8pdU85tgs3CnGa29Pm8i2Bz

log "bstore shreds deshred (testnet slot 417955322)"
"$BIN" shreds deshred "$SLOT_DIR/shreds.bin" --verify-poh "$PARENT_BLOCKHASH"
