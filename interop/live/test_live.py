"""Offline checks of the live scripts (no validator needed):
    cd interop/live && python3 -m unittest test_live

- the instruction builders against solana-py's own SPL Token builders;
- the JSON comparison (types, RpcResponse contexts, the diff's paths);
- the comparer and the freshness follower against two small JSON-RPC servers on loopback
  whose answers the test controls.
"""

import json
import tempfile
import threading
import time
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import spl.token.instructions as spl
from solders.keypair import Keypair

import compare
import http_rules
import freshness
import jsondiff
import programs as p
from rpc import Client, percentile


def keys(n):
    return [Keypair().pubkey() for _ in range(n)]


class Programs(unittest.TestCase):
    def test_token_builders_match_solana_py(self):
        mint, owner, src, dst = keys(4)
        for program in (p.TOKEN, p.TOKEN_2022):
            ours = p.initialize_mint2(program, mint, 6, owner, owner)
            theirs = spl.initialize_mint2(
                spl.models.InitializeMint2Params(
                    decimals=6,
                    mint=mint,
                    mint_authority=owner,
                    freeze_authority=owner,
                    program_id=program,
                )
            )
            self.assertEqual(ours, theirs)
            ours = p.mint_to(program, mint, dst, owner, 10**9)
            theirs = spl.mint_to(
                spl.models.MintToParams(
                    program_id=program, mint=mint, dest=dst, mint_authority=owner, amount=10**9
                )
            )
            self.assertEqual(ours, theirs)
            ours = p.transfer_checked(program, src, mint, dst, owner, 250_000, 6)
            theirs = spl.transfer_checked(
                spl.models.TransferCheckedParams(
                    program_id=program,
                    source=src,
                    mint=mint,
                    dest=dst,
                    owner=owner,
                    amount=250_000,
                    decimals=6,
                )
            )
            self.assertEqual(ours, theirs)
            self.assertEqual(
                p.associated_token_address(owner, mint, program),
                spl.get_associated_token_address(owner, mint, program),
            )
            # solana-py still passes the rent sysvar, a seventh account the program ignores.
            ours = p.create_associated_token_account(src, owner, mint, program)
            theirs = spl.create_associated_token_account(src, owner, mint, program)
            self.assertEqual(ours.program_id, theirs.program_id)
            self.assertEqual(bytes(ours.data), bytes(theirs.data))
            self.assertEqual(ours.accounts, theirs.accounts[:6])
            self.assertEqual(theirs.accounts[6].pubkey, p.RENT)

    def test_initialize_mint_without_freeze_authority(self):
        mint, owner = keys(2)
        ours = p.initialize_mint(p.TOKEN, mint, 6, owner)
        self.assertEqual(bytes(ours.data), bytes([0, 6]) + bytes(owner) + b"\x00")
        self.assertEqual([a.pubkey for a in ours.accounts], [mint, p.RENT])

    def test_transfer_fee_config_matches_solana_py(self):
        mint, authority = keys(2)
        ours = p.initialize_transfer_fee_config(mint, authority, 50, 5_000)
        theirs = spl.initialize_transfer_fee_config(
            spl.models.InitializeTransferFeeConfigParams(
                program_id=p.TOKEN_2022,
                mint=mint,
                transfer_fee_config_authority=authority,
                withdraw_withheld_authority=authority,
                transfer_fee_basis_points=50,
                maximum_fee=5_000,
            )
        )
        self.assertEqual(bytes(ours.data), bytes(theirs.data))

    def test_stake_initialize_is_bincode_sized(self):
        stake, staker = keys(2)
        ix = p.stake_initialize(stake, staker, staker)
        # u32 variant + Authorized (2 keys) + Lockup (i64, u64, key)
        self.assertEqual(len(bytes(ix.data)), 4 + 64 + 8 + 8 + 32)
        self.assertEqual(bytes(ix.data)[4:36], bytes(staker))


class JsonDiff(unittest.TestCase):
    def test_types_and_order_matter(self):
        self.assertFalse(jsondiff.same(1, 1.0))
        self.assertFalse(jsondiff.same(True, 1))
        self.assertFalse(jsondiff.same([1, 2], [2, 1]))
        self.assertTrue(jsondiff.same({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]}))

    def test_context_slot_is_ignored_but_value_is_not(self):
        left = {"result": {"context": {"slot": 5, "apiVersion": "4.2.2"}, "value": [1]}}
        right = {"result": {"context": {"slot": 9, "apiVersion": "x"}, "value": [1]}}
        self.assertTrue(jsondiff.same(jsondiff.comparable(left), jsondiff.comparable(right)))
        right["result"]["value"] = [2]
        self.assertFalse(jsondiff.same(jsondiff.comparable(left), jsondiff.comparable(right)))

    def test_differences_name_paths(self):
        lines = jsondiff.differences({"a": [1, 2], "b": 1}, {"a": [1, 3], "c": 1})
        self.assertEqual(
            lines,
            [
                "$.a[1]: 2 != 3",
                "$.b: left has 1, missing on the right",
                "$.c: missing on the left, right has 1",
            ],
        )

    def test_percentile_nearest_rank(self):
        values = list(range(1, 101))
        self.assertEqual(percentile(values, 0.5), 50)
        self.assertEqual(percentile(values, 0.99), 99)
        self.assertEqual(percentile([7], 0.99), 7)
        self.assertIsNone(percentile([], 0.5))


