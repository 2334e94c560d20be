#!/usr/bin/env python3
"""dlgen on DLIO's workload shapes (shared/bench-shapes.md), beside fio and beside DLIO's quoted figures.

For each shape it generates the dataset with `dlgen generate`, then:
  1. compute 0, cold (page cache dropped) and warm (every file read once first): `dlgen run` with 4
     reader workers and fio's "four readers over disjoint quarters of the files" job file, alternately,
     --runs times each; MiB/s of bytes actually moved, samples (files) per second, and the ratio per pair.
  2. H100 compute time per step, 1 simulated accelerator, page cache dropped at the start: AU, and the
     measured vs configured step time (compute-delay accuracy).
  3. `dlgen run --find-max-accelerators` with H100 compute times, each trial cold (run.cache=drop_start).
Standard library only; run as root (drop_caches). Data under --dir, never in the repository.

  sudo /usr/bin/python3 bench/dlio/dlio.py --dlgen build-bench/dlgen --dir /var/tmp/dlgen-bench --runs 3 [shape ...]

fio reads whole blocks only: a file shorter than bs is an error and the tail past the last full block is
skipped, so each shape names a block size below its smallest files (the skipped share is printed).
Each fio job reads its quarter through a directory of hard links (same inodes). Both sides keep 32 requests in flight in total: fio 4 jobs x iodepth 8, dlgen 4 workers x iodepth 8.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

MIB = 1 << 20
GIB = 1 << 30

# name: dataset, loader and H100 step time (bench-shapes.md), fio block size (below the smallest file),
# dlgen's request size (None: a whole file in one request). Large files are read in requests of fio's
# block size: dlgen's default (a whole ~12 MiB unet3d file in one request) reads warm at 360-970 MiB/s
# where 1 MiB requests reach ~2,000, and cold cosmoflow reads 1.1x faster in 512 KiB requests than in
# 1 MiB ones on this disk (see bench/README.md, problems 1 and 2).
SHAPES = {
    "resnet50-jpeg": dict(format="jpeg", files=16000,
                          size='{ dist = "normal", mean = "64KiB", stdev = "8KiB", min = "32KiB" }',
                          batch=400, h100="0.224s", fio_bs="16k", files_per_dir=1000, request=None),
    "cosmoflow-npz": dict(format="npz", files=512,
                          size='{ dist = "normal", mean = 2828486, stdev = 71311, min = "2MiB" }',
                          batch=1, h100="0.00350s", fio_bs="512k", files_per_dir=0, request="512KiB"),
    "unet3d-small": dict(format="npz", files=168,
                         size='{ dist = "normal", mean = "12MiB", stdev = "4MiB", min = "4MiB" }',
                         batch=7, h100="0.323s", fio_bs="1m", files_per_dir=0, request="1MiB"),
}
WORKERS = 4
IODEPTH = 8


def drop_caches():
    subprocess.run(["sync"], check=True)
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def warm(files):
    for path in files:
        with open(path, "rb") as f:
            while f.read(1 << 20):
                pass


def run_measured(cmd):
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"command failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout[-1000:]}\n{proc.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def job_text(name, spec, data, compute):
    fpd = f"files_per_dir = {spec['files_per_dir']}\n" if spec["files_per_dir"] else ""
    req = f"request_size = \"{spec['request']}\"\n" if spec["request"] else ""
    return f"""
