#!/usr/bin/python3
"""Capture overhead, measured side by side (runs alternate plain / captured, medians reported).

  run_overhead.py --dlgen BUILD/dlgen --pread-loop BUILD/bench/capture/dlgen_pread_loop [--runs 5]

0. Fixed cost: capturing /bin/true (BPF load and attach, trace file, finish).
1. pread loop: 1M preads of 512 B from a page-cached file, in 1 and 2 threads; ns per pread with
   and without capture, events/s under capture, lost events, CPU per event split into the traced
   threads (BPF programs) and dlgen (ring buffer, encoding, HDF5), trace bytes per 1M events and
   the h5py load time of the trace.
2. PyTorch CPU training (torch_train.py): wall and CPU time with and without capture in pairs
   (order alternating), median of per-pair ratios and ratio of medians.
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


def pread_bench(a, tmp, threads):
    data = os.path.join(tmp, "pread.bin")
    if not os.path.exists(data):
        with open(data, "wb") as f:
            f.write(os.urandom(64 << 20))
    with open(data, "rb") as f:  # page cache
        while f.read(1 << 20):
            pass
    trace = os.path.join(tmp, "pread.h5")
    loop = [a.pread_loop, data, str(a.preads), "512", str(threads)]
    field = lambda out, k: float(re.search(k + r"=([\d.]+)", out).group(1))
    plain, captured, rate, lost, events, sizes, loads = [], [], [], [], [], [], []
    bpf_cpu, dlgen_cpu = [], []
    for _ in range(a.runs):
        _, out = run(loop)
        plain.append(field(out, "ns_per_pread"))
        plain_cpu = field(out, "cpu_ns")
        _, out = run([a.dlgen, "capture", "-q", "-o", trace, "--"] + loop)
        captured.append(field(out, "ns_per_pread"))
        rate.append(field(out, "preads_per_s"))
        with h5py.File(trace) as f:
            lost.append(int(f.attrs["lost_events"]))
            ev = int(f.attrs["event_count"])
        events.append(ev)
        # CPU split: the traced program's own CPU grows by the BPF programs that run in its
        # threads; the rest of the capture's CPU is dlgen (ring buffer, encoding, HDF5).
        bpf_cpu.append((field(out, "cpu_ns") - plain_cpu) / ev)
        dlgen_cpu.append((LAST_CPU_S * 1e9 - field(out, "cpu_ns")) / ev)
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
        "threads": threads,
        "ns_per_pread_plain": p,
        "ns_per_pread_captured": c,
        "slowdown": c / p,
        "events_per_s_captured": statistics.median(rate),
        "cpu_ns_per_event_in_traced_threads": statistics.median(bpf_cpu),
        "cpu_ns_per_event_in_dlgen": statistics.median(dlgen_cpu),
        "events_in_trace": ev,
        "lost_events_max": max(lost),
        "trace_mb_per_1m_events": statistics.median(sizes) / 1e6 / (ev / 1e6),
        "h5py_load_s_per_1m_events": statistics.median(loads) / (ev / 1e6),
    }


def fixed_cost(a, tmp):
    """Wall time of capturing a command that does nothing: BPF load, attach, trace file, finish."""
    trace = os.path.join(tmp, "true.h5")
    walls = [run([a.dlgen, "capture", "-q", "-o", trace, "--", "/bin/true"])[0] for _ in range(5)]
    plain = [run(["/bin/true"])[0] for _ in range(5)]
    return {"capture_true_s": statistics.median(walls), "true_s": statistics.median(plain)}


def torch_bench(a, tmp):
    script = os.path.join(HERE, "torch_train.py")
    trace = os.path.join(tmp, "torch.h5")
    cmd = ["/usr/bin/python3", script, tmp, str(a.torch_epochs)]
    run(cmd)  # create the dataset, warm the page cache
    plain, captured, ratios, cpu_ratios, events = [], [], [], [], []
    for i in range(a.runs):
        # Alternate which goes first, so that drifts in the machine's load hit both sides.
        order = ["plain", "captured"] if i % 2 == 0 else ["captured", "plain"]
        got = {}
        for which in order:
            c = cmd if which == "plain" else [a.dlgen, "capture", "-q", "-o", trace, "--"] + cmd
            wall, _ = run(c)
            got[which] = (wall, LAST_CPU_S)
        plain.append(got["plain"][0])
        captured.append(got["captured"][0])
        ratios.append(got["captured"][0] / got["plain"][0])
        cpu_ratios.append(got["captured"][1] / got["plain"][1])
        with h5py.File(trace) as f:
            events.append(int(f.attrs["event_count"]))
    return {
        "wall_s_plain_median": statistics.median(plain),
        "wall_s_captured_median": statistics.median(captured),
        "overhead_median_ratio": statistics.median(ratios),
        "ratio_of_medians": statistics.median(captured) / statistics.median(plain),
        "cpu_overhead_median_ratio": statistics.median(cpu_ratios),
        "ratios": [round(r, 3) for r in ratios],
        "events": statistics.median(events),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dlgen", required=True)
    ap.add_argument("--pread-loop", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--preads", type=int, default=1_000_000)
    ap.add_argument("--threads", default="1,2", help="pread loop thread counts, comma separated")
    ap.add_argument("--skip-torch", action="store_true")
    ap.add_argument("--torch-epochs", type=int, default=2, help="epochs of torch_train.py (2: ~8 s)")
    ap.add_argument("--skip-pread", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="dlgen-capture-bench-") as tmp:
        res = {"load_avg": os.getloadavg(), "fixed": fixed_cost(a, tmp)}
        if not a.skip_pread:
            res["pread"] = [pread_bench(a, tmp, int(t)) for t in a.threads.split(",")]
        if not a.skip_torch:
            res["torch"] = torch_bench(a, tmp)
        res["load_avg_end"] = os.getloadavg()
    print(json.dumps(res, indent=2))


if __name__ == "__main__":
    main()