class RawStub:
    """An HTTP server on 127.0.0.1 answering every POST with `respond(body)`: a status and
    the body bytes."""

    def __init__(self, respond):
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                status, data = stub.respond(self.rfile.read(int(self.headers["Content-Length"])))
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.respond = respond
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class Stub(RawStub):
    """A JSON-RPC server on 127.0.0.1 answering with `answer(method, params)` (a test may
    replace `answer`)."""

    def __init__(self, answer):
        self.answer = answer
        super().__init__(self.reply)

    def reply(self, body):
        request = json.loads(body)
        out = {"jsonrpc": "2.0", "id": request["id"]}
        out.update(self.answer(request["method"], request.get("params")))
        return 200, json.dumps(out).encode()


class Comparer(unittest.TestCase):
    def setUp(self):
        self.validator = Stub(lambda m, params: {"result": {"slot": params[0], "x": 1}})
        self.bstore = Stub(
            lambda m, params: {"result": {"slot": params[0], "x": 1 if params[0] != 7 else 2}}
        )

    def tearDown(self):
        self.validator.close()
        self.bstore.close()

    def test_reports_only_the_differing_request(self):
        with compare.Comparer(self.validator.url, self.bstore.url, 0.01, 2) as cmp:
            cmp.check_all([("getBlock", [slot]) for slot in range(5, 10)])
        self.assertEqual(cmp.checked, {"getBlock": 5})
        self.assertEqual(len(cmp.differences), 1)
        self.assertEqual(cmp.differences[0]["params"], [7])
        self.assertEqual(cmp.differences[0]["diff"], ["$.result.x: 1 != 2"])

    def test_error_answers_are_compared(self):
        self.bstore.answer = lambda m, params: {
            "error": {"code": -32004, "message": "Block not available"}
        }
        with compare.Comparer(self.validator.url, self.bstore.url, 0.01, 1) as cmp:
            cmp.check("getBlock", [1])
        self.assertEqual(len(cmp.differences), 1)


class RawBodies(unittest.TestCase):
    PARSE = b'{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"},"id":null}'

    def compare(self, validator_answer, bstore_answer, bodies):
        validator, bstore = RawStub(validator_answer), RawStub(bstore_answer)
        try:
            with compare.Comparer(validator.url, bstore.url, 0.01, 1) as cmp:
                for body in bodies:
                    cmp.check_raw(body)
            return cmp
        finally:
            validator.close()
            bstore.close()

    def test_the_whole_answer_and_the_status_count(self):
        unversioned = b'{"error":{"code":-32700,"message":"Parse error"},"id":null}'
        cmp = self.compare(
            lambda body: (200, self.PARSE),
            lambda body: (200, unversioned) if body == b"[1]" else (200, self.PARSE),
            ["{", "[1]"],
        )
        self.assertEqual(cmp.checked, {"(raw body)": 2})
        self.assertEqual(len(cmp.differences), 1)
        self.assertEqual(
            cmp.differences[0]["diff"], ['$[1].jsonrpc: left has "2.0", missing on the right']
        )
        cmp = self.compare(lambda body: (200, b""), lambda body: (204, b""), ["[]"])
        self.assertEqual(cmp.differences[0]["diff"], ["$[0]: 200 != 204"])
        cmp = self.compare(
            lambda body: (200, self.PARSE + b"\n"), lambda body: (200, self.PARSE), ["{"]
        )
        self.assertEqual(cmp.differences[0]["diff"], ["$[2]: true != false"])

    def test_http_rules_compare_status_headers_and_body(self):
        validator, bstore = RawStub(lambda body: (200, body)), RawStub(lambda body: (415, body))
        try:
            with compare.Comparer(validator.url, bstore.url, 0.01, 1) as cmp:
                cmp.check_http(("POST", "/", http_rules.JSON, b"same"))
        finally:
            validator.close()
            bstore.close()
        self.assertEqual(cmp.checked, {"(http)": 1})
        self.assertEqual(cmp.differences[0]["diff"], ["$[0]: 200 != 415"])
        for method, path, headers, body in http_rules.requests():
            self.assertTrue(path.startswith("/") and isinstance(body, bytes), path)

    def test_a_contexts_version_and_slot_are_the_servers_own(self):
        def answer(version, slot):
            context = {"apiVersion": version, "slot": slot}
            text = {"jsonrpc": "2.0", "id": 1, "result": {"context": context, "value": []}}
            return lambda body: (200, json.dumps(text).encode())

        cmp = self.compare(answer("4.4.0", 9), answer("0.1.0", 10), ["{}"])
        self.assertEqual(cmp.differences, [])

    def test_bodies_name_the_runs_slot_signature_and_address(self):
        record = {
            "transactions": [{"slot": None, "signature": "s0"}, {"slot": 7, "signature": "s1"}],
            "addresses": {"payer": "a1"},
        }
        bodies = compare.raw_requests(record, 100)
        self.assertIn('"getTransaction", "params": ["notbase58!"]', " ".join(bodies))
        self.assertTrue(any('"s1"' in b for b in bodies))
        self.assertTrue(any('"a1"' in b for b in bodies))
        self.assertTrue(any('"params": [7, ' in b for b in bodies))
        self.assertEqual(compare.raw_requests(record, 6), [])


