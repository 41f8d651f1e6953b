#!/usr/bin/env bash
# bstore beside a live Agave 4.2.2 validator: same answers, freshness, load.
#
# Starts a one-node Agave cluster (`agave-interop validator`, interop/agave) writing its
# ledger to a fresh directory, starts `bstore serve` on that ledger as a RocksDB secondary,
# then runs interop/live/: the workload (transfers, failures, memos, compute budget, SPL
# Token, Token-2022 extensions, a lookup table with v0 transactions, a stake delegation and
# epoch rewards, a v1 attempt), the comparison of every answer (compare.py), a short load
# comparison (load.py) and the freshness of new blocks (freshness.py, two bstore servers at
# once: the default file watch and a 20 ms poll), then a validator restart (restart.py:
# bstore answers while it is down and follows it after). bstore reads the ledger through a
# read-only bind mount; `bstore replay --follow` follows the whole run and reports every
# slot to a local InfluxDB, charted at the end (RUN/charts). Exits non-zero when any answer
# differs, or replay's verdict on a slot (dead or not) is not the validator's own.
# docs/live-validator.md explains what is compared and holds the results.
#
# Time: the tool's first build takes about an hour on two cores (Agave's dependency tree,
# RocksDB's and protobuf's C++), later builds are no-ops; bstore's release build is ~13 min
# from scratch. A run takes about 18 minutes here: ~10 s to start the cluster, ~1.5 min of
# workload and the three epochs waited for rewards, ~1 min of comparison, ~11 min of load
# (7 of them the slot-rate rounds; then paired windows and each server's round-trip floor), ~2 min of
# freshness (500 slots), the restart (~30 s, up to 3 min when the restarted validator makes
# no slot) and the comparison again (~1.5 min). Not run by CI (rpc/tests/it/agave_live.rs
# checks recorded answers of two such runs in CI: scripts/record-live-fixture.sh).
#
#   scripts/validator-live.sh [--alpenglow] [--slots N] [--keep] [--skip-load] [--serve-nice N]
#     --alpenglow   run the cluster with Alpenglow active
#     --slots N     slots followed by the freshness run (default 500)
#     --keep        keep the run's directory (ledger, logs, records) after the run
#     --skip-load   skip the load comparison
#     --serve-nice N run the bstore servers at niceness N (default 0; below 0 needs root):
#                   what a lower or higher CPU priority does to the validator's slot rate and
#                   to bstore's latency
#   BSTORE_AGAVE_TOOL    an existing agave-interop binary (skips its build)
#   BSTORE_AGAVE_VERSION 4.2 (default), 4.3 or 4.4: which Agave the tool is built on
#   BSTORE_AGAVE_TARGET  target dir of the tool's build (default ~/.cache/bstore/target-agave4)
#   CARGO_TARGET_DIR     target dir of the bstore workspace, honoured as everywhere
#   BSTORE_LIVE_DIR      the run's directory (default: a new one under /tmp)
#   BSTORE_LIVE_PORT     the validator's RPC port (default 18899; pubsub takes the next
#                        one); bstore serves on this port + 100 (+ 101: the second one)
set -euo pipefail
source "$(dirname "$0")/lib/setup.sh"
cd "$REPO"

ALPENGLOW=() SLOTS=500 KEEP=0 SKIP_LOAD=0 SERVE_NICE=0
while [ $# -gt 0 ]; do
    case "$1" in
    --alpenglow) ALPENGLOW=(--alpenglow) ;;
    --slots) SLOTS="$2"; shift ;;
    --keep) KEEP=1 ;;
    --skip-load) SKIP_LOAD=1 ;;
    --serve-nice) SERVE_NICE="$2"; shift ;;
    *) echo "unknown argument $1 (see the header of $0)" >&2; exit 2 ;;
    esac
    shift
done

live_setup

RUN="${BSTORE_LIVE_DIR:-$(mktemp -d /tmp/bstore-live.XXXXXX)}"
mkdir -p "$RUN"
LEDGER="$RUN/ledger"
PORT="${BSTORE_LIVE_PORT:-18899}"
VALIDATOR_URL="http://127.0.0.1:$PORT"
BSTORE_PORT=$((PORT + 100))
BSTORE_URL="http://127.0.0.1:$BSTORE_PORT"
LIVE="$REPO/interop/live"
VALIDATOR_PID="" BSTORE_PID="" FAST_PID="" REPLAY_PID="" INFLUX_PID=""

