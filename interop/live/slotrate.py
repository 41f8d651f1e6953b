"""The validator's slot rate measured finely enough to see a one-percent change under load.

A window counts the processed slots between two slot edges: the moments `getSlot` processed
is first seen to move on, polled every few milliseconds. Counting whole slots over a fixed
time (as a plain before/after read does) is off by up to one slot per window, 0.75% of a
30 s window at 4.5 slots/s; timing from edge to edge is off by the poll interval and one
round trip, under 0.05% of a 20 s window.

The idle rate itself drifts by a few percent over minutes on a shared machine, so one
loaded window against one idle window cannot tell 2% from nothing. Windows therefore run
in rounds, each round one idle window and one per loaded arm, the order rotating from round
to round so that every arm sits in every position equally often; each loaded window is set
against the idle rate interpolated (by time) between the idle windows around it, and each
arm's changes get a mean with a 95% confidence interval. An arm's cost is measurable when
its interval leaves zero.
"""

import statistics
import time

# Two-sided 95% quantiles of Student's t for 1..20 degrees of freedom; beyond the table the
# last value is used, which is wider than the true one (never claims more than it has).
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
       2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086)

PROCESSED = [{"commitment": "processed"}]


def slot_edge(client, poll_seconds=0.002, limit_seconds=10.0):
    """(slot, monotonic time) when the processed slot is first seen above the one current at
    the call (a lower one, a switch to another fork, is not an edge). Raises when it does
    not rise within `limit_seconds` (a stalled validator)."""
    first = client.result("getSlot", PROCESSED)
    deadline = time.monotonic() + limit_seconds
    while True:
        slot = client.result("getSlot", PROCESSED)
        now = time.monotonic()
        if slot > first:
            return slot, now
        if now > deadline:
            raise RuntimeError(f"the processed slot stayed at {first} for {limit_seconds:g} s")
        time.sleep(poll_seconds)


def edge_to_edge(client, seconds):
    """Processed slots per second between the next slot edge and the first edge at least
    `seconds` later, with the window's edges: {"slots", "seconds", "slots_per_s", "start",
    "end"} (`start`/`end` monotonic)."""
    first, start = slot_edge(client)
    time.sleep(max(0.0, seconds - (time.monotonic() - start)))
    last, end = slot_edge(client)
    return {
        "slots": last - first,
        "seconds": round(end - start, 3),
        "slots_per_s": round((last - first) / (end - start), 4),
        "start": start,
        "end": end,
    }


def round_orders(arms, rounds):
    """Each round's order of `arms`: rotated by one per round, so over len(arms) rounds every
    arm holds every position once."""
    arms = list(arms)
    return [arms[k % len(arms):] + arms[:k % len(arms)] for k in range(rounds)]


def idle_baseline(idle, at):
    """The idle rate at time `at`, linear between the idle windows (midpoint, rate) around
    it; before the first or after the last, the nearest one's."""
    idle = sorted(idle)
    if at <= idle[0][0]:
        return idle[0][1]
    if at >= idle[-1][0]:
        return idle[-1][1]
    for (t0, r0), (t1, r1) in zip(idle, idle[1:]):
        if t0 <= at <= t1:
            return r0 if t1 == t0 else r0 + (r1 - r0) * (at - t0) / (t1 - t0)
    raise AssertionError("unreachable: `at` lies inside the idle windows' span")


def mean_interval(values):
    """(mean, half-width of its 95% confidence interval); the half-width is None for fewer
    than two values."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, None
    t = T95[min(len(values) - 1, len(T95)) - 1]
    return mean, t * statistics.stdev(values) / len(values) ** 0.5


def rate_effects(windows, idle_arm="idle"):
    """Per loaded arm, its windows' slot rates against the interpolated idle rate (percent):
    the changes, their median, mean and 95% interval, and whether the interval leaves zero.
    `windows`: dicts with "arm", "slots_per_s", "start" and "end"."""
    idle = [((w["start"] + w["end"]) / 2, w["slots_per_s"]) for w in windows
            if w["arm"] == idle_arm]
    if not idle:
        raise ValueError("no idle window to compare with")
    rates = [r for _, r in idle]
    idle_mean = statistics.fmean(rates)
    out = {
        "idle_mean": round(idle_mean, 4),
        "idle_spread_percent": round(100.0 * (max(rates) - min(rates)) / idle_mean, 2),
    }
    for arm in dict.fromkeys(w["arm"] for w in windows if w["arm"] != idle_arm):
        changes = [
            100.0 * (w["slots_per_s"] / idle_baseline(idle, (w["start"] + w["end"]) / 2) - 1.0)
            for w in windows if w["arm"] == arm
        ]
        mean, half = mean_interval(changes)
        interval = None if half is None else [round(mean - half, 2), round(mean + half, 2)]
        out[arm] = {
            "changes_percent": [round(c, 2) for c in changes],
            "median_percent": round(statistics.median(changes), 2),
            "mean_percent": round(mean, 2),
            "ci95_percent": interval,
            "measurable": None if interval is None else (interval[0] > 0 or interval[1] < 0),
        }
    return out