class Record(unittest.TestCase):
    def test_ranges_parse_sorted_and_must_not_touch(self):
        from record import parse_ranges

        self.assertEqual(parse_ranges("57-60,4-25,81"), [(4, 25), (57, 60), (81, 81)])
        with self.assertRaises(ValueError):
            parse_ranges("4-25,26-30")

    def test_answers_are_kept_in_the_compared_form(self):
        from record import Recorder

        stub = Stub(
            lambda m, params: {"result": {"context": {"slot": 9, "apiVersion": "4.4.0"}, "value": [1]}}
            if m == "getSignatureStatuses"
            else {"error": {"code": -32009, "message": "skipped"}}
        )
        try:
            rec = Recorder(stub.url)
            rec.check("getSignatureStatuses", [["s"]])
            rec.check("getBlock", [3])
            rec.client.close()
        finally:
            stub.close()
        self.assertEqual(
            rec.requests,
            [
                {
                    "method": "getSignatureStatuses",
                    "params": [["s"]],
                    "answer": {"result": {"context_keys": ["apiVersion", "slot"], "value": [1]}},
                },
                {
                    "method": "getBlock",
                    "params": [3],
                    "answer": {"error": {"code": -32009, "message": "skipped"}},
                },
            ],
        )


class Load(unittest.TestCase):
    def test_every_client_counts_and_the_budget_holds(self):
        from load import run_load

        stub = Stub(
            lambda m, params: {"error": {"code": -32015, "message": "no"}}
            if m == "getTransaction"
            else {"result": [params[0]]}
        )
        try:
            requests = [("getBlock", [1]), ("getTransaction", ["s"]), ("getBlock", [2])]
            out = run_load(stub.url, requests, clients=3, seconds=30.0, max_requests=30)
        finally:
            stub.close()
        self.assertEqual(out["requests"], 30)
        self.assertEqual(out["getBlock"]["count"] + out["getTransaction"]["count"], 30)
        self.assertEqual(out["getBlock"]["errors"], 0)
        self.assertEqual(out["getTransaction"]["errors"], out["getTransaction"]["count"])
        self.assertGreater(out["getBlock"]["p50_ms"], 0)

    def test_a_fixed_rate_sends_on_schedule_not_as_fast_as_answered(self):
        from load import run_load

        stub = Stub(lambda m, params: {"result": params[0]})
        try:
            # 40 requests/s over 2 clients for 1 s: about 40, where a saturating client
            # against this stub sends hundreds.
            out = run_load(stub.url, [("getBlock", [1])], 2, 1.0, 10**6, rate=40.0)
        finally:
            stub.close()
        self.assertGreaterEqual(out["requests"], 36)
        self.assertLessEqual(out["requests"], 42)

    def test_rust_clients_get_the_same_list_and_limits(self):
        import os
        import stat
        import tempfile

        from load import run_rust_load

        # A stand-in for `bstore bench rpc-load`: echoes its arguments and the list it read.
        with tempfile.TemporaryDirectory() as d:
            fake = os.path.join(d, "bstore")
            with open(fake, "w") as f:
                f.write(
                    "#!/usr/bin/env python3\n"
                    "import json, sys\n"
                    "a = sys.argv[1:]\n"
                    "reqs = json.load(open(a[a.index('--requests') + 1]))\n"
                    "print(json.dumps({'argv': a, 'list': reqs, 'per_s': 1.0}))\n"
                )
            os.chmod(fake, stat.S_IRWXU)
            requests = [("getBlock", [1, {"encoding": "json"}]), ("getSlot", [])]
            out = run_rust_load(fake, "http://127.0.0.1:1", requests, 3, 2.5, 90)
            paced = run_rust_load(fake, "http://127.0.0.1:1", requests, 3, 2.5, 90, rate=40.0)
        self.assertNotIn("--rate", out["argv"])
        self.assertEqual(paced["argv"][paced["argv"].index("--rate") + 1], "40.0")
        argv = out["argv"]
        self.assertEqual(argv[:4], ["bench", "rpc-load", "--url", "http://127.0.0.1:1"])
        for flag, value in (("--clients", "3"), ("--seconds", "2.5"), ("--max-requests", "90")):
            self.assertEqual(argv[argv.index(flag) + 1], value)
        self.assertEqual(out["list"], [["getBlock", [1, {"encoding": "json"}]], ["getSlot", []]])

    def test_the_floor_asks_each_server_only_getslot_finalized_at_the_rate(self):
        from types import SimpleNamespace

        from load import floor_latency

        asked = {"validator": [], "bstore": []}
        stubs = {
            name: Stub(lambda m, params, name=name: asked[name].append((m, params)) or {"result": 5})
            for name in asked
        }
        try:
            args = SimpleNamespace(validator=stubs["validator"].url, bstore=stubs["bstore"].url,
                                   rust_client=None, clients=2, rate=40.0, floor_seconds=1.0)
            out = floor_latency(args)
        finally:
            for stub in stubs.values():
                stub.close()
        for name in asked:
            self.assertEqual({(m, json.dumps(p)) for m, p in asked[name]},
                             {("getSlot", '[{"commitment": "finalized"}]')})
            # About 40 in the second, not as many as answered.
            self.assertGreaterEqual(out[name]["getSlot"]["count"], 36)
            self.assertLessEqual(out[name]["getSlot"]["count"], 42)
            self.assertEqual(out[name]["getSlot"]["errors"], 0)
        self.assertEqual((out["method"], out["rate"]), ("getSlot", 40.0))

    def test_pairs_alternate_who_goes_first_and_take_the_median_ratio(self):
        from types import SimpleNamespace

        from load import paired_windows

        calls = []

        def run(url, requests, clients, seconds, max_requests, rate=None):
            calls.append((url, seconds, rate))
            k = len(calls)
            # The validator 1.0 ms at p50, 4.0 at p99; bstore's p50 0.2, 0.3, 0.9 over the
            # pairs, its p99 2.0; getSlot answered by the validator only.
            if url == "v":
                return {"per_s": 400.0, "getBlock": {"p50_ms": 1.0, "p99_ms": 4.0},
                        "getSlot": {"p50_ms": 0.1, "p99_ms": 0.2}}
            p50 = {1: 0.2, 4: 0.3, 5: 0.9}[k]
            return {"per_s": 400.0, "getBlock": {"p50_ms": p50, "p99_ms": 2.0}}

        args = SimpleNamespace(bstore="b", validator="v", pairs=3, pair_seconds=2.0,
                               rate=400.0, clients=4)
        out = paired_windows(args, [("getBlock", [1])], run)
        self.assertEqual([c[0] for c in calls], ["b", "v", "v", "b", "b", "v"])
        self.assertEqual({(c[1], c[2]) for c in calls}, {(2.0, 400.0)})
        self.assertEqual(out["ratios"]["getBlock"], {
            "p50_ratios": [0.2, 0.3, 0.9], "p50_median": 0.3,
            "p99_ratios": [0.5, 0.5, 0.5], "p99_median": 0.5,
        })
        self.assertEqual(out["ratios"]["getSlot"], {
            "p50_ratios": [], "p50_median": None, "p99_ratios": [], "p99_median": None,
        })
        self.assertEqual(len(out["pairs"]), 3)

    def test_cpu_seconds_of_this_process_grow_with_work(self):
        import os

        from load import cpu_seconds

        self.assertIsNone(cpu_seconds(None))
        before = cpu_seconds(os.getpid())
        deadline = time.process_time() + 0.3
        while time.process_time() < deadline:
            pass
        self.assertGreaterEqual(cpu_seconds(os.getpid()) - before, 0.2)


