#!/usr/bin/python3
"""MPI's cost on one host: 3 ranks x 1 accelerator vs 1 rank x 3 accelerators, the same workers in
all (W per accelerator), the same warm dataset, compute 0 (pure reads). Alternates the two in pairs
(order swapped every pair) and prints each pair's MiB/s and ratio, then the medians.

Two ratios: the reported one (the cluster's MiB/s = the sum of the ranks' MiB/s, docs/metrics.md)
and a conservative one (all ranks' bytes / the slowest rank's elapsed time).

    sudo /usr/bin/python3 bench/mpi/mpi_vs_one.py --dlgen build/dlgen --dir /var/tmp/dlgen-mpi-bench
"""
import argparse, json, os, shutil, statistics, subprocess, sys

JOB = """[job]
name = "mpi-bench"
[dataset]
dir = "data"
format = "raw"
num_files = {files}
sample_size = "{size}"
files_per_dir = 1000
seed = 7
[reader]
batch_size = 16
workers = {workers}
iodepth = 4
shuffle = "file"
seed = 7
[run]
epochs = {epochs}
accelerators = {accelerators}
"""


def run(cmd, cwd):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                       env=dict(os.environ, DLGEN_NO_PROGRESS="1"))
    if r.returncode != 0:
        sys.exit(f"failed ({r.returncode}): {' '.join(cmd)}\n{r.stdout}{r.stderr}")
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dlgen", default="build/dlgen")
    ap.add_argument("--dir", default="/var/tmp/dlgen-mpi-bench")
    ap.add_argument("--mpirun", default=shutil.which("mpirun") or "mpirun")
    ap.add_argument("--ranks", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2, help="per accelerator")
    ap.add_argument("--files", type=int, default=8000)
    ap.add_argument("--size", default="64KiB")
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--json")
    a = ap.parse_args()
    dlgen = os.path.realpath(a.dlgen)
    os.makedirs(a.dir, exist_ok=True)
    common = dict(files=a.files, size=a.size, workers=a.workers, epochs=a.epochs)
    with open(os.path.join(a.dir, "one.toml"), "w") as f:
        f.write(JOB.format(accelerators=a.ranks, **common))
    with open(os.path.join(a.dir, "ranks.toml"), "w") as f:
        f.write(JOB.format(accelerators=1, **common))
    run([dlgen, "generate", "one.toml", "-q"], a.dir)
    # Warm: every file read once; the runs below read from the page cache.
    run(["sh", "-c", "find data -type f -exec cat {} + > /dev/null"], a.dir)
    mpirun = [a.mpirun, "--allow-run-as-root", "--oversubscribe", "-np", str(a.ranks)]

    def one():
        run([dlgen, "run", "one.toml", "--no-generate", "-q", "-o", "one.json"], a.dir)
        j = json.load(open(os.path.join(a.dir, "one.json")))
        return j["mib_per_s"], j["totals"]["bytes_read"] / 1048576 / j["totals"]["wall_seconds"]

    def ranks():
        run(mpirun + [dlgen, "run", "ranks.toml", "--no-generate", "-q", "-o", "ranks.json"], a.dir)
        j = json.load(open(os.path.join(a.dir, "ranks.json")))
        assert j["ranks"] == a.ranks
        slowest = max(r["elapsed_s"] for r in j["per_rank"])
        return j["mib_per_s"], j["bytes_read"] / 1048576 / slowest

    rows = []
    for p in range(a.pairs):
        order = [("one", one), ("ranks", ranks)] if p % 2 == 0 else [("ranks", ranks), ("one", one)]
        got = {name: fn() for name, fn in order}
        row = {"one_mib_s": got["one"][0], "ranks_mib_s": got["ranks"][0],
               "ranks_conservative_mib_s": got["ranks"][1],
               "ratio": got["ranks"][0] / got["one"][0],
               "ratio_conservative": got["ranks"][1] / got["one"][0]}
        rows.append(row)
        print(f"pair {p + 1}: 1 rank x {a.ranks} acc {row['one_mib_s']:.1f} MiB/s, "
              f"{a.ranks} ranks x 1 acc {row['ranks_mib_s']:.1f} MiB/s "
              f"(conservative {row['ranks_conservative_mib_s']:.1f}): ratio {row['ratio']:.3f} "
              f"(conservative {row['ratio_conservative']:.3f})", flush=True)
    med = {k: statistics.median(r[k] for r in rows) for k in rows[0]}
    print(f"median: 1 rank {med['one_mib_s']:.1f} MiB/s, {a.ranks} ranks {med['ranks_mib_s']:.1f} MiB/s; "
          f"ratio {med['ratio']:.3f} (conservative {med['ratio_conservative']:.3f}); target >= 0.90")
    if a.json:
        json.dump({"args": vars(a), "pairs": rows, "median": med}, open(a.json, "w"), indent=2)


if __name__ == "__main__":
    main()
