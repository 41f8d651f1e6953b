#!/usr/bin/env python3
"""Asks a live validator and bstore (serving the validator's ledger) the same questions and
compares the answers value for value.

usage: compare.py --validator URL --bstore URL --record workload.json [--out report.json]

Compared, each over the slots both servers have finalized (from the validator's
getFirstAvailableBlock, less one, up to the lower of the two finalized slots):
- getBlock for every slot: encodings json, jsonParsed, base64, base58 × transactionDetails
  full, signatures, accounts, none × rewards true/false, with maxSupportedTransactionVersion
  0; for a slot holding a v0 or v1 transaction also without it (both must refuse alike),
  and for a v1 one with maxSupportedTransactionVersion 1 (every encoding and detail); json
  full with commitment confirmed;
- getBlockTime for every slot; getBlocks and getBlocksWithLimit over the range;
- getTransaction for every recorded signature in every encoding (and for v0 and v1
  transactions without maxSupportedTransactionVersion, for v1 ones with 1);
- getSignaturesForAddress for every recorded address, whole and paged (limit 1..3 with
  before, and until); and for `--moving-seconds` at finalized, then as long at confirmed,
  the newest five entries of the validator's vote account (new ones every few slots; with
  Alpenglow, where it gains none, of a new address `--payer` sends transfers meanwhile),
  asked again and again as roots advance (bstore twice in a row, so its kept answers are
  checked), compared whenever both servers stood at the same finalized (and confirmed)
  slots before and after the answers; then the same for the three newest blocks at each
  commitment (getBlock json full, bstore's kept answers of rooted blocks checked as
  they are rooted);
- getSignatureStatuses with and without searchTransactionHistory;
- getFirstAvailableBlock exactly; getSlot and getBlockHeight (values that move on their own)
  within a window of the validator's values, bstore's lag reported;
- the JSON-RPC layer itself: raw bodies that are not JSON, not request objects, invalid
  ones, calls without a version, notifications, wrong params counts and shapes, configs
  that do not parse, commitments Agave 4.x no longer reads, members sent twice (HTTP
  status, the whole answer, `jsonrpc` and `id` included, and its closing newline; a
  context's apiVersion and slot left out);
- the HTTP layer around it (`http_rules.py`): methods, paths, content types, `/health`,
  `OPTIONS` and cross-origin headers (status, headers and body).
A differing answer is asked again after `--retry-delay` seconds and reported only when it
still differs. Exit status 1 when any difference remains.
"""

import argparse
import json
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import http_rules
import jsondiff
from chain import load_keypair
from rpc import Client
from ticker import Ticker

ENCODINGS = ["json", "jsonParsed", "base64", "base58"]
DETAILS = ["full", "signatures", "accounts", "none"]