class SlotRate(unittest.TestCase):
    def test_rounds_rotate_so_each_arm_holds_each_position(self):
        import slotrate

        orders = slotrate.round_orders(("idle", "bstore", "validator"), 4)
        self.assertEqual(orders, [
            ["idle", "bstore", "validator"],
            ["bstore", "validator", "idle"],
            ["validator", "idle", "bstore"],
            ["idle", "bstore", "validator"],
        ])

    def test_idle_baseline_interpolates_between_the_idle_windows_around(self):
        import slotrate

        idle = [(35.0, 4.0), (5.0, 5.0)]
        self.assertEqual(slotrate.idle_baseline(idle, 2.0), 5.0)
        self.assertEqual(slotrate.idle_baseline(idle, 50.0), 4.0)
        self.assertAlmostEqual(slotrate.idle_baseline(idle, 15.0), 5.0 - 1.0 / 3.0)
        self.assertEqual(slotrate.idle_baseline([(5.0, 4.5)], 9.0), 4.5)

    def test_effects_against_the_interpolated_idle_rate_with_an_interval(self):
        import slotrate

        def w(arm, start, rate):
            return {"arm": arm, "start": start, "end": start + 10.0, "slots_per_s": rate}

        windows = [w("idle", 0, 5.0), w("bstore", 10, 4.5), w("validator", 20, 4.0),
                   w("idle", 30, 4.0), w("bstore", 40, 3.96), w("validator", 50, 3.6)]
        out = slotrate.rate_effects(windows)
        self.assertEqual((out["idle_mean"], out["idle_spread_percent"]), (4.5, 22.22))
        # bstore at 15 s against 4.667 (between 5.0 at 5 s and 4.0 at 35 s), at 45 s
        # against the last idle rate 4.0; two values, t = 12.706.
        self.assertEqual(out["bstore"]["changes_percent"], [-3.57, -1.0])
        self.assertEqual(out["bstore"]["mean_percent"], -2.29)
        self.assertEqual(out["bstore"]["ci95_percent"], [-18.62, 14.05])
        self.assertIs(out["bstore"]["measurable"], False)
        self.assertEqual(out["validator"]["changes_percent"], [-7.69, -10.0])
        # Three loaded windows 9-11% slower than a steady idle rate: measurable.
        steady = [w("idle", 0, 4.0), w("validator", 10, 3.6), w("idle", 20, 4.0),
                  w("validator", 30, 3.64), w("validator", 40, 3.56)]
        out = slotrate.rate_effects(steady)["validator"]
        self.assertEqual(out["mean_percent"], -10.0)
        self.assertEqual(out["ci95_percent"], [-12.48, -7.52])
        self.assertIs(out["measurable"], True)
        with self.assertRaises(ValueError):
            slotrate.rate_effects([w("bstore", 0, 4.0)])

    def test_edge_to_edge_times_the_slot_changes(self):
        import slotrate

        t0 = time.monotonic()
        # 50 slots/s from the stub's clock; getSlot rounds down like a processed slot.
        stub = Stub(lambda m, params: {"result": 1000 + int((time.monotonic() - t0) * 50)})
        try:
            with Client(stub.url) as client:
                out = slotrate.edge_to_edge(client, 1.0)
        finally:
            stub.close()
        # Each edge is seen one round trip (and at most a poll) after it happens; on a busy
        # machine a round trip to this stub can take tens of milliseconds.
        self.assertGreaterEqual(out["seconds"], 1.0)
        self.assertAlmostEqual(out["slots_per_s"], 50.0, delta=7.5)
        self.assertAlmostEqual(out["slots"], out["seconds"] * 50, delta=7.5)

    def test_a_stalled_validator_is_an_error_not_a_wait(self):
        import slotrate

        stub = Stub(lambda m, params: {"result": 7})
        try:
            with Client(stub.url) as client:
                with self.assertRaisesRegex(RuntimeError, "stayed at 7"):
                    slotrate.slot_edge(client, limit_seconds=0.2)
        finally:
            stub.close()

    def test_rounds_load_each_arm_and_mark_a_load_that_ends_early(self):
        from unittest import mock

        import load

        t0 = time.monotonic()
        stub = Stub(lambda m, params: {"result": int((time.monotonic() - t0) * 100)})
        calls = []

        def run(url, requests, clients, seconds, max_requests, rate=None):
            calls.append((url, rate))
            # The validator's own RPC "serves" too briefly in the second round (the
            # stub's round trips are slow: windows run well past their 0.2 s).
            time.sleep(0.05 if url == stub.url and len(calls) == 4 else seconds)
            return {"per_s": rate, "getBlock": {"p50_ms": 1.0, "p99_ms": 2.0}}

        targets = {"idle": None, "bstore": "b", "validator": stub.url}
        pids = {"validator": None, "bstore": None}
        try:
            with mock.patch.object(load, "ROUND_WARM_UP", 0.0), \
                    mock.patch.object(load, "ROUND_LOAD_MARGIN", 0.6):
                out = load.slot_rate_rounds(stub.url, targets, pids, [("getBlock", [1])], run,
                                            clients=2, rounds=2, seconds=0.2, rate=40.0)
            with self.assertRaisesRegex(ValueError, "exactly one idle arm"):
                load.slot_rate_rounds(stub.url, {"a": "x", "b": "y"}, pids, [], run,
                                      clients=2, rounds=1, seconds=0.2)
        finally:
            stub.close()
        self.assertEqual([w["arm"] for w in out["windows"]],
                         ["idle", "bstore", "validator", "bstore", "validator", "idle"])
        self.assertEqual(calls, [("b", 40.0), (stub.url, 40.0), ("b", 40.0), (stub.url, 40.0)])
        covered = [w.get("load_covered") for w in out["windows"]]
        self.assertEqual(covered, [None, True, True, True, False, None])
        self.assertEqual(out["effects"]["uncovered_windows"], 1)
        self.assertEqual(len(out["effects"]["validator"]["changes_percent"]), 1)
        self.assertEqual(len(out["effects"]["bstore"]["changes_percent"]), 2)
        self.assertEqual(out["windows"][1]["served"]["per_s"], 40.0)
        self.assertLess(out["windows"][0]["start"], out["windows"][-1]["end"])

    def test_cap_summary_takes_medians_over_an_arms_windows(self):
        import cpu_cap

        def w(arm, per_s, p50, p99):
            return {"arm": arm, "served": {"per_s": per_s,
                                           "getBlock": {"p50_ms": p50, "p99_ms": p99}}}

        windows = [w("capped", 3000.0, 0.2, 60.0), {"arm": "idle"}, w("capped", 4100.0, 0.1, 9.0),
                   w("uncapped", 15000.0, 0.1, 1.5), w("capped", 3700.0, 0.3, 50.0)]
        self.assertEqual(cpu_cap.arm_summary(windows, "capped"),
                         {"per_s": 3700.0, "getBlock": {"p50": 0.2, "p99": 50.0}})


