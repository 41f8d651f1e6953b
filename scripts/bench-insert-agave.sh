#!/usr/bin/env bash
# Shred insert, bstore against Agave on the same shreds, in one run: `agave-interop gen`
# makes SLOTS chained slots of DATA data shreds (and as many code shreds) each; then,
# alternating round by round, `agave-interop insert-bench` (Agave's parse +
# `insert_shreds(shreds, is_trusted = false)`) and `bstore bench insert` (with and without its
# Merkle-root check), each into a fresh ledger per round, calls of 1,024 shreds. The same
# again on the real testnet slot 417955322 (320 data shreds). Prints each side's median and
# its ratio to Agave's. The 4.2 and 4.3 tools link glibc's malloc while bstore links mimalloc
# (as the process's malloc, RocksDB's included) and Agave's validator runs jemalloc, so Agave
# is also timed with jemalloc preloaded (`agave-jemalloc`, Debian's libjemalloc2) and the
# ratios are given against both. Agave 4.4's tool needs no preload: its `agave-jemalloc`
# dependency links jemalloc as the process's own `malloc` (exported, unprefixed), so its
# plain row is already jemalloc's, and a second jemalloc preloaded beside it crashes the
# process; that side is then skipped.
#
#   scripts/bench-insert-agave.sh [SLOTS] [DATA] [ROUNDS]          (default 200 64 7)
#
#   BSTORE_AGAVE_TOOL     a built agave-interop to use as is (nothing is built for Agave)
#   BSTORE_AGAVE_VERSION  otherwise: 4.2 (default), 4.3 or 4.4, built incrementally as
#                         scripts/interop-agave.sh does (first build ~60 min)
#   BSTORE_AGAVE_TARGET   the tool's target dir (defaults as in scripts/interop-agave.sh)
#   BSTORE_BASELINE       another bstore binary (an earlier build) timed in the same
#                         alternation, side `bstore-baseline`
set -euo pipefail
source "$(dirname "$0")/lib/setup.sh"
cd "$REPO"
SLOTS="${1:-200}"; DATA="${2:-64}"; ROUNDS="${3:-7}"

ensure_apt jq libjemalloc2 binutils
JEMALLOC="$(ls /usr/lib/*/libjemalloc.so.2 | head -n1)"
require_testdata
if [ -n "${BSTORE_AGAVE_TOOL:-}" ]; then
    TOOL="$BSTORE_AGAVE_TOOL"
else
    build_agave_tool
    TOOL="$AGAVE_TOOL"
fi
# Does the tool export its own malloc (Agave 4.4's jemalloc)? (grep reads all of nm's
# output: with -q, nm's SIGPIPE would fail the pipeline under pipefail.)
SIDES="agave agave-jemalloc bstore bstore-skip"
OWN_MALLOC=""
if nm -D --defined-only "$TOOL" | grep -E ' T malloc$' >/dev/null; then
    OWN_MALLOC=1
    SIDES="agave bstore bstore-skip"
    log "the Agave tool links its own malloc (jemalloc): no preloaded side"
fi
[ -z "${BSTORE_BASELINE:-}" ] || SIDES="$SIDES bstore-baseline"
cargo build --release -p bstore
BSTORE="${CARGO_TARGET_DIR:-$REPO/target}/release/bstore"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
"$TOOL" gen --out "$WORK/gen.bin" --start-slot 1 --slots "$SLOTS" \
    --data-shreds-per-slot "$DATA" --chained >/dev/null

# bench NAME FILE: ROUNDS alternating rounds of the three, one JSON line per round each.
bench() {
    local name="$1" file="$2"
    for round in $(seq 1 "$ROUNDS"); do
        "$TOOL" insert-bench --ledger-dir "$WORK/a" --rounds 1 "$file" >>"$WORK/$name.agave.jsonl"
        if [ -z "$OWN_MALLOC" ]; then
            LD_PRELOAD="$JEMALLOC" "$TOOL" insert-bench --ledger-dir "$WORK/j" --rounds 1 "$file" \
                >>"$WORK/$name.agave-jemalloc.jsonl"
        fi
        "$BSTORE" bench insert --ledger-dir "$WORK/b" --rounds 1 "$file" \
            >>"$WORK/$name.bstore.jsonl"
        "$BSTORE" bench insert --ledger-dir "$WORK/c" --rounds 1 --skip-merkle-check "$file" \
            >>"$WORK/$name.bstore-skip.jsonl"
        if [ -n "${BSTORE_BASELINE:-}" ]; then
            "$BSTORE_BASELINE" bench insert --ledger-dir "$WORK/d" --rounds 1 "$file" \
                >>"$WORK/$name.bstore-baseline.jsonl"
        fi
    done
}
med() { jq -s 'map(.median_ns) | sort | .[length/2|floor]' "$WORK/$1.jsonl"; }
report() {
    local name="$1" shreds agave agave_j
    shreds=$(jq -s '.[0].shreds' "$WORK/$name.agave.jsonl")
    agave=$(med "$name.agave")
    if [ -n "$OWN_MALLOC" ]; then agave_j="$agave"; else agave_j=$(med "$name.agave-jemalloc"); fi
    printf '\n%s: %s shreds, Agave %s, median of %s rounds\n' "$name" "$shreds" \
        "$(jq -r -s '.[0].agave' "$WORK/$name.agave.jsonl")" "$ROUNDS"
    printf '  %-16s %10s %12s %8s %16s\n' side total "per shred" "/ Agave" "/ Agave+jemalloc"
    for side in $SIDES; do
        awk -v s="$side" -v t="$(med "$name.$side")" -v n="$shreds" -v a="$agave" -v j="$agave_j" \
            'BEGIN { printf "  %-16s %7.1f ms %9.2f us %7.2fx %15.2fx\n", s, t / 1e6, t / n / 1e3, t / a, t / j }'
    done
}
bench gen "$WORK/gen.bin"
bench testnet "$BSTORE_TESTDATA/sig-testnet-417955322/shreds.bin"
report gen
report testnet