class Comparer:
    def __init__(self, validator_url, bstore_url, retry_delay, workers):
        self.urls = (validator_url, bstore_url)
        self.retry_delay = retry_delay
        self.local = threading.local()
        self.pool = ThreadPoolExecutor(max_workers=workers)
        self.lock = threading.Lock()
        self.checked = {}
        # What the validator answered, per method: result, null or error (a comparison of
        # nothing but errors would prove little).
        self.kinds = {}
        self.differences = []
        self.notes = []
        # Every thread's clients, closed by `close`.
        self.opened = []

    def clients(self):
        if not hasattr(self.local, "clients"):
            self.local.clients = tuple(Client(url, timeout=60.0) for url in self.urls)
            with self.lock:
                self.opened.extend(self.local.clients)
        return self.local.clients

    def close(self):
        """Stops the worker threads and closes every connection they opened."""
        self.pool.shutdown(wait=True)
        with self.lock:
            for client in self.opened:
                client.close()
            self.opened.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def ask_both(self, method, params):
        validator, bstore = self.clients()
        return (
            jsondiff.comparable(validator.call(method, params)),
            jsondiff.comparable(bstore.call(method, params)),
        )

    def settled(self, ask):
        """Both answers from `ask()`, asked again after the retry delay when they differ."""
        left, right = ask()
        if not jsondiff.same(left, right):
            time.sleep(self.retry_delay)
            left, right = ask()
        return left, right

    def tally(self, method, params, left, right):
        """Counts one comparison and records it when the answers still differ (under the
        lock)."""
        self.checked[method] = self.checked.get(method, 0) + 1
        if not jsondiff.same(left, right):
            self.differences.append(
                {
                    "method": method,
                    "params": params,
                    "diff": jsondiff.differences(left, right),
                    "validator": left,
                    "bstore": right,
                }
            )

    def check(self, method, params):
        """Compares one request; returns the validator's comparable answer."""
        left, right = self.settled(lambda: self.ask_both(method, params))
        kind = "error" if "error" in left else "null" if left["result"] is None else "result"
        with self.lock:
            self.kinds[(method, kind)] = self.kinds.get((method, kind), 0) + 1
            self.tally(method, params, left, right)
        return left

    def check_all(self, requests):
        """Runs (method, params) pairs on the worker threads; returns the validator's answers."""
        return list(self.pool.map(lambda r: self.check(*r), requests))

    def ask_raw(self, body):
        """Each server's HTTP status, parsed answer to one raw body (`None`: empty) and
        whether the answer ends with a newline (Agave's do)."""

        def answer(client):
            status, data = client.post(body.encode())
            newline = data.endswith(b"\n")
            if not data.strip():
                return [status, None, newline]
            try:
                parsed = json.loads(data)
            except ValueError:
                return [status, data.decode("utf-8", "replace"), newline]
            return [status, stable(parsed), newline]

        return tuple(answer(client) for client in self.clients())

    def check_raw(self, body):
        """Compares the answers to one raw body (the envelope and params errors)."""
        left, right = self.settled(lambda: self.ask_raw(body))
        with self.lock:
            self.tally("(raw body)", body, left, right)

    def check_http(self, request):
        """Compares the answers to one request of the HTTP layer (`http_rules`)."""
        left, right = self.settled(
            lambda: tuple(http_rules.answer(client, request) for client in self.clients())
        )
        with self.lock:
            self.tally("(http)", http_rules.describe(request), left, right)

    def check_moving(self, method, params, tolerance):
        """A value that grows on its own (a tip slot or height): bstore's answer must lie
        between the validator's answers just before and just after it, or trail the first
        by at most `tolerance` (bstore catches up with the writer every few ms)."""
        validator, bstore = self.clients()
        before = validator.call(method, params).get("result")
        ours = bstore.call(method, params).get("result")
        after = validator.call(method, params).get("result")
        with self.lock:
            self.checked[method] = self.checked.get(method, 0) + 1
        if not all(isinstance(v, int) for v in (before, ours, after)):
            self.record(
                method, params, {"validator": [before, after], "bstore": ours}, "not integers"
            )
            return
        if ours > after:
            self.record(
                method, params, {"validator": [before, after], "bstore": ours}, "bstore ahead"
            )
        elif ours < before - tolerance:
            self.record(
                method, params, {"validator": [before, after], "bstore": ours}, "bstore behind"
            )
        elif ours < before:
            with self.lock:
                self.notes.append(
                    f"{method} {json.dumps(params)}: bstore {before - ours} behind (within tolerance)"
                )

    def record(self, method, params, values, why):
        with self.lock:
            self.differences.append(
                {
                    "method": method,
                    "params": params,
                    "diff": [why],
                    "validator": values["validator"],
                    "bstore": values["bstore"],
                }
            )


def block_requests(slot):
    for encoding in ENCODINGS:
        for details in DETAILS:
            for rewards in (True, False):
                config = {
                    "encoding": encoding,
                    "transactionDetails": details,
                    "rewards": rewards,
                    "maxSupportedTransactionVersion": 0,
                    "commitment": "finalized",
                }
                yield ("getBlock", [slot, config])
    yield ("getBlock", [slot, {"maxSupportedTransactionVersion": 0, "commitment": "confirmed"}])
    yield ("getBlockTime", [slot])