class Restart(unittest.TestCase):
    def test_down_fails_on_any_refused_block(self):
        import argparse

        import restart

        good = Stub(lambda m, params: {"result": 10 if m == "getSlot" else {"blockhash": "h"}})
        bad = Stub(
            lambda m, params: {"result": 10}
            if m == "getSlot"
            else {"error": {"code": -32004, "message": "Block not available for slot 10"}}
        )
        try:
            with tempfile.TemporaryDirectory() as d:
                args = argparse.Namespace(bstore=good.url, seconds=0.3, out=f"{d}/x.json")
                result, ok = restart.down(args)
                self.assertTrue(ok)
                self.assertEqual(result["finalized"], 10)
                args.bstore = bad.url
                result, ok = restart.down(args)
                self.assertFalse(ok)
                self.assertIn("Block not available", result["errors"][0])
        finally:
            good.close()
            bad.close()

    def test_up_waits_for_new_slots_and_times_out_without_them(self):
        import argparse

        import restart

        slots = iter(range(100, 10_000))
        moving = Stub(
            lambda m, params: {"result": next(slots)} if m == "getSlot" else {"result": {"blockhash": "h"}}
        )
        stuck = Stub(lambda m, params: {"result": 90} if m == "getSlot" else {"result": {"blockhash": "h"}})
        validator = Stub(lambda m, params: {"result": 95})
        try:
            with tempfile.TemporaryDirectory() as d:
                with open(f"{d}/down.json", "w") as f:
                    json.dump({"finalized": 90}, f)
                args = argparse.Namespace(
                    validator=validator.url, bstore=moving.url, down=f"{d}/down.json",
                    new_slots=3, timeout=30.0,
                )
                result, ok = restart.up(args)
                self.assertTrue(ok, result)
                self.assertGreaterEqual(result["bstore_finalized"], 98)
                args.bstore, args.timeout = stuck.url, 0.5
                result, ok = restart.up(args)
                self.assertFalse(ok)
                self.assertIn("did not reach slot 98", result["error"])
                self.assertIn("the validator itself made no new finalized slot", result["error"])
        finally:
            moving.close()
            stuck.close()
            validator.close()


