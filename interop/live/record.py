#!/usr/bin/env python3
"""Records a live validator's own answers about chosen slots of its ledger, for a committed
fixture that CI checks bstore against without a validator (fixtures/agave-live,
scripts/record-live-fixture.sh).

usage: record.py --validator URL --record workload.json --slots 4-25,57-60 --out answers.json

Asked (compare.py's questions, limited to what a slice of the ledger holding only these
slots answers the same way as the whole ledger): for every slot whose parent is kept too,
getBlock in every encoding × detail × rewards and with `confirmed`, getBlockTime, and the
v0 / v1 variants; getTransaction of every recorded signature in a kept slot; every
address's getSignaturesForAddress whole and paged, as compare.py pages (the addresses'
whole history must lie in kept slots: checked); getSignatureStatuses with
searchTransactionHistory; getBlocks and getBlocksWithLimit within each kept range (from its
second slot). Not asked: what depends on the ledger's bounds or tip (getFirstAvailableBlock,
the slot methods, statuses without searchTransactionHistory, getBlocks across a gap).
"""

import argparse
import json
import sys
import time

import compare
import jsondiff
from rpc import Client


def parse_ranges(text):
    """`4-25,57-60,81` as a list of (first, last) slot pairs, inclusive, ascending."""
    out = []
    for part in text.split(","):
        first, _, last = part.partition("-")
        out.append((int(first), int(last or first)))
    out.sort()
    for (_, last), (first, _) in zip(out, out[1:]):
        if first <= last + 1:
            raise ValueError(f"ranges overlap or touch: {text}")
    return out


class Recorder:
    """compare.Comparer's interface (`check`, `notes`), asking one server and keeping each
    answer in the form compare.py compares (jsondiff.comparable)."""

    def __init__(self, url):
        self.client = Client(url, timeout=60.0)
        self.requests = []
        self.notes = []

    def check(self, method, params):
        answer = jsondiff.comparable(self.client.call(method, params))
        self.requests.append({"method": method, "params": params, "answer": answer})
        return answer

    def check_all(self, requests):
        for method, params in requests:
            self.check(method, params)


def wait_until_finalized(client, slot, seconds):
    """Waits until the validator serves `slot` as a finalized block (the restarted Alpenglow
    validator answered "Block not available" for every old slot in its first seconds)."""
    deadline = time.monotonic() + seconds
    while True:
        config = {"transactionDetails": "none", "maxSupportedTransactionVersion": 1}
        answer = client.call("getBlock", [slot, config])
        if "result" in answer:
            return
        if time.monotonic() > deadline:
            sys.exit(f"record.py: slot {slot} not served within {seconds} s: {answer}")
        time.sleep(0.5)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--validator", required=True)
    parser.add_argument("--record", required=True, help="workload.py's JSON record")
    parser.add_argument("--slots", required=True, help="kept slot ranges: 4-25,57-60")
    parser.add_argument("--out", required=True)
    parser.add_argument(
        "--wait", type=float, default=300.0, help="seconds to wait for the slots to be served"
    )
    args = parser.parse_args()
    with open(args.record) as f:
        record = json.load(f)
    ranges = parse_ranges(args.slots)
    kept = {slot for first, last in ranges for slot in range(first, last + 1)}
    # A block's answer reads its parent too (previousBlockhash): only slots whose parent
    # is kept are asked about.
    asked = {slot for slot in kept if slot - 1 in kept}
    missing = [tx["label"] for tx in record["transactions"] if tx.get("slot") not in asked]
    if missing:
        sys.exit(f"record.py: transactions outside the asked slots: {missing}")

    rec = Recorder(args.validator)
    version = rec.client.result("getVersion")
    wait_until_finalized(rec.client, max(asked), args.wait)
    rec.check_all(r for slot in sorted(asked) for r in compare.block_requests(slot))
    rec.check_all(compare.versioned_block_requests(record, lambda slot: slot in asked))
    rec.check_all(compare.transaction_requests(record))
    compare.compare_addresses(rec, record)
    outside = [
        (r["params"][0], item["slot"])
        for r in rec.requests
        if r["method"] == "getSignaturesForAddress"
        for item in (r["answer"].get("result") or [])
        if item["slot"] not in asked
    ]
    if outside:
        sys.exit(f"record.py: address history outside the asked slots: {outside[:5]}")
    signatures = [tx["signature"] for tx in record["transactions"]]
    rec.check("getSignatureStatuses", [signatures, {"searchTransactionHistory": True}])
    # Within each range from its second slot: a ledger's lowest block is never available
    # (its parent's blockhash is missing), so the slice's first range starts one higher.
    for first, last in ranges:
        if last > first:
            rec.check("getBlocks", [first + 1, last])
            rec.check("getBlocksWithLimit", [first + 1, last - first])
    rec.client.close()
    with open(args.out, "w") as f:
        json.dump(
            {"validator": version, "slots": args.slots, "requests": rec.requests},
            f,
            separators=(",", ":"),
        )
    print(f"record.py: {len(rec.requests)} answers of Agave {version.get('solana-core')}")


if __name__ == "__main__":
    main()
