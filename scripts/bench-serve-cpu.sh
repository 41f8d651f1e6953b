#!/usr/bin/env bash
# What `bstore serve` costs per request at a fixed rate, this build against a baseline, in
# one run: over a kept live run's ledger (`scripts/validator-live.sh --keep`: RUN/ledger and
# RUN/workload.json), alternating round by round, each binary serves the live run's
# request list (load.py's: getBlock, getTransaction, getSignaturesForAddress) at RATE
# requests/s for SECONDS from `bstore bench rpc-load` (this build's, for both sides). Per
# round and side: the server's CPU per request (user + system from /proc/PID/stat, less
# its idle rate measured just before) and p50 / p99 per method; then the medians and the
# ratio; each round also counts the server's context switches per request by thread. Then
# one more window per side counts the system calls per request under strace (installed if
# missing; strace stops the threads at each call, so that window's latencies and switches
# are not used).
#
#   scripts/bench-serve-cpu.sh RUN [ROUNDS] [RATE] [SECONDS]   (default 6 400 15)
#
#   BSTORE_BASELINE   the bstore binary to compare with (without it, this build alone)
#   BSTORE_REQUESTS   a request list to serve instead of the run's (a JSON array of
#                     [method, params], `bstore bench rpc-load --requests`'s input; RUN
#                     then needs only its ledger), e.g.
#                     '[["getSlot", [{"commitment": "finalized"}]]]' in a file for the
#                     round-trip floor alone
#
# The validator need not run (the ledger is read as a secondary, never written). Run it
# on a quiet machine: the two cores' speed drifts, which is why the sides alternate.
set -euo pipefail
source "$(dirname "$0")/lib/setup.sh"
cd "$REPO"
RUN="${1:?usage: scripts/bench-serve-cpu.sh RUN [ROUNDS] [RATE] [SECONDS]}"
ROUNDS="${2:-6}"; RATE="${3:-400}"; SECONDS_EACH="${4:-15}"
# The run's workload.json is read only when BSTORE_REQUESTS does not replace its list.
[ -d "$RUN/ledger/rocksdb" ] ||
    { echo "$RUN has no ledger/rocksdb (validator-live.sh --keep)" >&2; exit 2; }
[ -n "${BSTORE_REQUESTS:-}" ] || [ -f "$RUN/workload.json" ] ||
    { echo "$RUN has no workload.json (validator-live.sh --keep), and BSTORE_REQUESTS is unset" >&2; exit 2; }

ensure_apt libclang-dev pkg-config libssl-dev make g++ jq strace
bench_serve_sides
if [ -n "${BSTORE_REQUESTS:-}" ]; then
    cp "$BSTORE_REQUESTS" "$WORK/requests.json"
