#!/usr/bin/python3
"""Capture overhead, measured side by side (runs alternate plain / captured, medians reported).

  run_overhead.py --dlgen BUILD/dlgen --pread-loop BUILD/bench/capture/dlgen_pread_loop [--runs 5]

1. pread loop: 1M preads of 512 B from a page-cached file; reports ns per pread with and without
   capture (the difference is the tracer's cost per event), events/s under capture, lost events,
   trace bytes per 1M events and the h5py load time of the trace.
2. PyTorch CPU training (torch_train.py): wall time with and without capture, median ratio.
Needs root (BPF). The machine is shared and noisy: compare only ratios from one invocation."""
import argparse
import resource
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import h5py

HERE = os.path.dirname(os.path.abspath(__file__))


LAST_CPU_S = 0.0  # user+sys CPU seconds of the last run() (the command and all it waited for)


def run(cmd):
    global LAST_CPU_S
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    LAST_CPU_S = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr}")
    return wall, p.stdout


def pread_bench(a, tmp):
    data = os.path.join(tmp, "pread.bin")
    with open(data, "wb") as f:
        f.write(os.urandom(64 << 20))
    with open(data, "rb") as f:  # page cache
        while f.read(1 << 20):
            pass
    trace = os.path.join(tmp, "pread.h5")
    loop = [a.pread_loop, data, str(a.preads), "512"]
    plain, captured, lost, events, sizes, loads = [], [], [], [], [], []
    cpu_plain, cpu_captured = [], []
    for _ in range(a.runs):
        _, out = run(loop)
        cpu_plain.append(LAST_CPU_S)
        plain.append(float(re.search(r"ns_per_pread=([\d.]+)", out).group(1)))
        _, out = run([a.dlgen, "capture", "-q", "-o", trace, "--"] + loop)
        cpu_captured.append(LAST_CPU_S)
        captured.append(float(re.search(r"ns_per_pread=([\d.]+)", out).group(1)))
        with h5py.File(trace) as f:
            lost.append(int(f.attrs["lost_events"]))
            events.append(int(f.attrs["event_count"]))
        sizes.append(os.path.getsize(trace))
        t0 = time.monotonic()
        with h5py.File(trace) as f:
            cols = {k: f["events"][k][:] for k in f["events"]}
        loads.append(time.monotonic() - t0)
        del cols
    p, c = statistics.median(plain), statistics.median(captured)
    ev = statistics.median(events)
    return {
        "preads": a.preads,
        "ns_per_pread_plain": p,
        "ns_per_pread_captured": c,
        "ns_per_event": c - p,
        # CPU added by capturing (BPF in the traced thread + dlgen user space), per trace event
        "cpu_ns_per_event": (statistics.median(cpu_captured) - statistics.median(cpu_plain)) * 1e9 / ev,
        "slowdown": c / p,
        "events_per_s_captured": 1e9 / c,
        "events_in_trace": ev,
        "lost_events_max": max(lost),
        "trace_mb_per_1m_events": statistics.median(sizes) / 1e6 / (ev / 1e6),
        "h5py_load_s_per_1m_events": statistics.median(loads) / (ev / 1e6),
    }


def torch_bench(a, tmp):
    script = os.path.join(HERE, "torch_train.py")
    trace = os.path.join(tmp, "torch.h5")
    cmd = ["/usr/bin/python3", script, tmp]
    run(cmd)  # create the dataset, warm the page cache
    plain, captured, ratios, events = [], [], [], []
    for _ in range(a.runs):
        wp, _ = run(cmd)
        wc, _ = run([a.dlgen, "capture", "-q", "-o", trace, "--"] + cmd)
        plain.append(wp)
        captured.append(wc)
        ratios.append(wc / wp)
        with h5py.File(trace) as f:
            events.append(int(f.attrs["event_count"]))
    return {
        "wall_s_plain_median": statistics.median(plain),
        "wall_s_captured_median": statistics.median(captured),
        "overhead_median_ratio": statistics.median(ratios),
        "ratios": ratios,
        "events": statistics.median(events),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dlgen", required=True)
    ap.add_argument("--pread-loop", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--preads", type=int, default=1_000_000)
    ap.add_argument("--skip-torch", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="dlgen-capture-bench-") as tmp:
        res = {"load_avg": os.getloadavg(), "pread": pread_bench(a, tmp)}
        if not a.skip_torch:
            res["torch"] = torch_bench(a, tmp)
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