class Moving(unittest.TestCase):
    def run_moving(self, validator_values, bstore_value, tolerance=3):
        values = iter(validator_values)
        validator = Stub(lambda m, params: {"result": next(values)})
        bstore = Stub(lambda m, params: {"result": bstore_value})
        try:
            with compare.Comparer(validator.url, bstore.url, 0.01, 1) as cmp:
                cmp.check_moving("getSlot", [{"commitment": "finalized"}], tolerance)
            return cmp
        finally:
            validator.close()
            bstore.close()

    def test_within_the_window(self):
        self.assertEqual(self.run_moving([10, 12], 11).differences, [])

    def test_lag_within_tolerance_is_a_note(self):
        cmp = self.run_moving([10, 10], 8)
        self.assertEqual(cmp.differences, [])
        self.assertEqual(len(cmp.notes), 1)

    def test_ahead_or_far_behind_is_a_difference(self):
        self.assertEqual(len(self.run_moving([10, 10], 11).differences), 1)
        self.assertEqual(len(self.run_moving([10, 10], 5).differences), 1)


class MovingAddress(unittest.TestCase):
    """The vote account's newest entries, compared only at equal slots."""

    def run_moving(self, slots, entries, commitment="finalized"):
        """`slots`: each server's slot, per getSlot call (any commitment); `entries`:
        bstore's answer, per call (the validator's is always ["a"])."""
        validator_slots, bstore_slots = iter(slots[0]), iter(slots[1])
        bstore_entries = iter(entries)

        def validator(method, params):
            if method == "getVoteAccounts":
                return {"result": {"current": [{"votePubkey": "V"}], "delinquent": []}}
            if method == "getSlot":
                return {"result": next(validator_slots, 99)}
            return {"result": ["a"]}

        def bstore(method, params):
            if method == "getSlot":
                return {"result": next(bstore_slots, 99)}
            return {"result": next(bstore_entries, ["a"])}

        v, b = Stub(validator), Stub(bstore)
        try:
            with compare.Comparer(v.url, b.url, 0.01, 1) as cmp:
                request = ("getSignaturesForAddress", ["V", {"limit": 5}])
                compare.compare_moving_rounds(cmp, "moving address V", commitment, 0.3, lambda: [request])
            return cmp
        finally:
            v.close()
            b.close()

    def test_equal_slots_compare_both_of_bstores_answers(self):
        # First round: both at 5, bstore's second answer differs. Later rounds: equal.
        cmp = self.run_moving(([5, 5], [5, 5]), [["a"], ["b"]])
        self.assertEqual(len(cmp.differences), 1, cmp.differences)
        method = "getSignaturesForAddress (moving, finalized)"
        self.assertEqual(cmp.differences[0]["method"], method)
        self.assertGreater(cmp.checked[method], 2)

    def test_a_root_moving_during_the_round_skips_it(self):
        # First round: the validator's root moves (5 -> 6); bstore's odd answer is not
        # compared.
        cmp = self.run_moving(([5, 6], [5, 5]), [["b"], ["b"]])
        self.assertEqual(cmp.differences, [])
        self.assertIn("1 skipped", cmp.notes[-1])

    def test_confirmed_rounds_need_both_tips_equal(self):
        # Confirmed: finalized then confirmed slots, before and after. First round: the
        # finalized slots differ (5 / 4) though nothing moved: skipped.
        cmp = self.run_moving(([5, 9, 5, 9], [4, 9, 4, 9]), [["b"], ["b"]], "confirmed")
        self.assertEqual(cmp.differences, [])
        self.assertIn("1 skipped", cmp.notes[-1])
        self.assertIn("at confirmed", cmp.notes[-1])


