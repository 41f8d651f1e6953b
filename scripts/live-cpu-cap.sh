#!/usr/bin/env bash
# What a CPU cap on `bstore serve` spares a validator when bstore is flooded.
#
# On a copy of a kept live run's ledger (scripts/validator-live.sh --keep), resumes the
# validator (`agave-interop validator --resume`), starts two `bstore serve` on it, puts one
# in a cgroup with a CPU quota, and runs interop/live/cpu_cap.py: rounds of 20 s windows,
# idle / saturating Rust clients on the uncapped server / the same on the capped one, the
# validator's slot rate timed edge to edge in each (docs/live-validator.md, "A CPU cap").
# Needs root and the cgroup cpu controller (v2, or v1 mounted at /sys/fs/cgroup/cpu).
# Takes about 5 minutes with the defaults (the tool and bstore built).
#
#   scripts/live-cpu-cap.sh RUN_DIR [--quota-percent 25] [--period-ms 100] [--rounds 4]
#                           [--round-seconds 20]
#     --quota-percent P   the capped server's CPU, percent of one core (default 25)
#     --period-ms M       the quota's period (default 100, the kernel's and systemd's)
#   BSTORE_AGAVE_TOOL, BSTORE_AGAVE_VERSION, CARGO_TARGET_DIR: as for validator-live.sh.
#   BSTORE_LIVE_PORT   the validator's RPC port (default 18899); bstore on +100 and +101.
set -euo pipefail
source "$(dirname "$0")/lib/setup.sh"
cd "$REPO"

[ $# -ge 1 ] || { echo "usage: $0 RUN_DIR [flags] (see the header)" >&2; exit 2; }
SOURCE_RUN="$1"; shift
QUOTA=25 PERIOD_MS=100 ROUNDS=4 ROUND_SECONDS=20
while [ $# -gt 0 ]; do
    case "$1" in
    --quota-percent) QUOTA="$2"; shift ;;
    --period-ms) PERIOD_MS="$2"; shift ;;
    --rounds) ROUNDS="$2"; shift ;;
    --round-seconds) ROUND_SECONDS="$2"; shift ;;
    *) echo "unknown argument $1 (see the header of $0)" >&2; exit 2 ;;
    esac
    shift
done
[ -d "$SOURCE_RUN/ledger" ] && [ -f "$SOURCE_RUN/workload.json" ] || {
    echo "$SOURCE_RUN holds no ledger/ and workload.json (a validator-live.sh --keep run)" >&2
    exit 2
}

WORK="" CGROUP=""
PORT="${BSTORE_LIVE_PORT:-18899}"
VALIDATOR_PID="" UNCAPPED_PID="" CAPPED_PID="" STARTED_PID=""
cleanup() {
    stop_pid "$STARTED_PID"
    stop_pid "$CAPPED_PID"
    stop_pid "$UNCAPPED_PID"
    stop_pid "$VALIDATOR_PID"
    { exec 9>&-; } 2>/dev/null || true
    # Empty once the capped server has exited (its threads leave with it).
    if [ -n "$CGROUP" ]; then rmdir "$CGROUP" 2>/dev/null || echo "could not remove $CGROUP" >&2; fi
    if [ -n "$WORK" ]; then rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The cgroup: v2 when the unified hierarchy offers the cpu controller, else v1's cpu one.
PERIOD_US=$((PERIOD_MS * 1000))
QUOTA_US=$((PERIOD_US * QUOTA / 100))
if grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
    CGROUP=/sys/fs/cgroup/bstore-cpu-cap.$$
    # Enabling the controller for the root's children is left in place (harmless).
    grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu >/sys/fs/cgroup/cgroup.subtree_control
    mkdir "$CGROUP"
    echo "$QUOTA_US $PERIOD_US" >"$CGROUP/cpu.max"
elif [ -w /sys/fs/cgroup/cpu/cgroup.procs ]; then
    CGROUP=/sys/fs/cgroup/cpu/bstore-cpu-cap.$$
    mkdir "$CGROUP"
    echo "$PERIOD_US" >"$CGROUP/cpu.cfs_period_us"
    echo "$QUOTA_US" >"$CGROUP/cpu.cfs_quota_us"
else
    echo "no writable cgroup cpu controller (needs root; v2 with cpu, or v1 at /sys/fs/cgroup/cpu)" >&2
    exit 1
fi

live_setup

WORK="$(mktemp -d /tmp/bstore-cpu-cap.XXXXXX)"
log "copying $SOURCE_RUN/ledger (the validator resumes on the copy)"
cp -a "$SOURCE_RUN/ledger" "$WORK/ledger"
mkfifo "$WORK/validator.stdin"
"$BSTORE_AGAVE_TOOL" validator --ledger "$WORK/ledger" --rpc-port "$PORT" --resume \
    <"$WORK/validator.stdin" >"$WORK/validator.out" 2>"$WORK/validator.log" &
VALIDATOR_PID=$!
exec 9>"$WORK/validator.stdin"
wait_validator_ready "$WORK/validator.out" "$VALIDATOR_PID" "$WORK/validator.log"

serve() {
    "$BSTORE" serve --ledger "$WORK/ledger" --rpc-addr "127.0.0.1:$1" \
        --secondary-path "$WORK/secondary-$1" 2>"$WORK/bstore-$1.log" &
    STARTED_PID=$!
    python3 -c "import sys; sys.path.insert(0, 'interop/live'); import rpc; rpc.wait_until_serving(rpc.Client('http://127.0.0.1:$1'), 60)"
}
serve $((PORT + 100)); UNCAPPED_PID=$STARTED_PID
serve $((PORT + 101)); CAPPED_PID=$STARTED_PID
# cgroup.procs moves every thread of the process (v1 and v2 alike).
echo "$CAPPED_PID" >"$CGROUP/cgroup.procs"
log "capped server (pid $CAPPED_PID) at $QUOTA% of a core per ${PERIOD_MS} ms in $CGROUP"

python3 interop/live/cpu_cap.py --validator "http://127.0.0.1:$PORT" \
    --uncapped "http://127.0.0.1:$((PORT + 100))" --capped "http://127.0.0.1:$((PORT + 101))" \
    --record "$SOURCE_RUN/workload.json" --rust-client "$BSTORE" \
    --pid "validator=$VALIDATOR_PID" --pid "uncapped=$UNCAPPED_PID" --pid "capped=$CAPPED_PID" \
    --rounds "$ROUNDS" --round-seconds "$ROUND_SECONDS" \
    --out "$SOURCE_RUN/cpu-cap-$QUOTA-$PERIOD_MS.json"