[job]
name = "{name}"
[dataset]
dir = "{data}"
format = "{spec['format']}"
num_files = {spec['files']}
sample_size = {spec['size']}
seed = 11
{fpd}
[reader]
batch_size = {spec['batch']}
workers = {WORKERS}
iodepth = {IODEPTH}
prefetch = 2
shuffle = "file"
read = "file"
seed = 11
{req}[compute]
time = "{compute}"
au_threshold = 0.90
[run]
epochs = 1
"""


def dataset_files(data):
    out = []
    for root, _, names in os.walk(data):
        out += [os.path.join(root, n) for n in names if not n.startswith(".") and not n.endswith(".json")]
    # Dataset files are named by index: sorted paths give fio the same files dlgen's workers share.
    return sorted(out)


def fio_quarters(root, files):
    """Hard links of files i, i+4, i+8... in root/q<i>: one directory per fio job (fio's job-file lines are
    limited to a few KiB, too short for a filename= list of 4,000 paths). Same inodes, so the same page cache."""
    import shutil
    shutil.rmtree(root, ignore_errors=True)
    dirs = []
    for i in range(WORKERS):
        d = os.path.join(root, f"q{i}")
        os.makedirs(d)
        for k, path in enumerate(files[i::WORKERS]):
            os.link(path, os.path.join(d, f"{k:06d}{os.path.splitext(path)[1]}"))
        dirs.append(d)
    return dirs


def fio_jobfile(path, dirs, bs, warm_run):
    """Four jobs, job i reading its quarter of the files once each, sequentially in 'bs' blocks."""
    with open(path, "w") as f:
        f.write(f"[global]\nioengine=io_uring\nrw=read\nbs={bs}\niodepth={IODEPTH}\ndirect=0\n"
                f"invalidate={0 if warm_run else 1}\n")
        for i, d in enumerate(dirs):
            f.write(f"[r{i}]\nopendir={d}\n")


def fio_measure(jobfile, nfiles):
    wall, cpu, out = run_measured(["fio", jobfile, "--output-format=json"])
    doc = json.loads(out[out.index("{"):])
    moved = sum(j["read"]["io_bytes"] for j in doc["jobs"])
    secs = max(j["read"]["runtime"] for j in doc["jobs"]) / 1000.0
    return {"bytes": moved, "seconds": secs, "mib_s": moved / MIB / secs, "samples_s": nfiles / secs,
            "cpu_s_per_gib": cpu / (moved / GIB), "wall": wall}


def dlgen_measure(dlgen, job, tmp, extra=()):
    result = os.path.join(tmp, "result.json")
    wall, cpu, _ = run_measured([dlgen, "run", job, "--no-generate", "--quiet", "--output", result, *extra])
    with open(result) as f:
        doc = json.load(f)
    t = doc["totals"]
    return {"bytes": t["bytes_read"], "seconds": t["wall_seconds"], "mib_s": t["mib_per_s"],
            "samples_s": t["samples_per_s"], "cpu_s_per_gib": cpu / (t["bytes_read"] / GIB), "wall": wall,
            "au": t["au"], "compute": doc["compute"], "latency_us": doc["latency_us"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dlgen", default="build/dlgen")
    ap.add_argument("--dir", default="/var/tmp/dlgen-bench")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip", default="", help="comma list of parts to skip: io,h100,findmax")
    ap.add_argument("--json", help="write all measurements here")
    ap.add_argument("shapes", nargs="*", default=list(SHAPES))
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("run as root: cold runs write /proc/sys/vm/drop_caches")
    skip = set(filter(None, args.skip.split(",")))
    args.dlgen = os.path.abspath(args.dlgen)
    report = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.shapes:
            spec = SHAPES[name]
            data = os.path.join(args.dir, name)
            job0 = os.path.join(tmp, f"{name}-c0.toml")
            jobh = os.path.join(tmp, f"{name}-h100.toml")
            with open(job0, "w") as f:
                f.write(job_text(name, spec, data, "0s"))
            with open(jobh, "w") as f:
                f.write(job_text(name, spec, data, spec["h100"]))
            subprocess.run([args.dlgen, "generate", job0, "--quiet"], check=True)
            files = dataset_files(data)
            total = sum(os.path.getsize(p) for p in files)
            print(f"== {name}: {len(files)} files, {total / MIB:.0f} MiB, batch {spec['batch']}, "
                  f"{WORKERS} readers x iodepth {IODEPTH}; fio bs={spec['fio_bs']}", flush=True)
            rep = report[name] = {"files": len(files), "bytes": total}
            if "io" not in skip:
                quarters = fio_quarters(os.path.join(args.dir, "fio-quarters", name), files)
                for mode in ("cold", "warm"):
                    jf = os.path.join(tmp, f"{name}-{mode}.fio")
                    fio_jobfile(jf, quarters, spec["fio_bs"], mode == "warm")
                    prepare = drop_caches if mode == "cold" else (lambda: warm(files))
                    rows = []
                    for i in range(args.runs):
                        row = {}
                        for tool in (("fio", "dlgen") if i % 2 == 0 else ("dlgen", "fio")):
                            prepare()
                            row[tool] = fio_measure(jf, len(files)) if tool == "fio" else \
                                dlgen_measure(args.dlgen, job0, tmp)
                        rows.append(row)
                        f_, d_ = row["fio"], row["dlgen"]
                        print(f"{name} {mode} run {i + 1}: fio {f_['mib_s']:.0f} MiB/s {f_['samples_s']:.0f} files/s "
                              f"{f_['cpu_s_per_gib']:.2f} cpu-s/GiB (moved {f_['bytes'] / total:.1%}) | dlgen "
                              f"{d_['mib_s']:.0f} MiB/s {d_['samples_s']:.0f} samples/s {d_['cpu_s_per_gib']:.2f} "
                              f"cpu-s/GiB | ratio {d_['mib_s'] / f_['mib_s']:.2f}", flush=True)
                    med = {t: {k: statistics.median(r[t][k] for r in rows)
                               for k in ("mib_s", "samples_s", "cpu_s_per_gib")} for t in ("fio", "dlgen")}
                    ratio = statistics.median(r["dlgen"]["mib_s"] / r["fio"]["mib_s"] for r in rows)
                    print(f"{name} {mode}: median fio {med['fio']['mib_s']:.0f} MiB/s, dlgen {med['dlgen']['mib_s']:.0f} "
                          f"MiB/s {med['dlgen']['samples_s']:.0f} samples/s; median ratio {ratio:.2f} "
                          f"(load {os.getloadavg()[0]:.1f})", flush=True)
                    rep[mode] = {"runs": rows, "median": med, "median_ratio": ratio, "loadavg_1m": os.getloadavg()[0]}
            if "h100" not in skip:
                drop_caches()
                h = dlgen_measure(args.dlgen, jobh, tmp, ["--set", "run.cache=drop_start"])
                c = h["compute"]
                print(f"{name} h100 x1 cold: AU {h['au']:.1%}, {h['samples_s']:.1f} samples/s, {h['mib_s']:.0f} MiB/s; "
                      f"step time configured {c['configured_mean_s'] * 1e3:.3f} ms measured "
                      f"{c['measured_mean_s'] * 1e3:.3f} ms (error {c['relative_error']:.3%}, max "
                      f"{c['max_error_s'] * 1e6:.0f} us over {c['steps']} steps)", flush=True)
                rep["h100"] = h
            if "findmax" not in skip:
                _, _, out = run_measured([args.dlgen, "run", jobh, "--no-generate", "--find-max-accelerators",
                                          "--set", "run.cache=drop_start"])
                print(out.rstrip(), flush=True)
                rep["find_max"] = out
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2)


if __name__ == "__main__":
    main()