def versioned_block_requests(record, asked):
    """For each recorded v0 or v1 transaction whose slot is `asked`: its block without
    maxSupportedTransactionVersion in every encoding (refused alike), and for v1 with 1,
    every encoding and detail."""
    for tx in record["transactions"]:
        if tx["version"] == "legacy" or tx.get("slot") is None or not asked(tx["slot"]):
            continue
        for encoding in ENCODINGS:
            yield ("getBlock", [tx["slot"], {"encoding": encoding}])
            if tx["version"] == 1:
                for details in DETAILS:
                    config = {
                        "encoding": encoding,
                        "transactionDetails": details,
                        "maxSupportedTransactionVersion": 1,
                    }
                    yield ("getBlock", [tx["slot"], config])


def transaction_requests(record):
    for tx in record["transactions"]:
        signature = tx["signature"]
        for encoding in ENCODINGS:
            config = {
                "encoding": encoding,
                "maxSupportedTransactionVersion": 0,
                "commitment": "finalized",
            }
            yield ("getTransaction", [signature, config])
        yield (
            "getTransaction",
            [signature, {"maxSupportedTransactionVersion": 0, "commitment": "confirmed"}],
        )
        if tx["version"] != "legacy":
            yield ("getTransaction", [signature, {"encoding": "json"}])
        if tx["version"] == 1:
            for encoding in ENCODINGS:
                config = {"encoding": encoding, "maxSupportedTransactionVersion": 1}
                yield ("getTransaction", [signature, config])


def stable(answer):
    """A whole parsed answer (its `jsonrpc` and `id` members included) without a
    context's apiVersion and slot: each server states its own version and bank."""
    items = answer if isinstance(answer, list) else [answer]
    for item in items:
        result = item.get("result") if isinstance(item, dict) else None
        if isinstance(result, dict) and isinstance(result.get("context"), dict):
            result["context"].pop("apiVersion", None)
            result["context"].pop("slot", None)
    return answer


