#!/usr/bin/env python3
"""How long after the validator bstore serves a new block.

usage: freshness.py --validator URL --bstore URL [--slots 500] [--seconds S] [--poll-ms 15]
                    [--label NAME] [--out result.json]

One thread per server and commitment (finalized and confirmed) asks getBlock(slot,
{transactionDetails: none, rewards: false}) for the next slot it has not yet seen, every
`--poll-ms`, and notes the monotonic time the first non-null answer arrived (a slot the
server declares skipped, -32007, is passed over and not counted). Starts just above each
commitment's tip at launch, and stops after `--slots` slots or `--seconds`, whichever
comes first. For every slot both servers served, the delay is bstore's time minus the
validator's; reported as count, p50, p90, p99 and max in ms per commitment.
"""

import argparse
import json
import sys
import threading
import time

from rpc import Client, RpcTransportError, percentile

SKIPPED = -32007
GIVE_UP = 10.0


def follow(url, commitment, first, stop_at, poll, seen, given_up, deadline):
    """Records in `seen[slot]` when `url` first served getBlock(slot) at `commitment`."""
    client = Client(url, timeout=10.0)
    slot, waiting_since = first, time.monotonic()
    config = {
        "encoding": "json",
        "transactionDetails": "none",
        "rewards": False,
        "maxSupportedTransactionVersion": 0,
        "commitment": commitment,
    }
    try:
        while slot <= stop_at and time.monotonic() < deadline:
            try:
                answer = client.call("getBlock", [slot, config])
            except RpcTransportError:
                time.sleep(poll)
                continue
            now = time.monotonic()
            if answer.get("result") is not None:
                seen[slot] = now
                slot, waiting_since = slot + 1, now
                continue
            error = answer.get("error") or {}
            if error.get("code") == SKIPPED:
                slot, waiting_since = slot + 1, now
                continue
            # A slot of an abandoned fork is never confirmed: pass it once the server's own tip
            # has gone past it for GIVE_UP seconds. Such slots are counted, so a long lag shows.
            if now - waiting_since > GIVE_UP:
                tip = client.call("getSlot", [{"commitment": commitment}]).get("result")
                if isinstance(tip, int) and tip > slot:
                    given_up.append(slot)
                    slot, waiting_since = slot + 1, now
                    continue
            time.sleep(poll)
    finally:
        client.close()


def summarize(validator, bstore):
    delays = sorted((bstore[s] - validator[s]) * 1000.0 for s in validator if s in bstore)
    if not delays:
        return {"count": 0}
    return {
        "count": len(delays),
        "p50_ms": round(percentile(delays, 0.50), 1),
        "p90_ms": round(percentile(delays, 0.90), 1),
        "p99_ms": round(percentile(delays, 0.99), 1),
        "max_ms": round(delays[-1], 1),
        "min_ms": round(delays[0], 1),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--validator", required=True)
    parser.add_argument("--bstore", required=True)
    parser.add_argument("--slots", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--poll-ms", type=float, default=15.0)
    parser.add_argument("--label", default="bstore")
    parser.add_argument("--out")
    args = parser.parse_args()
    if not 1 <= args.poll_ms <= 1000:
        parser.error("--poll-ms must be within 1..1000")
    deadline = time.monotonic() + args.seconds
    head = Client(args.validator)
    threads, seen, passed = [], {}, {}
    for commitment in ("finalized", "confirmed"):
        first = head.result("getSlot", [{"commitment": commitment}]) + 1
        for name, url in (("validator", args.validator), ("bstore", args.bstore)):
            seen[(commitment, name)] = {}
            passed[(commitment, name)] = []
            thread = threading.Thread(
                target=follow,
                args=(
                    url,
                    commitment,
                    first,
                    first + args.slots - 1,
                    args.poll_ms / 1000.0,
                    seen[(commitment, name)],
                    passed[(commitment, name)],
                    deadline,
                ),
                daemon=True,
            )
            threads.append(thread)
    head.close()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result = {"label": args.label, "poll_ms": args.poll_ms}
    for commitment in ("finalized", "confirmed"):
        validator, bstore = seen[(commitment, "validator")], seen[(commitment, "bstore")]
        summary = summarize(validator, bstore)
        summary["validator_slots"] = len(validator)
        summary["bstore_slots"] = len(bstore)
        summary["passed_over"] = {n: len(passed[(commitment, n)]) for n in ("validator", "bstore")}
        result[commitment] = summary
        print(f"freshness {args.label} {commitment}: {json.dumps(summary)}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    if result["finalized"]["count"] == 0:
        print("freshness: no slot was served by both servers", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
