#!/usr/bin/env python3
"""bstore across a restart of the validator whose ledger it follows.

usage: restart.py down --bstore URL --out down.json [--seconds 5]
       restart.py up --validator URL --bstore URL --down down.json --out up.json
                     [--new-slots 20] [--timeout 180]

`down` runs while the validator is stopped: for `--seconds`, bstore must keep answering
getSlot (finalized) and getBlock of that slot; any failed request fails the run. It
records the finalized slot bstore had.

`up` runs once the restarted validator serves: it waits until bstore's finalized slot is
`--new-slots` past the validator's finalized slot at the restart (the restarted validator
reloads its newest snapshot and replays its ledger first, then makes new blocks), and that
bstore serves the block at that slot. It records how long that took; a timeout fails.
"""

import argparse
import json
import sys
import time

from rpc import Client, RpcError, RpcTransportError

BLOCK = {"encoding": "json", "transactionDetails": "signatures", "maxSupportedTransactionVersion": 1}


def finalized(client):
    return client.result("getSlot", [{"commitment": "finalized"}])


def down(args):
    with Client(args.bstore, timeout=10.0) as bstore:
        return serve_while_down(args, bstore)


def serve_while_down(args, bstore):
    slot = finalized(bstore)
    answers, errors = 0, []
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline:
        try:
            now = finalized(bstore)
            block = bstore.result("getBlock", [now, BLOCK])
            if block is None or "blockhash" not in block:
                errors.append(f"getBlock {now}: {block!r}")
            answers += 2
        except (RpcError, RpcTransportError) as e:
            errors.append(str(e))
        time.sleep(0.1)
    return {"finalized": slot, "answers": answers, "errors": errors[:10]}, not errors


def up(args):
    with open(args.down) as f:
        before = json.load(f)["finalized"]
    with Client(args.validator) as validator, Client(args.bstore, timeout=10.0) as bstore:
        return catch_up_after_restart(args, before, validator, bstore)


def catch_up_after_restart(args, before, validator, bstore):
    started = time.monotonic()
    at_restart = finalized(validator)
    target = max(at_restart, before) + args.new_slots
    deadline = started + args.timeout
    seen = None
    while time.monotonic() < deadline:
        try:
            seen = finalized(bstore)
        except (RpcError, RpcTransportError) as e:
            return {"error": f"bstore stopped answering: {e}"}, False
        if seen >= target:
            block = bstore.result("getBlock", [seen, BLOCK])
            ok = block is not None and "blockhash" in block
            return {
                "finalized_before": before,
                "validator_finalized_at_restart": at_restart,
                "bstore_finalized": seen,
                "seconds_to_new_slots": round(time.monotonic() - started, 1),
                "block_served": ok,
            }, ok
        time.sleep(0.2)
    try:
        validator_now = finalized(validator)
    except (RpcError, RpcTransportError):
        validator_now = None
    cause = (
        "the validator itself made no new finalized slot after its restart"
        if validator_now is not None and validator_now < target
        else "bstore fell behind the validator"
    )
    return {
        "finalized_before": before,
        "validator_finalized_at_restart": at_restart,
        "validator_finalized_now": validator_now,
        "bstore_finalized": seen,
        "error": f"bstore did not reach slot {target} within {args.timeout} s: {cause}",
    }, False


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="phase", required=True)
    d = sub.add_parser("down")
    d.add_argument("--bstore", required=True)
    d.add_argument("--out", required=True)
    d.add_argument("--seconds", type=float, default=5.0)
    u = sub.add_parser("up")
    u.add_argument("--validator", required=True)
    u.add_argument("--bstore", required=True)
    u.add_argument("--down", required=True)
    u.add_argument("--out", required=True)
    u.add_argument("--new-slots", type=int, default=20)
    u.add_argument("--timeout", type=float, default=180.0)
    args = parser.parse_args()
    result, ok = (down if args.phase == "down" else up)(args)
    print(f"restart {args.phase}: {json.dumps(result)}")
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