def raw_requests(record, finalized):
    """Bodies whose answers come from the JSON-RPC layer itself (Agave's jsonrpc-core and
    jsonrpc-derive), over a finalized slot, a signature and an address of the run."""
    txs = [
        t for t in record["transactions"] if t.get("slot") is not None and t["slot"] <= finalized
    ]
    if not txs or not record["addresses"]:
        return []
    slot, sig = txs[0]["slot"], txs[0]["signature"]
    address = next(iter(record["addresses"].values()))

    def call(method, params, id=1):
        return json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": params})

    none = {"transactionDetails": "none"}
    return [
        '{"jsonrpc": "2.0", "method": ',
        "",
        "[]",
        "[1]",
        '"a string"',
        '{"jsonrpc":"2.0","id":1}',
        '{"jsonrpc":"1.0","id":1,"method":"getHealth"}',
        '{"jsonrpc":2.0,"id":1,"method":"getHealth"}',
        '{"id":1,"method":"getHealth"}',
        '{"jsonrpc":null,"id":"a","method":"getHealth"}',
        '{"jsonrpc":"2.0","id":1.5,"method":"getHealth"}',
        '{"jsonrpc":"2.0","id":-5,"method":"getHealth"}',
        '{"jsonrpc":"2.0","id":18446744073709551616,"method":"getHealth"}',
        '{"jsonrpc":"2.0","id":[1],"method":"getHealth"}',
        '{"jsonrpc":"2.0","id":"x","method":"getHealth"}',
        '{"jsonrpc":"2.0","id":null,"method":"getHealth"}',
        '{"jsonrpc":"2.0","id":1,"method":"getHealth","params":5}',
        '{"jsonrpc":"2.0","id":1,"method":"getHealth","extra":true}',
        '{"jsonrpc":"2.0","method":"getHealth"}',
        '{"method":"getHealth"}',
        '{"jsonrpc":"1.0","method":"getHealth"}',
        '[{"jsonrpc":"2.0","method":"getHealth"}]',
        '[{"jsonrpc":"2.0","id":1,"method":"getHealth"},{"jsonrpc":"2.0","method":"getHealth"}]',
        '[{"jsonrpc":"2.0","id":1,"method":"getHealth"},5]',
        '[{"jsonrpc":"2.0","id":1},{"id":2,"method":"getHealth"}]',
        '{"jsonrpc":"2.0","id":1,"id":2,"method":"getHealth"}',
        '[{"jsonrpc":"2.0","id":1,"method":"getHealth"},{"jsonrpc":"2.0","id":2,"id":2}]',
        '{"jsonrpc":"2.0","id":1,"method":"getHealth","method":"getHealth"}',
        '{"jsonrpc":"2.0","method":"getHealth","method":"getHealth"}',
        '[{"jsonrpc":"2.0","id":1,"method":"getHealth","params":[],"params":[]}]',
        '{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"getHealth"}',
        '{"jsonrpc":"2.0","id":1,"method":"getBlock","params":[%d,'
        '{"transactionDetails":"full","transactionDetails":"none"}]}' % slot,
        json.dumps([{"jsonrpc": "2.0", "id": i, "method": "getHealth"} for i in range(150)]),
        call("nope", []),
        call("getHealth", [1]),
        call("getFirstAvailableBlock", {"a": 1}),
        call("getSlot", [1, 2]),
        call("getSlot", ["finalized"]),
        call("getSlot", [{"minContextSlot": "x"}]),
        call("getBlock", None),
        call("getBlock", []),
        call("getBlock", {"slot": slot}),
        call("getBlock", ["x"]),
        call("getBlock", [-1]),
        call("getBlock", [slot, none, 3]),
        call("getBlock", [slot, {"encoding": "foo"}]),
        call("getBlock", [slot, "foo"]),
        call("getBlock", [slot, {"maxSupportedTransactionVersion": "x"}]),
        call("getBlock", [slot, {**none, "commitment": "recent"}]),
        call("getBlock", [slot, {**none, "commitment": 5}]),
        call("getBlock", [slot, {**none, "commitment": "processed"}]),
        call("getBlockTime", []),
        call("getBlockTime", [slot, 2]),
        call("getBlockTime", None),
        call("getBlockTime", [None]),
        call("getBlocksWithLimit", [slot]),
        call("getBlocks", [slot, "x"]),
        call("getBlocks", [slot, {"minContextSlot": "x"}]),
        call("getBlocks", [slot, {"commitment": "finalized"}, "x"]),
        call("getTransaction", ["notbase58!"]),
        call("getTransaction", [sig, {"encoding": "foo"}]),
        call("getTransaction", [sig, {"commitment": "singleGossip"}]),
        call("getSignaturesForAddress", ["abc"]),
        call("getSignaturesForAddress", [address, {"limit": 0}]),
        call("getSignaturesForAddress", [address, {"limit": "x"}]),
        call("getSignatureStatuses", [["zz"]]),
        call("getSignatureStatuses", [[sig], {"searchTransactionHistory": "x"}]),
        call("getSignatureStatuses", [[sig] * 257]),
    ]


