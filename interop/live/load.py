#!/usr/bin/env python3
"""A short load comparison of a live validator's RPC and bstore on the same requests.

usage: load.py --validator URL --bstore URL --record workload.json [--clients 4]
               [--seconds 20] [--max-requests 20000] [--slot-rate-seconds 30]
               [--rate 400 --validator-pid PID --bstore-pid PID] [--rust-client BSTORE]
               [--rounds 6 --round-seconds 20] [--pairs 6 --pair-seconds 10]
               [--out load.json]

1. For each server in turn: `--clients` processes, each with its own keep-alive connection,
   send the same request list (getBlock json full for the slots holding the workload's
   transactions, getTransaction json for each signature, getSignaturesForAddress limit 10
   for each address), each thread from its own offset, until `--seconds` pass or
   `--max-requests` are sent. Latency p50/p99 per method and per server, requests/s, and
   the count of answers that were errors.
2. The validator's slot rate (getSlot processed, read `--slot-rate-seconds` apart): with no
   load, while the clients load bstore for that long, and while they load the validator's
   own RPC instead.
3. The slot rate at a fixed request rate (`--rate` requests/s in all, spread over the
   clients, each sending on its own schedule whatever the answers take): `--rounds` rounds
   of `--round-seconds` windows, each round one idle window, one while bstore serves the
   rate and one while the validator's own RPC serves it, the order rotating (slotrate.py:
   edge-to-edge timing, each loaded window against the interpolated idle rate, a mean and
   95% interval per arm), with the CPU time each server process used in each window
   (`/proc/PID/stat`, with `--validator-pid` and `--bstore-pid`). Saturating clients (2.)
   send as fast as the faster server answers, so they load it more; a fixed rate asks the
   same work of both.
4. With `--rust-client BSTORE` (a bstore binary): 1. again with `bstore bench rpc-load`, the
   same request list, clients, time and budget, each client a thread of one Rust process.
   A Python client spends ~130 us of CPU per request, more than either server spends on a
   getSignaturesForAddress; on a two-core machine that CPU is taken from the servers and
   the clients wait for their own turn too, which adds the same time to both servers'
   latencies. The Rust clients spend 30-50 us (most of it the kernel's loopback work, which
   the sender pays), so their latencies are more the servers'. The rounds of 3. then use
   the Rust clients too.
5. With `--rust-client` and `--rate`: `--pairs` pairs of `--pair-seconds` windows at the
   fixed rate from the Rust clients, bstore and the validator's own RPC back to back (who
   goes first alternating pair by pair); each method's p50 and p99 ratio (bstore over the
   validator) in each pair, and the medians. One server's paced p50 moves up to 2x between
   windows a minute apart on this machine, so one long window each can land on a
   good minute for one and a bad one for the other; adjacent short windows share their
   minute, and the median over pairs is not one window's luck.
6. The round-trip floor at the fixed rate (`--floor-seconds`, 0: skip): each server in turn
   answers only `getSlot` (finalized: a value either keeps in memory) at `--rate`, from the
   Rust clients when given. What is left of a method's p50 above its server's floor is the
   method's own work; the floor itself (two wake-ups, loopback, HTTP) is paid by both.
Both servers share this machine's cores with the load generator, so the numbers compare the
two servers under the same conditions, not either alone.
"""

import argparse
import functools
import json
import multiprocessing
import os
import statistics
import subprocess
import tempfile
import threading
import time

import slotrate
from rpc import Client, percentile


def request_list(record):
    slots = sorted({tx["slot"] for tx in record["transactions"] if tx.get("slot") is not None})
    block = {"encoding": "json", "transactionDetails": "full", "maxSupportedTransactionVersion": 0}
    requests = [("getBlock", [slot, block]) for slot in slots]
    requests += [
        (
            "getTransaction",
            [tx["signature"], {"encoding": "json", "maxSupportedTransactionVersion": 0}],
        )
        for tx in record["transactions"]
    ]
    requests += [
        ("getSignaturesForAddress", [a, {"limit": 10}]) for a in record["addresses"].values()
    ]
    return requests


