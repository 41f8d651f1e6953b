#!/usr/bin/env bash
# Records fixtures/agave-live (rpc/tests/it/agave_live.rs checks bstore against it in CI)
# from a kept live run: a slice of the validator's own ledger and the validator's own
# answers about the slice's slots.
#
#   BSTORE_AGAVE_VERSION=4.4 scripts/validator-live.sh --keep      # RUN: the kept directory
#   scripts/record-live-fixture.sh RUN SLOTS [OUT]                # e.g. 4-25,57-60,63-65,80-82
#
# 1. The answers: the validator (the differential tool's `validator --resume`, on a copy of
#    RUN/ledger, stopped by its process id) answers interop/live/record.py's questions
#    about SLOTS (every recorded transaction and every recorded address's whole history
#    must lie in them; record.py checks).
# 2. The slice: a second copy of RUN/ledger's RocksDB as the run left it, every slot
#    outside SLOTS purged (`bstore ledger purge`, which also compacts), packed as
#    OUT/ledger.tar.gz beside OUT/answers.json.gz.
#
#   BSTORE_AGAVE_TOOL   an existing agave-interop binary (else the tool is built, ~1 h)
set -euo pipefail
source "$(dirname "$0")/lib/setup.sh"
cd "$REPO"
RUN="${1:?usage: scripts/record-live-fixture.sh RUN SLOTS [OUT]}"
SLOTS="${2:?usage: scripts/record-live-fixture.sh RUN SLOTS [OUT]}"
OUT="${3:-$REPO/fixtures/agave-live}"
[ -d "$RUN/ledger/rocksdb" ] && [ -f "$RUN/workload.json" ] ||
    { echo "$RUN has no ledger/rocksdb or workload.json (validator-live.sh --keep)" >&2; exit 2; }

ensure_apt libclang-dev pkg-config libssl-dev make g++
if [ -z "${BSTORE_AGAVE_TOOL:-}" ]; then
    build_agave_tool
    BSTORE_AGAVE_TOOL="$AGAVE_TOOL"
fi
cargo build --release -p bstore
BSTORE="${CARGO_TARGET_DIR:-$REPO/target}/release/bstore"

WORK="$(mktemp -d)"
VALIDATOR=""
cleanup() {
    if [ -n "$VALIDATOR" ]; then kill "$VALIDATOR" 2>/dev/null; wait "$VALIDATOR" 2>/dev/null; fi
    { exec 9>&-; } 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

log "the validator, restarted on a copy of $RUN/ledger"
cp -a "$RUN/ledger" "$WORK/live"
mkfifo "$WORK/validator.stdin"
PORT=18899
"$BSTORE_AGAVE_TOOL" validator --ledger "$WORK/live" --rpc-port "$PORT" --resume \
    <"$WORK/validator.stdin" >"$WORK/validator.out" 2>"$WORK/validator.log" &
VALIDATOR=$!
exec 9>"$WORK/validator.stdin"
wait_validator_ready "$WORK/validator.out" "$VALIDATOR" "$WORK/validator.log"

log "its answers about slots $SLOTS"
PYTHONDONTWRITEBYTECODE=1 python3 interop/live/record.py --validator "http://127.0.0.1:$PORT" \
    --record "$RUN/workload.json" --slots "$SLOTS" --out "$WORK/answers.json"
kill "$VALIDATOR"; wait "$VALIDATOR" 2>/dev/null || true; VALIDATOR=""

log "the slice: every other slot purged"
mkdir -p "$WORK/slice/ledger"
cp -a "$RUN/ledger/rocksdb" "$WORK/slice/ledger/rocksdb"
# The slots outside SLOTS, as START END pairs (the last one open-ended), purged from the
# highest down (the open-ended purge first leaves the smallest files).
PYTHONDONTWRITEBYTECODE=1 python3 - "$SLOTS" <<'PY' >"$WORK/purge"
import sys
sys.path.insert(0, "interop/live")
from record import parse_ranges
next_slot = 0
for first, last in parse_ranges(sys.argv[1]):
    if first > next_slot:
        print(next_slot, first - 1)
    next_slot = last + 1
print(next_slot, 2**62)
PY
while read -r start end; do
    "$BSTORE" ledger purge --ledger "$WORK/slice/ledger" "$start" "$end" >/dev/null
done < <(tac "$WORK/purge")
"$BSTORE" ledger bounds --ledger "$WORK/slice/ledger"

mkdir -p "$OUT"
tar --exclude='LOG*' --exclude=LOCK -czf "$OUT/ledger.tar.gz" -C "$WORK/slice" ledger
gzip -9 -c "$WORK/answers.json" >"$OUT/answers.json.gz"
ls -l "$OUT"