cleanup() {
    stop_pid "${STARTED_PID:-}"
    stop_pid "$FAST_PID"
    stop_pid "$REPLAY_PID"
    stop_pid "$INFLUX_PID"
    stop_pid "$BSTORE_PID"
    stop_pid "$VALIDATOR_PID"
    { exec 9>&-; } 2>/dev/null || true
    if [ "$KEEP" = 1 ]; then echo "run directory kept: $RUN" >&2; else rm -rf "$RUN"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The validator stops when its stdin closes: it reads a FIFO this script holds open on
# fd 9, so it also stops if this script dies without running its trap.
mkfifo "$RUN/validator.stdin"
log "starting the validator (ledger $LEDGER, RPC $VALIDATOR_URL${ALPENGLOW:+, Alpenglow})"
# 64-slot epochs: epoch rewards often, and room for the restart below. The leader schedule
# of the next epoch needs a root in the current one (the schedule offset is one epoch), and
# a restart abandons the slot in progress, so for the next 32 slots the root lags the tip
# by 33; with 32-slot epochs the restarted validator then finds itself in no schedule at the
# epoch's last slot and stops ("I am not in the leader schedule yet"; docs/live-validator.md).
"$BSTORE_AGAVE_TOOL" validator --ledger "$LEDGER" --rpc-port "$PORT" --slots-per-epoch 64 "${ALPENGLOW[@]}" \
    <"$RUN/validator.stdin" >"$RUN/validator.out" 2>"$RUN/validator.log" &
VALIDATOR_PID=$!
exec 9>"$RUN/validator.stdin"
wait_validator_ready "$RUN/validator.out" "$VALIDATOR_PID" "$RUN/validator.log"
log "validator ready: $(grep -m1 '^ready ' "$RUN/validator.out")"

# "${LEDGER_READ_ONLY[@]}" COMMAND...: runs COMMAND (exec'd: $! is its pid) in its own
# mount namespace (unshare -Urm) where the ledger directory is a read-only bind mount of
# itself: it sees every change the validator makes through the real path, and any write it
# tried to the validator's ledger would fail loudly instead of going unnoticed.
LEDGER_READ_ONLY=(unshare -Urm sh -c
    'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"' sh "$LEDGER")

# start_bstore LABEL PORT [SERVE FLAGS...]: starts `bstore serve` on the ledger (read-only
# mount; its own files go to the secondary path outside the ledger), sets STARTED_PID.
start_bstore() {
    local label="$1" port="$2"
    shift 2
    "${LEDGER_READ_ONLY[@]}" "$BSTORE" serve --ledger "$LEDGER" --rpc-addr "127.0.0.1:$port" \
        --secondary-path "$RUN/secondary-$label" "$@" 2>"$RUN/bstore-$label.log" &
    STARTED_PID=$!
    python3 -c "import sys; sys.path.insert(0, '$LIVE'); import rpc; rpc.wait_until_serving(rpc.Client('http://127.0.0.1:$port'), 60)"
    # The niceness is set from out here, thread by thread: inside the unprivileged namespace
    # of the read-only mount a negative one is refused (nice only warns and runs at 0).
    if [ "$SERVE_NICE" != 0 ]; then
        local task
        for task in /proc/"$STARTED_PID"/task/*; do
            renice -n "$SERVE_NICE" -p "${task##*/}" >/dev/null \
                || { echo "cannot renice bstore ($label) to $SERVE_NICE" >&2; exit 1; }
        done
    fi
    log "bstore ($label) serving http://127.0.0.1:$port (pid $STARTED_PID, ledger mounted read-only)"
}
start_bstore watch "$BSTORE_PORT"
BSTORE_PID=$STARTED_PID