def client_loop(args):
    """One client: its own process and keep-alive connection, from its own offset in the
    request list, until the deadline or its share of the request budget. With a `period`,
    request k is sent at `k * period` after the start (at once when it is already late):
    a fixed rate; without one, each request as soon as the last was answered."""
    url, requests, offset, deadline, budget, period = args
    client = Client(url, timeout=30.0)
    mine = []
    i = offset
    start = time.monotonic()
    while time.monotonic() < deadline and len(mine) < budget:
        if period is not None:
            wait = start + len(mine) * period - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        method, params = requests[i % len(requests)]
        i += 1
        started = time.perf_counter()
        status, body = client.raw(method, params)
        elapsed = (time.perf_counter() - started) * 1000.0
        # Error objects are short and come first; a result may mention "error" deep inside.
        failed = status != 200 or b'"error"' in body[:64]
        mine.append((method, elapsed, failed, len(body)))
    client.close()
    return mine


def run_load(url, requests, clients, seconds, max_requests, rate=None):
    """`clients` processes against `url` for `seconds`; `rate`: requests/s in all, at fixed
    times (None: as fast as answered)."""
    # One process per client: Python threads would share one interpreter lock, so a
    # client's measured latency would include waiting for the other clients' Python code
    # rather than for the server.
    deadline = time.monotonic() + seconds
    started = time.monotonic()
    period = None if rate is None else clients / rate
    jobs = [
        (url, requests, k * len(requests) // clients, deadline, max_requests // clients, period)
        for k in range(clients)
    ]
    with multiprocessing.get_context("fork").Pool(clients) as pool:
        samples = [s for part in pool.map(client_loop, jobs) for s in part]
    wall = time.monotonic() - started
    out = {
        "requests": len(samples),
        "seconds": round(wall, 1),
        "per_s": round(len(samples) / wall, 1),
    }
    for method in sorted({s[0] for s in samples}):
        times = sorted(s[1] for s in samples if s[0] == method)
        out[method] = {
            "count": len(times),
            "errors": sum(1 for s in samples if s[0] == method and s[2]),
            "p50_ms": round(percentile(times, 0.50), 2),
            "p99_ms": round(percentile(times, 0.99), 2),
            "mean_bytes": sum(s[3] for s in samples if s[0] == method) // len(times),
        }
    return out


def run_rust_load(binary, url, requests, clients, seconds, max_requests, rate=None):
    """`bstore bench rpc-load` against `url`: the same shape as `run_load`'s result, plus
    `client_cpu_percent` (the generator's own CPU); `rate` as in `run_load`."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump([[method, params] for method, params in requests], f)
        f.flush()
        command = [binary, "bench", "rpc-load", "--url", url, "--requests", f.name,
                   "--clients", str(clients), "--seconds", str(seconds),
                   "--max-requests", str(max_requests)]
        if rate is not None:
            command += ["--rate", str(rate)]
        out = subprocess.run(command, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def paired_windows(args, requests, run):
    """`args.pairs` pairs of `args.pair_seconds` windows at `args.rate` through `run` (the
    shape of `run_load`), bstore's and the validator's back to back, the first of each
    pair alternating; per method the p50 and p99 ratios (bstore over the validator) of
    every pair and their medians."""
    pairs = []
    for k in range(args.pairs):
        order = [("bstore", args.bstore), ("validator", args.validator)]
        if k % 2:
            order.reverse()
        pairs.append({
            name: run(url, requests, args.clients, args.pair_seconds, 10**9, rate=args.rate)
            for name, url in order
        })
    ratios = {}
    methods = {m for pair in pairs for side in pair.values() for m, v in side.items()
               if isinstance(v, dict)}
    for method in sorted(methods):
        out = {}
        for q in ("p50", "p99"):
            values = [
                pair["bstore"][method][f"{q}_ms"] / pair["validator"][method][f"{q}_ms"]
                for pair in pairs
                if method in pair["bstore"] and pair["validator"].get(method, {}).get(f"{q}_ms")
            ]
            out[f"{q}_ratios"] = [round(v, 3) for v in values]
            out[f"{q}_median"] = round(statistics.median(values), 3) if values else None
        ratios[method] = out
    return {"rate": args.rate, "seconds": args.pair_seconds, "pairs": pairs, "ratios": ratios}


def paced_runner(args):
    """The load runner (the shape of `run_load`) for the paced phases: the Rust clients of
    `--rust-client` when given, else the Python ones."""
    return functools.partial(run_rust_load, args.rust_client) if args.rust_client else run_load


FLOOR_REQUESTS = [("getSlot", [{"commitment": "finalized"}])]


def floor_latency(args):
    """Each server's round trip at `--rate` for a request whose answer is in memory: the
    part of every method's latency at that rate that is not the method's own work."""
    out = {"method": "getSlot", "rate": args.rate, "seconds": args.floor_seconds}
    run = paced_runner(args)
    for name, url in (("validator", args.validator), ("bstore", args.bstore)):
        out[name] = run(url, FLOOR_REQUESTS, args.clients, args.floor_seconds, 10**9,
                        rate=args.rate)
    return out


def slot_rate(validator_url, seconds, load=None):
    """The validator's processed slots per second over `seconds`, optionally while `load`
    (a callable taking the seconds) runs."""
    client = Client(validator_url)
    worker = None
    if load is not None:
        worker = threading.Thread(target=load, args=(seconds,))
        worker.start()
    first, started = client.result("getSlot", [{"commitment": "processed"}]), time.monotonic()
    time.sleep(seconds)
    last, ended = client.result("getSlot", [{"commitment": "processed"}]), time.monotonic()
    client.close()
    if worker is not None:
        worker.join()
    return round((last - first) / (ended - started), 3)


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid):
    """User plus system CPU time process `pid` has used so far (all its threads), or None
    without a pid."""
    if pid is None:
        return None
    with open(f"/proc/{pid}/stat") as f:
        # The command name (field 2) may hold spaces: count fields after its ')'.
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


# The load starts this long before a window's first slot edge (the clients connected and
# sending), and runs this much longer than the window asks: the two edges wait up to a slot
# each, so a window spans its seconds plus up to two slots.
ROUND_WARM_UP = 0.5
ROUND_LOAD_MARGIN = 3.0


def slot_rate_rounds(validator, targets, pids, requests, run, clients, rounds, seconds,
                     rate=None):
    """`rounds` rounds of `seconds` windows (see slotrate), one per arm of `targets` (name to
    URL; None: idle, and there must be one), the order rotating: each loaded arm's clients
    (`run`, the shape of `run_load`, `clients` of them at `rate` requests/s in all, or as
    fast as answered when None) load its URL through the window. Each window's edge-to-edge
    slot rate of the validator at `validator` and the CPU of each process in `pids` (name to
    pid or None), then each loaded arm's change against the interpolated idle rate."""
    idle = [name for name, url in targets.items() if url is None]
    if len(idle) != 1:
        raise ValueError(f"the rounds need exactly one idle arm (None), got {idle}")
    client = Client(validator)
    origin = time.monotonic()
    windows = []
    try:
        for k, order in enumerate(slotrate.round_orders(targets, rounds)):
            for arm in order:
                served, load_end = {}, [None]

                def load(url=targets[arm]):
                    served.update(run(url, requests, clients, seconds + ROUND_LOAD_MARGIN,
                                      10**9, rate=rate))
                    load_end[0] = time.monotonic()

                worker = None
                if targets[arm] is not None:
                    worker = threading.Thread(target=load)
                    worker.start()
                    time.sleep(ROUND_WARM_UP)
                before = {name: cpu_seconds(pid) for name, pid in pids.items()}
                read_at = time.monotonic()
                window = slotrate.edge_to_edge(client, seconds)
                wall = time.monotonic() - read_at
                window.update(arm=arm, round=k)
                for name, pid in pids.items():
                    if pid is not None:
                        used = cpu_seconds(pid) - before[name]
                        window[f"{name}_cpu_percent"] = round(100.0 * used / wall, 1)
                if worker is not None:
                    worker.join()
                    # A load that stopped before the window's last edge (slots far longer
                    # than the margin allows) leaves an unloaded tail: kept, marked, and
                    # left out of the effects.
                    window["load_covered"] = load_end[0] is not None and load_end[0] >= window["end"]
                    window["served"] = served
                windows.append(window)
    finally:
        client.close()
    effects = slotrate.rate_effects([w for w in windows if w.get("load_covered", True)], idle[0])
    effects["uncovered_windows"] = sum(1 for w in windows if w.get("load_covered") is False)
    for window in windows:
        window["start"] = round(window["start"] - origin, 3)
        window["end"] = round(window["end"] - origin, 3)
    return {"rate": rate, "rounds": rounds, "seconds": seconds, "windows": windows,
            "effects": effects}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--validator", required=True)
    parser.add_argument("--bstore", required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--max-requests", type=int, default=20_000)
    parser.add_argument("--slot-rate-seconds", type=float, default=30.0)
    parser.add_argument("--rate", type=float, default=400.0,
                        help="requests/s in all for the fixed-rate phases (0: skip them)")
    parser.add_argument("--floor-seconds", type=float, default=10.0,
                        help="seconds of getSlot alone per server at --rate (0: skip)")
    parser.add_argument("--validator-pid", type=int)
    parser.add_argument("--bstore-pid", type=int)
    parser.add_argument("--rust-client", metavar="BSTORE",
                        help="also load both servers with this bstore's `bench rpc-load`")
    parser.add_argument("--pairs", type=int, default=6,
                        help="pairs of paced windows, Rust clients (0: skip)")
    parser.add_argument("--pair-seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=6,
                        help="rounds of slot-rate windows at --rate (0: skip)")
    parser.add_argument("--round-seconds", type=float, default=20.0)
    parser.add_argument("--out")
    args = parser.parse_args()
    with open(args.record) as f:
        requests = request_list(json.load(f))
    if not requests:
        parser.error("the record holds no transaction to ask about")
    result = {"clients": args.clients, "distinct_requests": len(requests)}
    for name, url in (("validator", args.validator), ("bstore", args.bstore)):
        result[name] = run_load(url, requests, args.clients, args.seconds, args.max_requests)
        print(f"load {name}: {json.dumps(result[name])}")
    if args.rust_client:
        result["rust_clients"] = {}
        for name, url in (("validator", args.validator), ("bstore", args.bstore)):
            result["rust_clients"][name] = run_rust_load(
                args.rust_client, url, requests, args.clients, args.seconds, args.max_requests
            )
            print(f"load {name}, Rust clients: {json.dumps(result['rust_clients'][name])}")
    idle = slot_rate(args.validator, args.slot_rate_seconds)

    def loader(name, url):
        def load(seconds):
            result[f"{name}_during_slot_rate"] = run_load(
                url, requests, args.clients, seconds, args.max_requests * 10
            )

        return load

    loaded = slot_rate(args.validator, args.slot_rate_seconds, loader("bstore", args.bstore))
    # The same load on the validator's own RPC: what serving it there would cost instead.
    own = slot_rate(args.validator, args.slot_rate_seconds, loader("validator", args.validator))
    result["validator_slots_per_s"] = {
        "idle": idle,
        "bstore_loaded": loaded,
        "validator_loaded": own,
    }
    print(
        f"load: validator slots/s idle {idle}, while bstore is loaded {loaded}, "
        f"while the validator's own RPC is loaded {own}"
    )
    if args.rate > 0 and args.rounds > 0:
        # The slot rate's rounds, with the Rust clients when given (their own CPU is under 2%
        # of a core at this rate: the slot rate then shows the server's cost more than the
        # clients').
        rounds = slot_rate_rounds(
            args.validator,
            {"idle": None, "bstore": args.bstore, "validator": args.validator},
            {"validator": args.validator_pid, "bstore": args.bstore_pid},
            requests, paced_runner(args), args.clients, args.rounds, args.round_seconds,
            rate=args.rate,
        )
        rounds["clients"] = "rust" if args.rust_client else "python"
        result["slot_rate_rounds"] = rounds
        print(f"slot rate, {args.rounds} rounds of {args.round_seconds:g} s windows at "
              f"{args.rate:g} req/s, {rounds['clients']} clients: "
              f"{json.dumps(rounds['effects'])}")
    if args.rate > 0 and args.rust_client and args.pairs > 0:
        result["pairs"] = paired_windows(args, requests, paced_runner(args))
        for method, ratios in result["pairs"]["ratios"].items():
            print(f"pairs at {args.rate:g} req/s, Rust clients, {method}: bstore/validator "
                  f"p50 median {ratios['p50_median']} {ratios['p50_ratios']}, "
                  f"p99 median {ratios['p99_median']} {ratios['p99_ratios']}")
    if args.rate > 0 and args.floor_seconds > 0:
        result["floor"] = floor_latency(args)
        for name in ("validator", "bstore"):
            served = result["floor"][name].get("getSlot", {})
            print(f"floor at {args.rate:g} req/s, {name}: getSlot p50 "
                  f"{served.get('p50_ms')} ms, p99 {served.get('p99_ms')} ms")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
