#!/usr/bin/env python3
"""Reads Lockstep run.json files and prints the figures bench/performance.sh needs.

  perf_stats.py clock RUN_DIR...      -> one line per node per step: step_index offset_ms uncertainty_ms
  perf_stats.py skew RUN_DIR...       -> one line per step: reported_max_abs_skew_ms true_max_abs_skew_ms max_uncertainty_ms
  perf_stats.py rate RUN_DIR          -> throughput of the first step's first node (or the sum of nodes)
  perf_stats.py seconds RUN_DIR       -> the first step's span in seconds (its slowest node)
  perf_stats.py ramp RUN_DIR          -> first-quarter rate / rest-of-run rate, from the node's time series
  perf_stats.py summary NAME UNIT X.. -> "median spread(min..max) n" of the numbers
On one host every agent shares one clock, so the true skew is the reported skew plus the
estimated offset (the offset the coordinator subtracted).
"""
import glob
import json
import statistics
import sys


def runs(dirs):
    for d in dirs:
        for f in sorted(glob.glob(d + "/*/run.json")) or sorted(glob.glob(d + "/run.json")):
            with open(f) as fh:
                yield json.load(fh)


def steps(dirs):
    for run in runs(dirs):
        for s in run["steps"]:
            yield s


def clock(dirs):
    i = 0
    for s in steps(dirs):
        for n in s["results"]:
            print(i, n["clockOffsetMillis"], n["clockUncertaintyMillis"])
        i += 1


def skew(dirs):
    for s in steps(dirs):
        res = [n for n in s["results"] if n.get("firstOpUnixNanos", 0) > 0]
        if not res:
            continue
        reported = max(abs(n["startSkewMillis"]) for n in res)
        true = max(abs(n["startSkewMillis"] + n["clockOffsetMillis"]) for n in res)
        unc = max(n["clockUncertaintyMillis"] for n in res)
        print(reported, true, unc)


def rate(dirs):
    s = next(steps(dirs))
    if len(s["results"]) > 1:
        print(s["aggregate"]["sumOfNodes"])
    else:
        print(s["results"][0]["throughput"])


def seconds(dirs):
    s = next(steps(dirs))
    print(max(n["seconds"] for n in s["results"]))


def ops_at(series, t):
    prev = (0.0, 0)
    for p in series:
        if p["t"] >= t:
            t0, o0 = prev
            if p["t"] == t0:
                return p["ops"]
            return o0 + (p["ops"] - o0) * (t - t0) / (p["t"] - t0)
        prev = (p["t"], p["ops"])
    return prev[1]


def ramp(dirs):
    s = next(steps(dirs))
    n = s["results"][0]
    series = n["series"]
    # t is seconds from the intended start on the coordinator's clock; the run starts near 0.
    start = n["startSkewMillis"] / 1000.0
    total = n["seconds"]
    if len(series) < 6 or total <= 0:
        print("nan", len(series))
        return
    q = start + total / 4
    first = ops_at(series, q)
    rest = n["ops"] - first
    r1 = first / (total / 4)
    r2 = rest / (total * 3 / 4)
    print(r1 / r2 if r2 > 0 else float("nan"), len(series))


def summary(args):
    # a "nan" (a run too short to have the samples a figure needs) is left out, not averaged in
    xs = sorted(x for x in (float(a) for a in args) if x == x)
    if not xs:
        print("nan nan nan nan 0")
        return
    print("%.4f %.4f %.4f %.4f %d" % (statistics.median(xs), xs[0], xs[-1],
                                      statistics.pstdev(xs) if len(xs) > 1 else 0.0, len(xs)))


if __name__ == "__main__":
    cmd, rest = sys.argv[1], sys.argv[2:]
    {"clock": clock, "skew": skew, "rate": rate, "seconds": seconds, "ramp": ramp,
     "summary": summary}[cmd](rest)
