#!/usr/bin/python3
"""The cost of `dlgen capture` on a program that reads objects from S3 over plain HTTP (issue 21).

The program is tests/pytorch/s3_dataset.py: a PyTorch DataLoader whose Dataset reads each sample
with boto3's get_object and a Range (--workers workers, each its own client). It runs alternately
as it is and under `dlgen capture` (pairs in alternating order, so a drift of the host's load
falls on both), against the S3 server of the environment (run it under tests/s3/swift_server.py
run -- ...). Per run: the wall time of the whole command, the CPU of it and its children (user +
system, getrusage), and for a captured run the HTTP requests the trace holds (dlgen inspect) and
the events it lost.

  SWIFT_PROXY_WORKERS=2 tests/s3/swift_server.py run -- \\
      bench/s3/capture_overhead.py build/dlgen --pairs 5 --json /tmp/s3-capture.json

Needs root (BPF) for the captured runs and Debian's python3-boto3 and torch.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "..", "..", "tests", "pytorch", "s3_dataset.py")


def timed(cmd):
    """Wall seconds and children's CPU seconds (user + system) of `cmd`, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if out.returncode != 0:
        sys.exit("%s: exit %d\n%s" % (" ".join(cmd), out.returncode, out.stdout[-2000:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("dlgen")
    p.add_argument("--pairs", type=int, default=5)
    p.add_argument("--objects", type=int, default=64)
    p.add_argument("--size", type=int, default=256 << 10)
    p.add_argument("--range", type=int, default=64 << 10)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute", type=float, default=0.0)
    p.add_argument("--json")
    a = p.parse_args()
    bucket = "dlgen-capture-bench-%d" % os.getpid()
    subprocess.run([sys.executable, os.path.join(HERE, "..", "..", "tests", "s3", "s3_check.py"),
                    "mb", bucket], check=True)
    subprocess.run([sys.executable, PROGRAM, "put", bucket, "train", "--objects", str(a.objects),
                    "--size", str(a.size)], check=True)
    train = [sys.executable, PROGRAM, "train", bucket, "train", "--objects", str(a.objects),
             "--size", str(a.size), "--range", str(a.range), "--workers", str(a.workers),
             "--epochs", str(a.epochs), "--batch-size", "4", "--compute", str(a.compute)]
    runs = {"plain": [], "captured": []}
    with tempfile.TemporaryDirectory(prefix="dlgen-s3-capture-") as tmp:
        trace = os.path.join(tmp, "run.h5")
        for i in range(a.pairs):
            order = ("plain", "captured") if i % 2 == 0 else ("captured", "plain")
            for kind in order:
                cmd = train if kind == "plain" else [a.dlgen, "capture", "-q", "-o", trace,
                                                     "--"] + train
                wall, cpu = timed(cmd)
                row = {"wall_s": wall, "cpu_s": cpu}
                if kind == "captured":
                    ins = json.loads(subprocess.run([a.dlgen, "inspect", trace, "--json"],
                                                    stdout=subprocess.PIPE, check=True).stdout)
                    row["http_requests"] = ins.get("http", {}).get("requests", 0)
                    row["lost_events"] = ins.get("lost_events", 0)
                runs[kind].append(row)
                print("pair %d %-8s wall %.2f s cpu %.2f s %s" % (
                    i + 1, kind, wall, cpu,
                    "" if kind == "plain" else "requests %d lost %d" % (row["http_requests"],
                                                                        row["lost_events"])),
                    flush=True)
    ratios = [c["wall_s"] / p_["wall_s"] for p_, c in zip(runs["plain"], runs["captured"])]
    cpu_ratios = [c["cpu_s"] / p_["cpu_s"] for p_, c in zip(runs["plain"], runs["captured"])]
    gets = a.epochs * a.objects * (a.size // a.range)
    summary = {"pairs": a.pairs, "gets_per_run": gets,
               "wall_ratio_median": statistics.median(ratios),
               "cpu_ratio_median": statistics.median(cpu_ratios),
               "plain_wall_median_s": statistics.median(r["wall_s"] for r in runs["plain"]),
               "captured_wall_median_s": statistics.median(r["wall_s"] for r in runs["captured"]),
               "runs": runs}
    print("wall captured/plain: median %.3f (%s); CPU: median %.3f; %d GETs a run" % (
        summary["wall_ratio_median"], ", ".join("%.3f" % r for r in ratios),
        summary["cpu_ratio_median"], gets))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(summary, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
