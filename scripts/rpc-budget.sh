#!/usr/bin/env bash
# Peak RSS of the JSON-RPC server under concurrent batches of 100 full getBlocks
# (rpc/examples/rpc_budget.rs), once per response budget. One process per row, so each
# VmHWM is that row's own. Bounded: each row sends --clients batches once.
#   scripts/rpc-budget.sh [CLIENTS] [BUDGET_MIB...]     (defaults: 8; 16 64 256)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
clients="${1:-8}"
shift || true
budgets=("$@")
[ "${#budgets[@]}" -gt 0 ] || budgets=(16 64 256)
cargo build --release -p bstore-rpc --example rpc_budget
echo "| budget | batches | blocks served | refused -32005 | sent | peak held | VmHWM before -> after | wall |"
echo "|---|---|---|---|---|---|---|---|"
for b in "${budgets[@]}"; do
    "$CARGO_TARGET_DIR/release/examples/rpc_budget" --budget-mib "$b" --clients "$clients"
done