class LateBlockTime(unittest.TestCase):
    """A finalized entry whose block time row lands after its root: bstore's null there is
    forgiven only when, asked again, it answers as the validator did."""

    ENTRY = {"blockTime": 7, "confirmationStatus": "finalized", "signature": "s", "slot": 3}

    def run_round(self, answers):
        """`answers`: bstore's getSignaturesForAddress answers, per call (the validator's
        is always [ENTRY]); returns the comparer and bstore's calls."""
        bstore_answers = iter(answers)
        calls = []

        def validator(method, params):
            if method == "getSlot":
                return {"result": 5}
            return {"result": [self.ENTRY]}

        def bstore(method, params):
            if method == "getSlot":
                return {"result": 5}
            calls.append(params)
            return {"result": next(bstore_answers, [self.ENTRY])}

        v, b = Stub(validator), Stub(bstore)
        try:
            with compare.Comparer(v.url, b.url, 0.01, 1) as cmp:
                request = ("getSignaturesForAddress", ["A", {"limit": 5}])
                compare.compare_moving_rounds(
                    cmp, "moving address A", "finalized", 0.2, lambda: [request]
                )
            return cmp, calls
        finally:
            v.close()
            b.close()

    def test_a_late_block_time_later_equal_is_a_note(self):
        null = dict(self.ENTRY, blockTime=None)
        newer = dict(self.ENTRY, signature="n", slot=4)
        # Both of the round's answers null; each asked again (a wider limit) with a newer
        # entry on top.
        cmp, calls = self.run_round([[null], [null], [newer, self.ENTRY], [newer, self.ENTRY]])
        self.assertEqual(cmp.differences, [])
        self.assertEqual(calls[2], ["A", {"limit": 105}])
        self.assertIn("2 of bstore's answers gave a finalized entry's blockTime", cmp.notes[-1])

    def test_still_null_when_asked_again_is_a_difference(self):
        null = dict(self.ENTRY, blockTime=None)
        # The first answer asked again is still null; the second's agrees.
        cmp, _ = self.run_round([[null], [null], [null]])
        self.assertEqual(len(cmp.differences), 1, cmp.differences)
        self.assertEqual(cmp.differences[0]["diff"], ["$.result[0].blockTime: 7 != null"])

    def test_a_null_block_time_beside_another_difference_is_not_asked_again(self):
        other = dict(self.ENTRY, blockTime=None, slot=2)
        cmp, calls = self.run_round([[other], [self.ENTRY]])
        self.assertEqual(len(cmp.differences), 1, cmp.differences)
        self.assertEqual(calls[1], ["A", {"limit": 5}])
        self.assertNotIn("of bstore's answers", cmp.notes[-1])

    def test_only_null_against_a_time_is_late(self):
        late = compare.late_block_times
        entry = {"result": [self.ENTRY]}
        self.assertTrue(late(entry, {"result": [dict(self.ENTRY, blockTime=None)]}))
        self.assertFalse(late(entry, entry))
        self.assertFalse(late(entry, {"result": [dict(self.ENTRY, blockTime=8)]}))
        self.assertFalse(late({"result": [dict(self.ENTRY, blockTime=None)]}, entry))
        self.assertFalse(late(entry, {"result": []}))
        self.assertFalse(late(entry, {"error": {"code": -32009}}))


