#!/usr/bin/env bash
# The user-space instructions `bstore serve` executes per request, by method, counted by
# valgrind's callgrind: this build against a baseline, in one run. Unlike CPU time
# (scripts/bench-serve-cpu.sh, which drifts +-15% on this machine), an instruction count
# is the same for the same binary, ledger and requests whatever else the machine does, so
# a change of a few percent shows. What it cannot see: the kernel's part (system calls,
# context switches, loopback TCP: about two thirds of the round-trip floor's CPU here) and
# memory stalls; use bench-serve-cpu.sh for those.
#
#   scripts/bench-serve-instr.sh [RUN] [PASSES]   (default: the CI fixture, 5 passes)
#
#   RUN               a kept live run (`scripts/validator-live.sh --keep`): its ledger and
#                     load.py's request list of its workload.json. Without it, the slice of
#                     a live Agave 4.4.0 ledger in fixtures/agave-live and the same kind of
#                     list built from the validator's answers recorded with it.
#   BSTORE_BASELINE   the bstore binary to compare with (without it, this build alone)
#   BSTORE_REQUESTS   a request list to serve instead (a JSON array of [method, params])
#   BSTORE_CURRENT_ARGS  more `serve` arguments for this build's side only (e.g. a bound
#                     that makes every kept answer miss, to count what missing costs)
#   BSTORE_BASELINE_ARGS  the same for the baseline's side (when both builds take them)
#   BSTORE_INSTR_OUT  keep callgrind's output here (a directory per side and method, a
#                     file per thread, for callgrind_annotate --inclusive=yes)
#
# Each side serves the ledger under callgrind (a fresh secondary), is warmed with one pass
# of the list, then for getSlot alone (the round trip's floor) and for each method of the
# list in turn the counters are zeroed, one client sends that method's requests PASSES
# times (at least 100 requests) over one keep-alive connection (`bstore bench rpc-load`),
# and the counters are dumped, one file per thread. Counted: every thread but the
# secondary's catch-up (whose work follows the clock); what that counts beyond the
# requests (the connection's accept and setup, timers) is about 1%, the same each run.
# Every answer must be a result, not an error. Takes about a minute per side.
set -euo pipefail
source "$(dirname "$0")/lib/setup.sh"
cd "$REPO"
RUN="${1:-}"; PASSES="${2:-5}"

ensure_apt libclang-dev pkg-config libssl-dev make g++ jq valgrind
bench_serve_sides

if [ -z "$RUN" ]; then
    mkdir -p "$WORK/run"
    tar -xzf fixtures/agave-live/ledger.tar.gz -C "$WORK/run"
    LEDGER="$WORK/run/ledger"
    # load.py's list (getBlock of each slot holding a workload transaction, getTransaction
    # of each, getSignaturesForAddress limit 10 of each address) from the recorded answers.
    python3 - fixtures/agave-live/answers.json.gz "$WORK/requests.json" <<'PY'
import gzip, json, sys
asked = json.load(gzip.open(sys.argv[1]))["requests"]
txs = [r for r in asked if r["method"] == "getTransaction"
       and r["params"][1].get("encoding") == "json" and r["answer"].get("result")]
slots = sorted({r["answer"]["result"]["slot"] for r in txs})
block = {"encoding": "json", "transactionDetails": "full", "maxSupportedTransactionVersion": 0}
tx = {"encoding": "json", "maxSupportedTransactionVersion": 0}
addresses = sorted({r["params"][0] for r in asked if r["method"] == "getSignaturesForAddress"})
requests = [["getBlock", [s, block]] for s in slots]
requests += [["getTransaction", [sig, tx]] for sig in sorted({r["params"][0] for r in txs})]
requests += [["getSignaturesForAddress", [a, {"limit": 10}]] for a in addresses]
json.dump(requests, open(sys.argv[2], "w"))
PY
else
    [ -d "$RUN/ledger/rocksdb" ] || { echo "$RUN has no ledger/rocksdb" >&2; exit 2; }
    LEDGER="$RUN/ledger"
    if [ -z "${BSTORE_REQUESTS:-}" ]; then
        (cd interop/live && PYTHONDONTWRITEBYTECODE=1 python3 -c '
import json, sys, load
json.dump(load.request_list(json.load(open(sys.argv[1]))), open(sys.argv[2], "w"))
' "$RUN/workload.json" "$WORK/requests.json")
    fi
fi
[ -n "${BSTORE_REQUESTS:-}" ] && cp "$BSTORE_REQUESTS" "$WORK/requests.json"
# Counted are answers, not refusals: a list's v1 transaction (load.py asks with version 0,
# which Agave refuses for it) is asked for with version 1.
jq -c 'map(.[1] |= map(if type == "object" and has("maxSupportedTransactionVersion")
    then .maxSupportedTransactionVersion = 1 else . end))' "$WORK/requests.json" >"$WORK/r.json"
