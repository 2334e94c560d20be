#!/usr/bin/env python3
"""Side-by-side benchmark: dlgen's replay vs fio (or vs another dlgen engine) on the same files and pattern.

Runs the baseline and dlgen alternately (order swapped every run, so disk drift hits both alike),
several times, and prints per-pair ratios and their medians: MiB/s of bytes actually moved (fio's
io_bytes, dlgen's totals.bytes_read: fio skips file tails past its last full block, dlgen reads whole
files) and CPU seconds per GiB (user+sys of the whole process tree, from wait4's rusage). Shapes and fio
command lines are those of shared/bench-shapes.md. Standard library only. Run as root (drop_caches).

  sudo /usr/bin/python3 bench/fio/bench.py --dlgen build-bench/dlgen --dir /var/tmp/dlgen-bench --runs 3 [shape ...]

Shapes:
  small-files-direct   2,000 files of 100-200 KiB, random file order, QD32, O_DIRECT, page cache dropped
  small-files-warm     the same files buffered from a warm page cache (fio --invalidate=0)
  randread4k-default   4 KiB random reads of a 2 GiB file from page cache, QD32, fio's defaults
  randread4k-batched   the same, fio with --iodepth_batch_submit=16 --iodepth_batch_complete_min=16
  engines-direct       small-files-direct through `dlgen run --engine pread` (baseline) vs io_uring
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

GIB = 1 << 30
MIB = 1 << 20


def drop_caches():
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def warm(directory):
    for root, _, files in os.walk(directory):
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                while f.read(1 << 20):
                    pass


class CpuMeter:
    """RUSAGE_CHILDREN is cumulative: measure the difference around each command."""

    def __init__(self):
        import resource
        self.resource = resource

    def run(self, cmd):
        before = self.resource.getrusage(self.resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wall = time.monotonic() - start
        after = self.resource.getrusage(self.resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout[-1000:]}\n{proc.stderr[-2000:]}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall, cpu, proc.stdout


def fio_result(out, _path):
    """Bytes moved, seconds of I/O and requests completed, from fio's JSON (all jobs together)."""
    doc = json.loads(out[out.index("{"):])
    total = requests = 0
    runtime_ms = 0
    for job in doc["jobs"]:
        total += job["read"]["io_bytes"]
        requests += job["read"]["total_ios"]
        runtime_ms = max(runtime_ms, job["read"]["runtime"])
    return total, runtime_ms / 1000.0, requests


def dlgen_result(_out, result_path):
    with open(result_path) as f:
        doc = json.load(f)
    t = doc["totals"]
    return t["bytes_read"], t["wall_seconds"], t["requests"]


def write_job(path, text):
    with open(path, "w") as f:
        f.write(text)


SHAPES = {}


def shape(name):
    def register(fn):
        SHAPES[name] = fn
        return fn
    return register


def small_files_job(args, tmp, direct, loops):
    """2,000 files of 100-200 KiB (uniform), a new random file order each pass, QD32, one reader.

    prefetch = 8: batches are handed over in order, so with the default window of 2 batches one slow
    read in the oldest batch stalls the queue (measured: ~21 requests in flight on average instead of
    32); fio has no batches, and 8 batches of 32 keep ~29-32 in flight, the same concurrency as fio's."""
    data = os.path.join(args.dir, "small-files")
    job = os.path.join(tmp, f"small-files-{'direct' if direct else 'buffered'}.toml")
    write_job(job, f"""
[job]
name = "small-files"
[dataset]
dir = "{data}"
format = "raw"
num_files = 2000
sample_size = {{ dist = "uniform", min = "100KiB", max = "200KiB" }}
seed = 7
[reader]
batch_size = 32
workers = 1
iodepth = 32
prefetch = 8
shuffle = "file"
direct = {str(direct).lower()}
[compute]
time = "0s"
[run]
epochs = {loops}
""")
    subprocess.run([args.dlgen, "generate", job, "--quiet"], check=True)
    return data, job


def small_files(args, tmp, direct):
    loops = 20
    data, job = small_files_job(args, tmp, direct, loops)
    # bench-shapes.md's command; the warm variant only adds --direct=0 --invalidate=0 (fio's default
    # invalidate=1 would drop each file's page cache on open and make it cold again).
    fio = ["fio", "--name=d", f"--opendir={data}", "--rw=read", "--bsrange=4k-256k",
           "--file_service_type=random", "--ioengine=io_uring", "--iodepth=32",
           f"--direct={1 if direct else 0}", f"--loops={loops}", "--output-format=json"]
    if not direct:
        fio.append("--invalidate=0")
    prepare = drop_caches if direct else (lambda: warm(data))
    return {"base": ("fio", fio, fio_result), "dlgen": [args.dlgen, "run", job, "--no-generate"],
            "prepare": prepare, "files": 2000 * loops}


@shape("small-files-direct")
def small_files_direct(args, tmp):
    return small_files(args, tmp, direct=True)


@shape("small-files-warm")
def small_files_warm(args, tmp):
    return small_files(args, tmp, direct=False)


@shape("engines-direct")
def engines_direct(args, tmp):
    """The pread engine issues one request at a time per worker: 5 passes, not 20, to keep it short."""
    _, job = small_files_job(args, tmp, True, 5)
    base = [args.dlgen, "run", job, "--no-generate", "--engine", "pread"]
    return {"base": ("dlgen-pread", base, None), "dlgen": [args.dlgen, "run", job, "--no-generate"],
            "prepare": drop_caches, "files": 2000 * 5}


