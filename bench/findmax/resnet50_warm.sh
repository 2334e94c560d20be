#!/usr/bin/env bash
# How many simulated H100s (0.224 s a step, batch 400) one client host feeds on a warm resnet50-like
# set of 16,000 JPEGs of 64 KiB, 4 reader workers per accelerator, with whole-trial AU (docs/metrics.md).
# Also the compute-0 throughput of the same set, alternating two binaries (BASE, for "performance
# must not drop" checks) in 3 pairs.
#   bench/findmax/resnet50_warm.sh DIR [DLGEN] [BASE_DLGEN]
set -euo pipefail
dir=${1:?usage: resnet50_warm.sh DIR [DLGEN] [BASE_DLGEN]}
dlgen=$(realpath "${2:-build/dlgen}")
base=${3:-}
mkdir -p "$dir"
cd "$dir"
cat > resnet50-warm.toml <<'JOB'
[job]
name = "resnet50-warm"
[dataset]
dir = "data"
format = "jpeg"
num_files = 16000
sample_size = "64KiB"
files_per_dir = 1000
seed = 11
[reader]
batch_size = 400
workers = 4
shuffle = "file"
seed = 11
[compute]
time = "0.224s"
au_threshold = 0.90
[run]
epochs = 2
JOB
"$dlgen" generate resnet50-warm.toml -q
find data -type f -exec cat {} + > /dev/null   # warm the page cache
echo "== find-max, warm (whole-trial AU >= 90%)"
"$dlgen" run resnet50-warm.toml --no-generate --find-max-accelerators
echo "== compute 0, warm, 2 epochs: samples/s"
for i in 1 2 3; do
  for b in "$dlgen" $base; do
    out=$("$b" run resnet50-warm.toml --no-generate --set compute.time=0s -q)
    echo "$(basename "$(dirname "$(dirname "$b")")")/$(basename "$b"): $out"
  done
done
