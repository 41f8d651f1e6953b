#!/usr/bin/env bash
# Loopback load benchmark of `bstore serve`'s getBlock (rpc/examples/rpc_load.rs):
# mainnet-sized synthetic slots; fetch vs encode cost in-process, then requests/s and
# p50/p99 latency at 1, 4 and 16 concurrent clients. Bounded: --requests N per row
# (default 400) and --seconds S per row (default 15). Extra arguments go to the generator:
#   scripts/rpc-load.sh --slots 8 --shreds 1200 --requests 400 --seconds 15 --workers 2
set -euo pipefail
cd "$(dirname "$0")/.."
# One profile and target dir for everything (RocksDB's C++ build is costly).
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
cargo run --release -p bstore-rpc --example rpc_load -- "$@"
