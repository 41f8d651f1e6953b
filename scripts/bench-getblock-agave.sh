#!/usr/bin/env bash
# getBlock with meta, bstore against Agave on the same blocks, in one run:
# generates a ledger of mainnet-sized synthetic slots with synthetic history (bstore
# writes Agave's layout and encodings; Agave reads it), then alternates, round by round,
# `agave-interop encode-bench` (Agave's get_rooted_block + its json / base64 encoders with
# meta + serde_json) and `bstore bench getblock` (FetchedBlock: fetch with history, encode)
# over the same slots, and prints each side's medians and the ratios.
#
#   scripts/bench-getblock-agave.sh [SLOTS] [SHREDS_PER_SLOT] [ROUNDS]   (default 8 1200 5)
#
#   BSTORE_AGAVE_TOOL     a built agave-interop to use as is (nothing is built for Agave)
#   BSTORE_AGAVE_VERSION  otherwise: 4.2 (default), 4.3 or 4.4, built incrementally as
#                         scripts/interop-agave.sh does (first build ~60 min)
#   BSTORE_AGAVE_TARGET   the tool's target dir (defaults as in scripts/interop-agave.sh)
set -euo pipefail
source "$(dirname "$0")/lib/setup.sh"
cd "$REPO"
SLOTS="${1:-8}"; SHREDS="${2:-1200}"; ROUNDS="${3:-5}"

ensure_apt libclang-dev pkg-config libssl-dev make g++ jq
if [ -n "${BSTORE_AGAVE_TOOL:-}" ]; then
    TOOL="$BSTORE_AGAVE_TOOL"
else
    build_agave_tool
    TOOL="$AGAVE_TOOL"
fi
cargo build --release -p bstore
BSTORE="${CARGO_TARGET_DIR:-$REPO/target}/release/bstore"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
"$BSTORE" ledger generate --ledger "$WORK/ledger" --slots "$SLOTS" \
    --shreds-per-slot "$SHREDS" --with-history >/dev/null
# Slot 1's parent is not in the ledger (Agave's get_rooted_block refuses it): time 2..=N.
LAST=$SLOTS
for round in $(seq 1 "$ROUNDS"); do
    "$TOOL" encode-bench --ledger "$WORK/ledger" --first-slot 2 --last-slot "$LAST" \
        --rounds 1 >>"$WORK/agave.jsonl"
    "$BSTORE" bench getblock --ledger "$WORK/ledger" --first-slot 2 --last-slot "$LAST" \
        --rounds 1 >>"$WORK/bstore.jsonl"
done
med() { jq -s "map(.$2) | sort | .[length/2|floor]" "$WORK/$1.jsonl"; }
printf 'Agave: %s; median of %s rounds\n' "$TOOL" "$ROUNDS"
printf '%-22s %12s %12s %8s\n' "per block (median)" "Agave" "bstore" "ratio"
for field in fetch_median_ns encode_json_median_ns encode_base64_median_ns; do
    a=$(med agave "$field"); b=$(med bstore "$field")
    awk -v n="${field%_median_ns}" -v a="$a" -v b="$b" \
        'BEGIN { printf "%-22s %9.2f ms %9.2f ms %7.2fx\n", n, a / 1e6, b / 1e6, b / a }'
done
jq -c '{transactions_last_block, json_bytes_last_block, base64_bytes_last_block}' \
    <(tail -n1 "$WORK/agave.jsonl") <(tail -n1 "$WORK/bstore.jsonl")