def compare_addresses(cmp, record):
    """Each address's whole history, then page by page with limits 1..3, then `until`."""
    for name, address in sorted(record["addresses"].items()):
        whole = cmp.check("getSignaturesForAddress", [address, {"commitment": "finalized"}])
        items = whole.get("result") or []
        signatures = [item["signature"] for item in items if isinstance(item, dict)]
        for limit in (1, 2, 3):
            before = None
            for _page in range(len(signatures) // limit + 1):
                config = {"limit": limit, "commitment": "finalized"}
                if before:
                    config["before"] = before
                page = cmp.check("getSignaturesForAddress", [address, config]).get("result") or []
                if not page:
                    break
                before = page[-1]["signature"]
        if len(signatures) >= 3:
            cmp.check("getSignaturesForAddress", [address, {"until": signatures[-2]}])
            cmp.check(
                "getSignaturesForAddress",
                [address, {"before": signatures[0], "until": signatures[-1], "limit": 2}],
            )
        if not signatures:
            cmp.notes.append(f"address {name} {address} has no finalized history on the validator")


def compare_moving_address(cmp, seconds, payer=None, wait=3.0):
    """An address with new entries every few slots: for `seconds` at `finalized`, then as
    long at `confirmed`, its newest entries asked of both servers (bstore twice in a row,
    the second most likely from its kept answer), compared in aligned rounds
    (`compare_moving_rounds`). bstore's kept answers must follow the roots and
    confirmations exactly. The address is the validator's vote account when it gains an
    entry within `wait` seconds (its votes are transactions); otherwise (Alpenglow) one
    that `payer` sends a transfer every few hundred milliseconds meanwhile (`Ticker`)."""
    validator, _ = cmp.clients()
    accounts = validator.result("getVoteAccounts")
    voters = accounts.get("current", []) + accounts.get("delinquent", [])
    vote = voters[0]["votePubkey"] if voters else None
    if vote is not None and address_moves(validator, vote, wait):
        moving_address_rounds(cmp, vote, seconds)
        return
    if payer is None:
        cmp.notes.append(
            f"moving address: none (the vote account {vote} gained no entry in {wait} s, "
            "and no --payer was given to make one)"
        )
        return
    with Ticker(cmp.urls[0], payer) as ticker:
        moving_address_rounds(cmp, str(ticker.address), seconds)
    cmp.notes.append(
        f"moving address: the vote account {vote} gained no entry in {wait} s (with "
        f"Alpenglow votes are not transactions); {ticker.sent} transfers sent to "
        f"{ticker.address} during its rounds instead ({ticker.refused} refused)"
    )
    if ticker.sent == 0:
        cmp.record(
            "getSignaturesForAddress (moving)",
            [str(ticker.address)],
            {"validator": None, "bstore": None},
            "no transfer reached the moving address: its rounds checked nothing new",
        )


def address_moves(validator, address, wait):
    """Whether `address` gains a confirmed entry within `wait` seconds."""

    def newest():
        entries = validator.result(
            "getSignaturesForAddress", [address, {"limit": 1, "commitment": "confirmed"}]
        )
        return entries[0]["signature"] if entries else None

    first = newest()
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        time.sleep(0.2)
        if newest() != first:
            return True
    return False


def moving_address_rounds(cmp, address, seconds):
    for commitment in ("finalized", "confirmed"):
        request = ("getSignaturesForAddress", [address, {"limit": 5, "commitment": commitment}])
        compare_moving_rounds(
            cmp, f"moving address {address}", commitment, seconds, lambda r=request: [r]
        )


def compare_moving_blocks(cmp, seconds):
    """The newest blocks: for `seconds` at `finalized`, then as long at `confirmed`, the
    three newest blocks at that commitment (json, full) asked of both servers (bstore
    twice in a row: a rooted block's second answer is its kept one), compared in aligned
    rounds (`compare_moving_rounds`). A block is asked within slots of being rooted, while
    its block time, height and rewards are being written: bstore keeps an answer only once
    nothing in it can still arrive, and must answer as the validator does either way."""
    validator, _ = cmp.clients()
    for commitment in ("finalized", "confirmed"):

        def requests(commitment=commitment):
            tip = validator.result("getSlot", [{"commitment": commitment}])
            slots = validator.result(
                "getBlocks", [max(tip - 16, 0), tip, {"commitment": commitment}]
            )
            config = {
                "encoding": "json",
                "transactionDetails": "full",
                "maxSupportedTransactionVersion": 0,
                "commitment": commitment,
            }
            return [("getBlock", [slot, config]) for slot in (slots or [])[-3:]]

        compare_moving_rounds(cmp, "newest blocks", commitment, seconds, requests)


def compare_moving_rounds(cmp, label, commitment, seconds, requests):
    """For `seconds`, rounds of `requests()` ((method, params) pairs chosen for the round),
    each asked of the validator once and of bstore twice in a row, compared whenever both
    servers' finalized (and at `confirmed` also confirmed) slots were the same before and
    after the round: the answers are then of the same ledger prefix, each slot on the same
    side of the root."""
    validator, bstore = cmp.clients()
    tips = ["finalized"] if commitment == "finalized" else ["finalized", "confirmed"]

    def slots():
        return [
            server.result("getSlot", [{"commitment": tip}])
            for tip in tips
            for server in (validator, bstore)
        ]

    aligned = skipped = late = 0
    answers = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        before = slots()
        asked = [
            (method, params, jsondiff.comparable(validator.call(method, params)),
             [jsondiff.comparable(bstore.call(method, params)) for _ in range(2)])
            for method, params in requests()
        ]
        after = slots()
        if before != after or any(
            before[i] != before[i + 1] for i in range(0, len(before), 2)
        ):
            skipped += 1
            continue
        aligned += 1
        compared = []
        for method, params, left, rights in asked:
            for right in rights:
                if late_block_times(left, right) and asked_again_agrees(cmp, method, params, left):
                    late += 1
                    right = left
                compared.append((method, params, left, right))
        with cmp.lock:
            for method, params, left, right in compared:
                answers.add(json.dumps(left, sort_keys=True))
                cmp.tally(f"{method} (moving, {commitment})", params, left, right)
    note = (
        f"{label} at {commitment}: {aligned} rounds compared at equal slots ({len(answers)} "
        f"different answers), {skipped} skipped (a root or confirmation moved during the "
        "round, or the servers stood at different slots)"
    )
    if late:
        note += (
            f"; {late} of bstore's answers gave a finalized entry's blockTime as null and, "
            "asked again after the retry delay, as the validator did (the row landed after "
            "the root and after bstore's catch-up)"
        )
    cmp.notes.append(note)
    if aligned == 0:
        cmp.record(
            f"{label} (moving, {commitment})",
            None,
            {"validator": None, "bstore": None},
            "no round found both servers at the same slots",
        )


def late_block_times(left, right):
    """Whether bstore's getSignaturesForAddress answer `right` differs from the validator's
    `left` only in entries whose blockTime bstore gives as null and the validator as a
    time. Agave writes a block's time from its transaction status service after the bank
    freezes, and the write can land after the root that finalizes the block (seen under
    Alpenglow: the root, the entries and the optimistic slot in one write-ahead-log record,
    the block time in the next); bstore caught up between the two answers what the ledger
    then holds, as Agave's finalized path does (docs/live-validator.md)."""
    entries, ours = left.get("result"), right.get("result")
    if not (isinstance(entries, list) and isinstance(ours, list)) or len(entries) != len(ours):
        return False
    late = False
    for theirs, mine in zip(entries, ours):
        if not (isinstance(theirs, dict) and isinstance(mine, dict)):
            return False
        time_then = theirs.get("blockTime")
        if isinstance(time_then, int) and "blockTime" in mine and mine["blockTime"] is None:
            mine = dict(mine, blockTime=time_then)
            late = True
        if not jsondiff.same(theirs, mine):
            return False
    return late


def asked_again_agrees(cmp, method, params, left):
    """bstore asked `params` again after the retry delay, with room for entries added
    meanwhile: the entries of the validator's answer `left`, found by signature, are equal
    and in the same order."""
    time.sleep(cmp.retry_delay)
    config = params[1] if len(params) > 1 and isinstance(params[1], dict) else {}
    wider = [params[0], dict(config, limit=min(config.get("limit", 1000) + 100, 1000))]
    _, bstore = cmp.clients()
    again = jsondiff.comparable(bstore.call(method, wider)).get("result")
    if not isinstance(again, list):
        return False
    wanted = {entry.get("signature") for entry in left["result"]}
    found = [e for e in again if isinstance(e, dict) and e.get("signature") in wanted]
    return jsondiff.same(found, left["result"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--validator", required=True)
    parser.add_argument("--bstore", required=True)
    parser.add_argument("--record", required=True, help="workload.py's JSON record")
    parser.add_argument("--out", help="write every difference, with both answers, here (JSON)")
    parser.add_argument("--retry-delay", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--tolerance-slots", type=int, default=3, help="lag allowed for getSlot/getBlockHeight"
    )
    parser.add_argument(
        "--moving-seconds",
        type=float,
        default=8.0,
        help="how long (per commitment) the vote account's newest entries, then the newest "
        "blocks, are compared as roots advance",
    )
    parser.add_argument(
        "--payer",
        type=load_keypair,
        help="a funded keypair (Solana CLI JSON): with it, when the vote account gains no "
        "entries (Alpenglow), a new address is sent transfers for the moving-address rounds",
    )
    args = parser.parse_args()
    with open(args.record) as f:
        record = json.load(f)
    with Comparer(args.validator, args.bstore, args.retry_delay, args.workers) as cmp:
        compare_all(args, record, cmp)
    report(cmp, args.out, cmp.span)
    sys.exit(1 if cmp.differences else 0)


def compare_all(args, record, cmp):
    """Every request of the run, on `cmp`; sets `cmp.span` to the slots compared."""
    validator, bstore = cmp.clients()
    finalized = min(
        validator.result("getSlot", [{"commitment": "finalized"}]),
        bstore.result("getSlot", [{"commitment": "finalized"}]),
    )
    first = validator.result("getFirstAvailableBlock")
    cmp.check("getFirstAvailableBlock", None)
    start = max(first - 1, 0)
    print(
        f"compare: slots {start}..={finalized}, {len(record['transactions'])} signatures",
        file=sys.stderr,
    )
    cmp.check("getBlocks", [start, finalized])
    cmp.check("getBlocks", [first, finalized, {"commitment": "confirmed"}])
    blocks = validator.result("getBlocks", [first, finalized])
    for limit in (1, 5, len(blocks)):
        cmp.check("getBlocksWithLimit", [first, limit])
    if len(blocks) > 10:
        cmp.check("getBlocksWithLimit", [blocks[len(blocks) // 2], 5, {"commitment": "finalized"}])
    requests = [r for slot in range(start, finalized + 1) for r in block_requests(slot)]
    requests.extend(versioned_block_requests(record, lambda slot: slot <= finalized))
    requests.extend(transaction_requests(record))
    cmp.check_all(requests)
    compare_addresses(cmp, record)
    compare_moving_address(cmp, args.moving_seconds, args.payer)
    compare_moving_blocks(cmp, args.moving_seconds)
    signatures = [tx["signature"] for tx in record["transactions"]]
    for chunk in range(0, len(signatures), 256):
        part = signatures[chunk : chunk + 256]
        cmp.check("getSignatureStatuses", [part, {"searchTransactionHistory": True}])
        cmp.check("getSignatureStatuses", [part])
    for body in raw_requests(record, finalized):
        cmp.check_raw(body)
    for request in http_rules.requests():
        cmp.check_http(request)
    for commitment in ("finalized", "confirmed", "processed"):
        cmp.check_moving("getSlot", [{"commitment": commitment}], args.tolerance_slots)
    for commitment in ("finalized", "confirmed"):
        cmp.check_moving("getBlockHeight", [{"commitment": commitment}], args.tolerance_slots)
    cmp.span = (start, finalized)


def report(cmp, out, span):
    for d in cmp.differences:
        print(f"DIFFERENCE {d['method']} {json.dumps(d['params'])}")
        for line in d["diff"]:
            print(f"    {line}")
    for note in cmp.notes:
        print(f"note: {note}")
    total = sum(cmp.checked.values())
    counts = ", ".join(f"{m} {n}" for m, n in sorted(cmp.checked.items()))
    kinds = ", ".join(f"{m} {k} {n}" for (m, k), n in sorted(cmp.kinds.items()))
    print(f"compare: the validator answered: {kinds}")
    print(
        f"compare: slots {span[0]}..={span[1]}: {total} requests ({counts}); {len(cmp.differences)} differences"
    )
    if out:
        with open(out, "w") as f:
            json.dump(
                {
                    "span": span,
                    "checked": cmp.checked,
                    "answers": {f"{m} {k}": n for (m, k), n in sorted(cmp.kinds.items())},
                    "differences": cmp.differences,
                    "notes": cmp.notes,
                },
                f,
                indent=1,
            )


if __name__ == "__main__":
    main()