mv "$WORK/r.json" "$WORK/requests.json"
METHODS=(getSlot $(jq -r '[.[][0]] | unique | .[]' "$WORK/requests.json"))
for m in "${METHODS[@]}"; do
    if [ "$m" = getSlot ]; then
        echo '[["getSlot", [{"commitment": "finalized"}]]]' >"$WORK/$m.json"
    else
        jq -c --arg m "$m" 'map(select(.[0] == $m))' "$WORK/requests.json" >"$WORK/$m.json"
    fi
done

PORT=18995
MIN_REQUESTS=100
URL="http://127.0.0.1:$PORT"
# Sends FILE's requests N times each, in order, from one client; fails unless every one
# was answered with a result.
send() {
    local n
    n=$(($(jq length "$1") * $2))
    # At least MIN_REQUESTS, so the connection's own setup stays about 1% of a window.
    [ "$n" -ge "$MIN_REQUESTS" ] || n=$(((MIN_REQUESTS + n - 1) / n * n))
    "$BSTORE" bench rpc-load --url "$URL" --requests "$1" --clients 1 --seconds 3600 \
        --max-requests "$n" >"$WORK/load.json"
    jq -e --argjson n "$n" '.requests == $n and ([.[] | objects | .errors] | add) == 0' \
        "$WORK/load.json" >/dev/null ||
        { echo "not every request was answered with a result:" >&2; cat "$WORK/load.json" >&2; exit 1; }
    echo "$n"
}

for side in "${SIDES[@]}"; do
    log "$side: serving under callgrind"
    extra=()
    case "$side" in
        current) read -r -a extra <<<"${BSTORE_CURRENT_ARGS:-}" ;;
        baseline) read -r -a extra <<<"${BSTORE_BASELINE_ARGS:-}" ;;
    esac
    rm -rf "$WORK/secondary" "$WORK/cg-$side"
    mkdir -p "$WORK/cg-$side"
    valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$WORK/cg-$side/out.%p" \
        "$(side_binary "$side")" serve --ledger "$LEDGER" --secondary-path "$WORK/secondary" \
        --rpc-addr "127.0.0.1:$PORT" ${extra[@]+"${extra[@]}"} >"$WORK/serve-$side.log" 2>&1 &
    SERVER=$!
    (cd interop/live && PYTHONDONTWRITEBYTECODE=1 python3 -c \
        "import rpc; rpc.wait_until_serving(rpc.Client('$URL'), 300)") ||
        { cat "$WORK/serve-$side.log" >&2; exit 1; }
    send "$WORK/requests.json" 1 >/dev/null
    part=0
    for m in "${METHODS[@]}"; do
        callgrind_control -z "$SERVER" >/dev/null 2>&1
        n=$(send "$WORK/$m.json" "$PASSES")
        callgrind_control -d "$SERVER" >/dev/null 2>&1
        part=$((part + 1))
        # One file per thread; the secondary's catch-up thread is left out (its work
        # follows the clock, not the requests).
        total=0
        for f in "$WORK/cg-$side/out.$SERVER.$part"-*; do
            grep -q 'Blockstore.*catch_up' "$f" && continue
            total=$((total + $(awk '/^summary:/ { s = $2 } END { print s + 0 }' "$f")))
        done
        jq -n -c --arg side "$side" --arg m "$m" --argjson n "$n" --argjson t "$total" \
            '{side: $side, method: $m, requests: $n, instructions_per_request: ($t / $n | round)}' |
            tee -a "$WORK/counts.jsonl"
        if [ -n "${BSTORE_INSTR_OUT:-}" ]; then
            mkdir -p "$BSTORE_INSTR_OUT/$side-$m"
            cp "$WORK/cg-$side/out.$SERVER.$part"-* "$BSTORE_INSTR_OUT/$side-$m/"
        fi
    done
    kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=""
done

echo "user-space instructions per request ($PASSES passes of each method's requests):"
jq -s -r '
    group_by(.method)[]
    | (map(select(.side == "current"))[0]) as $c
    | (map(select(.side == "baseline"))[0]) as $b
    | "\($c.method): \($c.instructions_per_request)"
      + (if $b then " against \($b.instructions_per_request) = \($c.instructions_per_request
          / $b.instructions_per_request * 1000 | round / 1000)x" else "" end)
      + " (\($c.requests) requests)"' "$WORK/counts.jsonl"
