#!/usr/bin/env bash
# Coverage-guided fuzzing, briefly: each target runs FUZZ_SECONDS (default 30) seconds with
# libFuzzer (cargo fuzz, no sanitizer, so it runs on the stable toolchain), seeded from the
# real shreds and data sets in ../shared/testdata. Any crash fails the script.
set -euo pipefail
source "$(dirname "$0")/lib/setup.sh"
cd "$REPO/fuzz"

SECONDS_EACH="${FUZZ_SECONDS:-30}"
command -v cargo-fuzz >/dev/null 2>&1 || cargo install --locked cargo-fuzz
require_testdata

seed() {  # seed TARGET: write every record of the shred files / every batch as corpus files
    local dir="corpus/$1"
    mkdir -p "$dir"
    python3 - "$1" "$dir" "$BSTORE_TESTDATA" "$REPO" <<'PY'
import glob, hashlib, os, struct, sys
target, out, data, repo = sys.argv[1:]
def write(b):
    open(os.path.join(out, hashlib.sha1(b).hexdigest()), "wb").write(b)
if target == "jsonrpc_request":
    import json
    calls = [
        ("getBlock", [417955322]), ("getBlock", [10, {"encoding": "base64", "transactionDetails": "full",
          "rewards": False, "commitment": "confirmed", "maxSupportedTransactionVersion": 0}]),
        ("getBlock", [10, "base58"]), ("getBlocks", [5, 10, {"commitment": "confirmed"}]),
        ("getBlocks", [5, {"minContextSlot": 3}]), ("getBlocksWithLimit", [5, 3]),
        ("getBlockTime", [10]), ("getBlockHeight", [{"commitment": "finalized"}]),
        ("getSlot", []), ("getFirstAvailableBlock", None), ("getMaxShredInsertSlot", []),
        ("getHealth", []), ("getVersion", []),
    ]
    reqs = [{"jsonrpc": "2.0", "id": i, "method": m, **({} if p is None else {"params": p})}
            for i, (m, p) in enumerate(calls)]
    for r in reqs:
        write(json.dumps(r).encode())
    write(json.dumps(reqs).encode())
    write(json.dumps([{"jsonrpc": "2.0", "method": "getSlot"}, 7, {"id": "x"}]).encode())
    # Members sent twice (a repeated id refuses the whole body, another repeated member
    # makes the object invalid).
    write(b'[{"jsonrpc":"2.0","id":1,"method":"getSlot","method":"getSlot"},{"id":2,"id":3}]')
elif target == "shred_parse":
    for f in glob.glob(data + "/**/*shreds*.bin", recursive=True):
        raw = open(f, "rb").read(); pos = 0
        while pos + 8 <= len(raw):
            n = struct.unpack_from("<Q", raw, pos)[0]; pos += 8
            if n > 65536 or pos + n > len(raw): break
            write(raw[pos:pos + n]); pos += n
elif target == "shred_stream":
    # Stream files are this target's input format: the first records of each.
    for f in glob.glob(data + "/**/*shreds*.bin", recursive=True):
        write(open(f, "rb").read()[:8192])
elif target == "entries_decode":
    for f in glob.glob(data + "/**/batch*.bin", recursive=True) + glob.glob(data + "/**/demo-shreds.bin", recursive=True):
        write(open(f, "rb").read())
    # Agave 4's v1, v0 and legacy transactions (testdata/agave4): one data set with all of
    # them in one entry, and one per transaction.
    import base64, json
    vectors = json.load(open(os.path.join(repo, "testdata/agave4/v1_transactions.json")))["vectors"]
    txs = [base64.b64decode(v["base64"]) for v in vectors]
    entry = lambda n: struct.pack("<Q", 1) + bytes(32) + struct.pack("<Q", n)
    write(struct.pack("<Q", 1) + entry(len(txs)) + b"".join(txs))
    for t in txs:
        write(struct.pack("<Q", 1) + entry(1) + t)
elif target == "block_component":
    # Agave-serialized markers and a whole Alpenglow slot's data sets (interop/agave4-block).
    import json
    vec = json.load(open(os.path.join(repo, "testdata/agave4/block_components.json")))
    for m in vec["markers"]:
        write(bytes.fromhex(m["hex"]))
    for s in vec["slot"]["data_sets"]:
        write(bytes.fromhex(s["hex"]))
    write(bytes.fromhex(vec["aborted"]["hex"]))
elif target == "history_decode":
    # Agave-written statuses and rewards rows are in the fixture ledger (RocksDB files);
    # the corpus starts from a few hand-made messages.
    write(bytes([0x10, 0x88, 0x27, 0x1a, 0x02, 0x05, 0x06, 0x50, 0x01]))
    write(bytes([0x0a, 0x05, 0x12, 0x03, 4, 0, 0, 0]))
    write(b"BSBR\x01" + bytes(8 * 2 + 64 + 2 + 4 + 4 + 1))
elif target == "parsed_instruction":
    for prog in range(12):
        for data in (b"", bytes([2, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0]), bytes([3, 1, 2, 3, 4, 5, 6, 7, 8, 9])):
            write(bytes([prog, 4]) + data)
elif target == "wal_tail":
    # Logs laid out as RocksDB's writer lays them out (32 KiB blocks, 7-byte headers, masked
    # CRC32C of type and payload): whole, and cut inside their last record.
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    def crc32c(b, crc=0):
        c = crc ^ 0xFFFFFFFF
        for x in b:
            c = table[(c ^ x) & 0xFF] ^ (c >> 8)
        return c ^ 0xFFFFFFFF
    def masked(kind, payload):
        c = crc32c(payload, crc32c(bytes([kind])))
        return ((((c >> 15) | (c << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF
    def log(records):
        out = bytearray()
        for rec in records:
            left, first = rec, True
            while True:
                room = 32768 - len(out) % 32768
                if room < 7:
                    out += bytes(room); continue
                take = min(len(left), room - 7); end = take == len(left)
                kind = {(True, True): 1, (True, False): 2, (False, False): 3, (False, True): 4}[(first, end)]
                out += struct.pack("<IHB", masked(kind, left[:take]), take, kind) + left[:take]
                left, first = left[take:], False
                if end: break
        return bytes(out)
    whole = log([b"a" * 40, bytes(range(256)) * 200, b""])
    write(whole)
    for cut in (60, 1000, 32768 + 5, len(whole) - 20):
        write(whole[:cut])
# slot_meta_decode, agave4_rows_decode and store_model start from an empty corpus (no real metas in the data;
# the model's input is an operation string).
PY
}

# Built first with its output shown: the runs below keep only libFuzzer's summary lines, so
# a build error there would fail the script without a word.
log "fuzz targets: build"
cargo fuzz build --sanitizer none --release

for target in shred_parse entries_decode block_component slot_meta_decode agave4_rows_decode shred_stream store_model jsonrpc_request history_decode parsed_instruction wal_tail; do
    seed "$target"
    extra=()
    # JSON-RPC: a dictionary of the method names and config keys reaches the params faster.
    [ -f "dicts/$target.dict" ] && extra+=("-dict=dicts/$target.dict")
    log "fuzz $target for ${SECONDS_EACH}s"
    cargo fuzz run --sanitizer none --release "$target" "corpus/$target" -- \
        -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -print_final_stats=1 "${extra[@]}" 2>&1 |
        grep -E '^(Done|stat::(number_of_executed_units|new_units_added|peak_rss_mb))|ERROR|panicked|SUMMARY|Failing input'
done