def randread4k(args, tmp, batched):
    """4 KiB random reads of one 2 GiB file from the page cache, QD32, one thread."""
    data = os.path.join(args.dir, "randread")
    job = os.path.join(tmp, "randread.toml")
    write_job(job, f"""
[job]
name = "randread4k"
[dataset]
dir = "{data}"
format = "raw"
num_files = 1
samples_per_file = 524288
sample_size = "4KiB"
[reader]
batch_size = 1024
workers = 1
iodepth = 32
prefetch = 4
shuffle = "sample"
read = "sample"
[compute]
time = "0s"
[run]
epochs = {args.randread_epochs}
""")
    subprocess.run([args.dlgen, "generate", job, "--quiet"], check=True)
    files = sorted(os.path.join(r, n) for r, _, fs in os.walk(data) for n in fs if not n.startswith("."))
    fio = ["fio", "--name=a", f"--filename={files[0]}", "--size=2G", "--rw=randread", "--bs=4k",
           "--ioengine=io_uring", "--iodepth=32", "--direct=0", "--invalidate=0", "--time_based",
           "--runtime=10"]
    if batched:
        fio += ["--iodepth_batch_submit=16", "--iodepth_batch_complete_min=16"]
    fio.append("--output-format=json")
    return {"base": ("fio", fio, fio_result), "dlgen": [args.dlgen, "run", job, "--no-generate"],
            "prepare": lambda: warm(data), "files": None}


@shape("randread4k-default")
def randread4k_default(args, tmp):
    return randread4k(args, tmp, batched=False)


@shape("randread4k-batched")
def randread4k_batched(args, tmp):
    return randread4k(args, tmp, batched=True)


def measure(meter, cmd, parse, tmp):
    cmd = list(cmd)
    result = os.path.join(tmp, "result.json")
    if parse is None:  # a dlgen command
        cmd += ["--output", result, "--quiet"]
        parse = dlgen_result
    wall, cpu, out = meter.run(cmd)
    moved, secs, requests = parse(out, result)
    return {"bytes": moved, "seconds": secs, "wall": wall, "cpu": cpu, "requests": requests,
            "mib_s": moved / MIB / secs, "iops": requests / secs, "cpu_s_per_gib": cpu / (moved / GIB)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dlgen", default="build/dlgen")
    ap.add_argument("--dir", default="/var/tmp/dlgen-bench")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--randread-epochs", type=int, default=4, help="passes over the 2 GiB file (dlgen side)")
    ap.add_argument("--json", help="write all measurements here")
    ap.add_argument("shapes", nargs="*", default=[s for s in SHAPES if s != "engines-direct"])
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("run as root: cold runs write /proc/sys/vm/drop_caches")
    unknown = [s for s in args.shapes if s not in SHAPES]
    if unknown:
        sys.exit(f"unknown shape(s) {unknown}; known: {list(SHAPES)}")
    args.dlgen = os.path.abspath(args.dlgen)
    os.makedirs(args.dir, exist_ok=True)
    meter = CpuMeter()
    report = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.shapes:
            spec = SHAPES[name](args, tmp)
            label, base_cmd, base_parse = spec["base"]
            print(f"{name}: {label}: {' '.join(base_cmd)}", flush=True)
            rows = []
            for i in range(args.runs):
                order = ["base", "dlgen"] if i % 2 == 0 else ["dlgen", "base"]
                row = {}
                for tool in order:
                    spec["prepare"]()
                    if tool == "base":
                        row[tool] = measure(meter, base_cmd, base_parse, tmp)
                    else:
                        row[tool] = measure(meter, spec["dlgen"], None, tmp)
                rows.append(row)
                b, d = row["base"], row["dlgen"]
                print(f"{name} run {i + 1}: {label} {b['mib_s']:.0f} MiB/s {b['iops']:.0f} req/s "
                      f"{b['cpu_s_per_gib']:.3f} cpu-s/GiB | dlgen {d['mib_s']:.0f} MiB/s {d['iops']:.0f} req/s "
                      f"{d['cpu_s_per_gib']:.3f} cpu-s/GiB | ratio MiB/s {d['mib_s'] / b['mib_s']:.2f} "
                      f"cpu/GiB {d['cpu_s_per_gib'] / b['cpu_s_per_gib']:.2f}", flush=True)
            med = {t: {k: statistics.median(r[t][k] for r in rows) for k in ("mib_s", "iops", "cpu_s_per_gib")}
                   for t in ("base", "dlgen")}
            speed = statistics.median(r["dlgen"]["mib_s"] / r["base"]["mib_s"] for r in rows)
            cpu = statistics.median(r["dlgen"]["cpu_s_per_gib"] / r["base"]["cpu_s_per_gib"] for r in rows)
            load = os.getloadavg()[0]
            print(f"{name}: median {label} {med['base']['mib_s']:.0f} MiB/s {med['base']['cpu_s_per_gib']:.3f} "
                  f"cpu-s/GiB, dlgen {med['dlgen']['mib_s']:.0f} MiB/s {med['dlgen']['cpu_s_per_gib']:.3f} "
                  f"cpu-s/GiB; median dlgen/{label} MiB/s ratio {speed:.2f}, CPU-per-GiB ratio {cpu:.2f} "
                  f"(load {load:.1f})", flush=True)
            report[name] = {"baseline": label, "runs": rows, "median": med, "median_speed_ratio": speed,
                            "median_cpu_ratio": cpu, "loadavg_1m": load}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
