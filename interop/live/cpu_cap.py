#!/usr/bin/env python3
"""A flood of requests on bstore beside a live validator, with and without a CPU cap on serve.

usage: cpu_cap.py --validator URL --uncapped URL --capped URL --record workload.json
                  --rust-client BSTORE [--pid NAME=PID ...] [--clients 4] [--rounds 4]
                  [--round-seconds 20] [--out cap.json]

Rounds of windows (slotrate.py, through load.slot_rate_rounds), the order rotating: idle;
saturating Rust clients (`bstore bench rpc-load`, as fast as answered) on the uncapped
server; the same on the capped one (the caller put it in a cgroup with a CPU quota). Per
window the validator's slot rate against the interpolated idle rate, the CPU of each
`--pid` process, and what the loaded server answered; per loaded arm the slot rate's change
with its 95% interval and the median requests/s, p50 and p99 over its windows.
"""

import argparse
import functools
import json
import statistics

import load


def arm_summary(windows, arm):
    """Median requests/s and per-method p50/p99 (ms) over `arm`'s windows."""
    served = [w["served"] for w in windows if w["arm"] == arm and "served" in w]
    out = {"per_s": round(statistics.median(s["per_s"] for s in served), 1)}
    methods = sorted({m for s in served for m, v in s.items() if isinstance(v, dict)})
    for method in methods:
        out[method] = {
            q: round(statistics.median(s[method][f"{q}_ms"] for s in served if method in s), 3)
            for q in ("p50", "p99")
        }
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--validator", required=True)
    parser.add_argument("--uncapped", required=True)
    parser.add_argument("--capped", required=True)
    parser.add_argument("--record", required=True)
    parser.add_argument("--rust-client", required=True, metavar="BSTORE")
    parser.add_argument("--pid", action="append", default=[], metavar="NAME=PID")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--round-seconds", type=float, default=20.0)
    parser.add_argument("--out")
    args = parser.parse_args()
    pids = {}
    for item in args.pid:
        name, _, pid = item.partition("=")
        if not name or not pid.isdigit():
            parser.error(f"--pid takes NAME=PID, got {item!r}")
        pids[name] = int(pid)
    with open(args.record) as f:
        requests = load.request_list(json.load(f))
    targets = {"idle": None, "uncapped": args.uncapped, "capped": args.capped}
    run = functools.partial(load.run_rust_load, args.rust_client)
    result = load.slot_rate_rounds(args.validator, targets, pids, requests, run, args.clients,
                                   args.rounds, args.round_seconds, rate=None)
    for window in result["windows"]:
        shown = {k: v for k, v in window.items() if k != "served"}
        if "served" in window:
            shown["per_s"] = window["served"]["per_s"]
        print(json.dumps(shown))
    result["served"] = {arm: arm_summary(result["windows"], arm) for arm in ("uncapped", "capped")}
    print(f"slot rate: {json.dumps(result['effects'])}")
    for arm, summary in result["served"].items():
        print(f"{arm}, saturating Rust clients, medians over windows: {json.dumps(summary)}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