class MovingAddressChoice(unittest.TestCase):
    """The vote account is the moving address only when it gains entries."""

    def stub(self, moves):
        calls = []

        def validator(method, params):
            if method == "getVoteAccounts":
                return {"result": {"current": [{"votePubkey": "V"}], "delinquent": []}}
            if method == "getSignaturesForAddress":
                calls.append(params)
                newest = f"s{len(calls)}" if moves else "s0"
                return {"result": [{"signature": newest}]}
            return {"result": 7}

        return Stub(validator), calls

    def test_a_vote_account_gaining_entries_moves(self):
        v, calls = self.stub(moves=True)
        try:
            self.assertTrue(compare.address_moves(Client(v.url), "V", 1.0))
        finally:
            v.close()
        self.assertEqual(calls[0], ["V", {"limit": 1, "commitment": "confirmed"}])

    def test_without_entries_or_a_payer_nothing_is_compared_and_a_note_says_why(self):
        v, _ = self.stub(moves=False)
        b = Stub(lambda method, params: {"result": 7})
        try:
            self.assertFalse(compare.address_moves(Client(v.url), "V", 0.5))
            with compare.Comparer(v.url, b.url, 0.01, 1) as cmp:
                compare.compare_moving_address(cmp, 0.2, None, wait=0.5)
        finally:
            v.close()
            b.close()
        self.assertEqual(cmp.differences, [])
        self.assertFalse(any("moving" in method for method in cmp.checked), cmp.checked)
        self.assertIn("moving address: none", cmp.notes[-1])


class MovingBlocks(unittest.TestCase):
    """The newest blocks, asked of bstore twice, compared only at equal slots."""

    def test_the_newest_three_blocks_are_compared_twice_each(self):
        asked = []

        def validator(method, params):
            if method == "getSlot":
                return {"result": 40}
            if method == "getBlocks":
                return {"result": [36, 37, 39, 40]}
            return {"result": {"slot": params[0]}}

        def bstore(method, params):
            if method == "getSlot":
                return {"result": 40}
            asked.append(params[0])
            # A stale kept answer of slot 39 on bstore's second ask.
            if params[0] == 39 and asked.count(39) == 2:
                return {"result": {"slot": 38}}
            return {"result": {"slot": params[0]}}

        v, b = Stub(validator), Stub(bstore)
        try:
            with compare.Comparer(v.url, b.url, 0.01, 1) as cmp:
                compare.compare_moving_blocks(cmp, 0.2)
        finally:
            v.close()
            b.close()
        self.assertEqual(set(asked), {37, 39, 40})
        self.assertEqual(len(cmp.differences), 1, cmp.differences)
        self.assertEqual(cmp.differences[0]["method"], "getBlock (moving, finalized)")
        self.assertEqual(cmp.differences[0]["params"][0], 39)
        self.assertIn("newest blocks at confirmed", cmp.notes[-1])


class Freshness(unittest.TestCase):
    def test_follow_records_served_slots_and_passes_skipped_ones(self):
        def answer(method, params):
            slot = params[0] if method == "getBlock" else None
            if slot == 3:
                return {"error": {"code": -32007, "message": "Slot 3 was skipped"}}
            return {"result": {"blockHeight": slot}}

        stub = Stub(answer)
        try:
            seen, passed = {}, []
            freshness.follow(stub.url, "finalized", 1, 5, 0.001, seen, passed, deadline=1e18)
        finally:
            stub.close()
        self.assertEqual(sorted(seen), [1, 2, 4, 5])
        self.assertEqual(passed, [])

    def test_summary_is_bstore_minus_validator(self):
        summary = freshness.summarize({1: 1.0, 2: 2.0, 3: 3.0}, {1: 1.1, 2: 2.3})
        self.assertEqual(summary["count"], 2)
        self.assertEqual(summary["p50_ms"], 100.0)
        self.assertEqual(summary["max_ms"], 300.0)


class RpcClient(unittest.TestCase):
    def test_result_and_error(self):
        stub = Stub(
            lambda m, params: {"result": 42} if m == "getSlot" else {"error": {"code": -32601}}
        )
        try:
            with Client(stub.url) as client:
                self.assertEqual(client.result("getSlot"), 42)
                self.assertIn("error", client.call("nope"))
                status, body = client.raw("getSlot", [])
                self.assertEqual(status, 200)
                self.assertEqual(json.loads(body)["result"], 42)
            self.assertIsNone(client.conn, "closed on leaving the block")
        finally:
            stub.close()


if __name__ == "__main__":
    unittest.main()