# `bstore replay --follow` beside it for the whole run, reporting every slot to a local
# InfluxDB 1.x (its own config, data and ports under the run directory); the per-slot charts
# are drawn from that database at the end.
INFLUX_PORT=$((PORT + 300))
mkdir -p "$RUN/influx"
cat >"$RUN/influx/influxdb.conf" <<CONF
reporting-disabled = true
bind-address = "127.0.0.1:$((PORT + 301))"
[meta]
  dir = "$RUN/influx/meta"
  logging-enabled = false
[data]
  dir = "$RUN/influx/data"
  wal-dir = "$RUN/influx/wal"
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  enabled = true
  bind-address = "127.0.0.1:$INFLUX_PORT"
  auth-enabled = false
  log-enabled = false
[logging]
  level = "warn"
CONF
influxd -config "$RUN/influx/influxdb.conf" >"$RUN/influx/influxd.log" 2>&1 &
INFLUX_PID=$!
for _ in $(seq 1 100); do
    curl -sf -XPOST "http://127.0.0.1:$INFLUX_PORT/query" --data-urlencode "q=CREATE DATABASE live" >/dev/null && break
    sleep 0.2
done
# With Alpenglow the test cluster runs it from genesis: every slot after 0 is an Alpenglow
# block (markers, the Alpenglow PoH rules); replay must be told (docs/block-components.md).
REPLAY_ALPENGLOW=()
[ ${#ALPENGLOW[@]} -gt 0 ] && REPLAY_ALPENGLOW=(--alpenglow-genesis-slot 0)
"${LEDGER_READ_ONLY[@]}" env SOLANA_METRICS_CONFIG="host=http://127.0.0.1:$INFLUX_PORT,db=live,u=,p=" \
    "$BSTORE" replay --ledger "$LEDGER" --follow --format json "${REPLAY_ALPENGLOW[@]}" \
    >"$RUN/replay.jsonl" 2>"$RUN/replay.log" &
REPLAY_PID=$!
log "bstore replay --follow (pid $REPLAY_PID) reporting to InfluxDB on 127.0.0.1:$INFLUX_PORT"

STATUS=0
log "workload"
python3 "$LIVE/workload.py" --rpc "$VALIDATOR_URL" --payer "$LEDGER/payer.json" --out "$RUN/workload.json"
log "comparison"
python3 "$LIVE/compare.py" --validator "$VALIDATOR_URL" --bstore "$BSTORE_URL" --payer "$LEDGER/payer.json" \
    --record "$RUN/workload.json" --out "$RUN/compare.json" | tee "$RUN/compare.out" || STATUS=1
if [ "$SKIP_LOAD" = 0 ]; then
    log "load"
    python3 "$LIVE/load.py" --validator "$VALIDATOR_URL" --bstore "$BSTORE_URL" \
        --validator-pid "$VALIDATOR_PID" --bstore-pid "$BSTORE_PID" --rust-client "$BSTORE" \
        --record "$RUN/workload.json" --out "$RUN/load.json" || STATUS=1
fi
# Both catch-up pacings over the same slots at the same time, each against the validator:
# the default (the ledger's files watched, at most every 10 ms) and a 20 ms poll.
start_bstore poll-20 $((BSTORE_PORT + 1)) --catch-up-poll --catch-up-ms 20
FAST_PID=$STARTED_PID
log "freshness over $SLOTS slots: the file watch (the default) and --catch-up-poll --catch-up-ms 20"
python3 "$LIVE/freshness.py" --validator "$VALIDATOR_URL" --bstore "$BSTORE_URL" --slots "$SLOTS" \
    --label watch --out "$RUN/freshness-watch.json" &
FRESH_DEFAULT=$!
python3 "$LIVE/freshness.py" --validator "$VALIDATOR_URL" --bstore "http://127.0.0.1:$((BSTORE_PORT + 1))" \
    --slots "$SLOTS" --label poll-20 --out "$RUN/freshness-poll-20.json" || STATUS=1
wait "$FRESH_DEFAULT" || STATUS=1
stop_pid "$FAST_PID"

# A validator restart in the middle: bstore keeps answering while the validator is down,
# then follows the restarted validator (which reloads its newest snapshot and replays its
# ledger), and every answer still equals the validator's.
log "validator restart"
stop_pid "$VALIDATOR_PID"
python3 "$LIVE/restart.py" down --bstore "$BSTORE_URL" --out "$RUN/restart-down.json" || STATUS=1
: >"$RUN/validator.out"
"$BSTORE_AGAVE_TOOL" validator --ledger "$LEDGER" --rpc-port "$PORT" --resume \
    <"$RUN/validator.stdin" >"$RUN/validator.out" 2>>"$RUN/validator.log" &
VALIDATOR_PID=$!
wait_validator_ready "$RUN/validator.out" "$VALIDATOR_PID" "$RUN/validator.log"
python3 "$LIVE/restart.py" up --validator "$VALIDATOR_URL" --bstore "$BSTORE_URL" \
    --down "$RUN/restart-down.json" --out "$RUN/restart-up.json" || STATUS=1
log "comparison after the restart"
python3 "$LIVE/compare.py" --validator "$VALIDATOR_URL" --bstore "$BSTORE_URL" --payer "$LEDGER/payer.json" \
    --record "$RUN/workload.json" --out "$RUN/compare-after-restart.json" \
    | tee "$RUN/compare-after-restart.out" || STATUS=1
kill -0 "$BSTORE_PID" 2>/dev/null || { echo "bstore exited during the restart" >&2; STATUS=1; }

log "replay --follow: stop, summary, charts"
kill -0 "$REPLAY_PID" 2>/dev/null || { echo "replay --follow exited early" >&2; tail -5 "$RUN/replay.log" >&2; STATUS=1; }
stop_pid "$REPLAY_PID"
# A slot replay finds dead must be one the validator marked dead too (with Alpenglow a
# leader may abort its block, and both then mark it dead), and the other way round.
"${LEDGER_READ_ONLY[@]}" "$BSTORE" ledger dead-slots --ledger "$LEDGER" --start-slot 0 \
    >"$RUN/validator-dead-slots.txt" || STATUS=1
# Replay reaches a slot the validator has already marked dead only to refuse it
# (already_dead): which of dead and refused it reports is a race. Each of the validator's
# dead slots is read through bstore's own fetch path with the dead flag ignored (`ledger
# slot`), so a refusal still needs bstore's own verdict: the fetch must fail too.
: >"$RUN/validator-dead-fetched.txt"
while read -r slot; do
    [ -n "$slot" ] || continue
    if why=$("${LEDGER_READ_ONLY[@]}" "$BSTORE" ledger slot --access read-only --ledger "$LEDGER" \
        "$slot" 2>&1 >/dev/null); then
        echo "$slot fetched" >>"$RUN/validator-dead-fetched.txt"
    else
        echo "$slot failed ${why//$'\n'/ }" >>"$RUN/validator-dead-fetched.txt"
    fi
done <"$RUN/validator-dead-slots.txt"
python3 - "$RUN/replay.jsonl" "$RUN/validator-dead-slots.txt" "$RUN/validator-dead-fetched.txt" <<'PY' || STATUS=1
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
validator_dead = {int(l) for l in open(sys.argv[2]) if l.strip()}
# "SLOT fetched" or "SLOT failed WHY": (verdict, why) per slot.
fetched = {}
for line in open(sys.argv[3]):
    parts = line.split(maxsplit=2)
    if len(parts) >= 2:
        fetched[int(parts[0])] = (parts[1], parts[2].strip() if len(parts) > 2 else "")
slots = [r for r in rows if "slot" in r]
summary = rows[-1] if rows else {}
dead = {r["slot"]: r for r in slots if r.get("status") == "dead"}
refused = [r for r in slots if r.get("status") == "refused"]
replayed = {r["slot"] for r in slots if r.get("status") == "replayed"}
agreed = sorted(s for s in dead if s in validator_dead)
# Refused as already dead, dead in the validator's ledger, and failing bstore's fetch.
marked = {
    r["slot"]: fetched[r["slot"]][1]
    for r in refused
    if r.get("reason") == "already_dead" and r["slot"] in validator_dead
    and fetched.get(r["slot"], ("",))[0] == "failed"
}
bad = [r for s, r in dead.items() if s not in validator_dead]
bad += [r for r in refused if r["slot"] not in marked]
live = sorted(s for s in validator_dead if s in replayed)
pending = [r["slot"] for r in slots if r.get("status") == "pending"]
print(f"replay --follow: {len(slots)} slots reported, summary {json.dumps(summary)}")
print(f"replay --follow: dead as the validator marked them: "
      f"{[(s, dead[s].get('reason')) for s in agreed]}")
print(f"replay --follow: marked dead by the validator before replay reached them, and "
      f"failing bstore's fetch: {sorted(marked.items())}")
print(f"replay --follow: dead or refused where the validator's are not: {bad[:5]}; "
      f"dead in the validator's ledger but replayed: {live}; still pending at the stop: {pending}")
sys.exit(1 if not slots or bad or live else 0)
PY
"$BSTORE" metrics plot --influx-url "http://127.0.0.1:$INFLUX_PORT" --db live --out "$RUN/charts" || STATUS=1

log "summary"
python3 - "$RUN" <<'EOF'
import json, sys
run = sys.argv[1]
def load(name):
    try:
        with open(f"{run}/{name}") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
workload = load("workload.json") or {}
print(f"workload: {len(workload.get('transactions', []))} transactions, refused: "
      f"{[r['label'] for r in workload.get('refused', [])]}")
for name in ("compare.json", "compare-after-restart.json"):
    compare = load(name)
    if compare:
        print(f"{name}: {sum(compare['checked'].values())} requests, {len(compare['differences'])} differences")
for name in ("restart-down.json", "restart-up.json"):
    r = load(name)
    if r:
        print(f"{name}: {json.dumps(r)}")
for name in ("freshness-watch.json", "freshness-poll-20.json"):
    f = load(name)
    if f:
        print(f"{f['label']}: finalized {f['finalized']}, confirmed {f['confirmed']}")
def p50_p99(served):
    """Each method's (p50, p99) in ms out of one load result."""
    return {m: (v["p50_ms"], v["p99_ms"]) for m, v in served.items() if isinstance(v, dict)}


l = load("load.json")
if l:
    for server in ("validator", "bstore"):
        print(f"load {server}: {l[server]['per_s']} req/s, p50/p99 ms {p50_p99(l[server])}")
    for server, r in l.get("rust_clients", {}).items():
        print(f"load {server}, Rust clients: {r['per_s']} req/s, p50/p99 ms {p50_p99(r)}")
    print(f"validator slots/s: {l['validator_slots_per_s']}")
    rounds = l.get("slot_rate_rounds")
    if rounds:
        effects = rounds["effects"]
        print(f"slot rate ({rounds['rounds']} rounds of {rounds['seconds']:g} s windows at "
              f"{rounds['rate']:g} req/s, {rounds['clients']} clients): idle mean "
              f"{effects['idle_mean']} slots/s (spread {effects['idle_spread_percent']}%)")
        for arm in ("bstore", "validator"):
            e = effects.get(arm)
            if e:
                cpu = [w.get(f"{arm}_cpu_percent") for w in rounds["windows"] if w["arm"] == arm]
                verdict = {True: "measurable", False: "not measurable"}.get(
                    e["measurable"], "one window: no interval")
                print(f"  {arm} serving: mean {e['mean_percent']}%, 95% interval "
                      f"{e['ci95_percent']} ({verdict}), median {e['median_percent']}% "
                      f"{e['changes_percent']}; its CPU % of a core {cpu}")
    pairs = l.get("pairs")
    if pairs:
        for method, r in pairs["ratios"].items():
            print(f"pairs ({len(pairs['pairs'])} of {pairs['seconds']:g} s windows at "
                  f"{pairs['rate']:g} req/s, Rust clients), {method}: bstore/validator p50 "
                  f"median {r['p50_median']} {r['p50_ratios']}, p99 median {r['p99_median']}")
    floor = l.get("floor")
    if floor:
        for name in ("validator", "bstore"):
            v = floor[name].get(floor["method"], {})
            print(f"floor ({floor['method']} alone at {floor['rate']:g} req/s), {name}: "
                  f"p50/p99 ms {(v.get('p50_ms'), v.get('p99_ms'))}")
EOF
[ "$STATUS" = 0 ] && log "no difference" || log "differences or failures: see above (run directory $RUN)"
exit "$STATUS"