else
    (cd interop/live && PYTHONDONTWRITEBYTECODE=1 python3 -c '
import json, sys, load
json.dump(load.request_list(json.load(open(sys.argv[1]))), open(sys.argv[2], "w"))
' "$RUN/workload.json" "$WORK/requests.json")
fi
PORT=18997
URL="http://127.0.0.1:$PORT"

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
load() { "$BSTORE" bench rpc-load --url "$URL" --requests "$WORK/requests.json" --clients 4 "$@"; }

# Starts one side's server on a fresh secondary and warms it; sets SERVER.
start() {
    rm -rf "$WORK/secondary"
    "$(side_binary "$1")" serve --ledger "$RUN/ledger" --secondary-path "$WORK/secondary" \
        --rpc-addr "127.0.0.1:$PORT" >"$WORK/serve-$1.log" 2>&1 &
    SERVER=$!
    (cd interop/live && PYTHONDONTWRITEBYTECODE=1 python3 -c \
        "import rpc; rpc.wait_until_serving(rpc.Client('$URL'), 60)") ||
        { cat "$WORK/serve-$1.log" >&2; exit 1; }
    load --seconds 3 --max-requests 3000 >/dev/null
}
stop() { kill "$SERVER"; wait "$SERVER" 2>/dev/null || true; SERVER=""; }
# The server's context switches (voluntary + involuntary) summed by thread name, one
# `name count` line each.
switches() {
    for t in /proc/"$SERVER"/task/*; do
        printf '%s %s\n' "$(cat "$t/comm")" \
            "$(awk '/ctxt_switches/ { s += $2 } END { print s }' "$t/status")"
    done | awk '{ n[$1] += $2 } END { for (k in n) print k, n[k] }' | sort
}

HZ=$(getconf CLK_TCK)
for round in $(seq 1 "$ROUNDS"); do
    for side in "${SIDES[@]}"; do
        start "$side"
        t0=$(cpu_ticks "$SERVER"); sleep 5; t1=$(cpu_ticks "$SERVER")
        switches >"$WORK/switches0"
        load --rate "$RATE" --seconds "$SECONDS_EACH" --max-requests 10000000 >"$WORK/out.json"
        t2=$(cpu_ticks "$SERVER")
        switches >"$WORK/switches1"
        stop
        join "$WORK/switches0" "$WORK/switches1" |
            jq -R -s 'split("\n") | map(select(length > 0) | split(" "))
                | map({key: .[0], value: ((.[2] | tonumber) - (.[1] | tonumber))}) | from_entries' \
            >"$WORK/switches.json"
        jq -c --arg side "$side" --argjson round "$round" --argjson hz "$HZ" \
            --argjson t0 "$t0" --argjson t1 "$t1" --argjson t2 "$t2" \
            --slurpfile sw "$WORK/switches.json" '
            . as $o
            | ((($t2 - $t1) - ($t1 - $t0) / 5 * $o.seconds) / $hz / $o.requests * 1e6) as $us
            | {side: $side, round: $round, cpu_us_per_request: ($us | floor), per_s,
               switches_per_request: ($sw[0] | map_values(. / $o.requests * 100 | round / 100)
                                      | with_entries(select(.value > 0)))}
              + (with_entries(select(.value | type == "object" and has("p50_ms")))
                 | map_values({p50_ms, p99_ms}))' "$WORK/out.json" | tee -a "$WORK/rounds.jsonl"
    done
done

echo "medians over $ROUNDS rounds at $RATE requests/s:"
for side in "${SIDES[@]}"; do
    jq -s -c --arg side "$side" '
        def med: sort | .[length / 2 | floor];
        map(select(.side == $side)) as $r
        | reduce ($r[0] | keys[] | select(startswith("get"))) as $m
            ({side: $side, cpu_us_per_request: ($r | map(.cpu_us_per_request) | med),
              switches_per_request: ($r[0].switches_per_request | keys
                  | map({key: ., value: (. as $t | $r | map(.switches_per_request[$t] // 0) | med)})
                  | from_entries)};
             .[$m] = {p50_ms: ($r | map(.[$m].p50_ms) | med),
                      p99_ms: ($r | map(.[$m].p99_ms) | med)})' "$WORK/rounds.jsonl"
done
if [ -n "${BSTORE_BASELINE:-}" ]; then
    jq -s -r 'def med: sort | .[length / 2 | floor];
        (map(select(.side == "current").cpu_us_per_request) | med) as $c
        | (map(select(.side == "baseline").cpu_us_per_request) | med) as $b
        | "CPU per request, current / baseline: \($c) / \($b) us = \($c / $b * 100 | round / 100)x"' \
        "$WORK/rounds.jsonl"
fi

for side in "${SIDES[@]}"; do
    start "$side"
    strace -c -f -p "$SERVER" -o "$WORK/strace.txt" 2>/dev/null &
    TRACER=$!
    sleep 0.5
    load --rate "$RATE" --seconds "$SECONDS_EACH" --max-requests 10000000 >"$WORK/out.json"
    # TERM, not INT: a non-interactive shell starts background jobs with SIGINT ignored.
    kill -TERM "$TRACER"; wait "$TRACER" 2>/dev/null || true
    N=$(jq .requests "$WORK/out.json")
    echo "$side: system calls per request (strace -c, $N requests; at least 0.01):"
    awk -v n="$N" '$NF ~ /^[a-z_0-9]+$/ && $4 ~ /^[0-9]+$/ && $NF != "total" {
        s += $4; if ($4 / n >= 0.01) printf "  %-16s %.2f\n", $NF, $4 / n }
        END { printf "  %-16s %.2f\n", "all", s / n }' "$WORK/strace.txt"
    stop
done
