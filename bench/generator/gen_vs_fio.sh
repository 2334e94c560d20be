#!/usr/bin/env bash
# Generator write bandwidth vs `fio --rw=write` of the same total bytes on the same disk, alternately,
# ROUNDS times; prints each MiB/s and the median ratio generator/fio. Both are buffered writes
# followed by a flush to disk (the generator syncfs()s before marking a dataset complete; fio gets
# --end_fsync=1), with the same number of writer threads. Each side's MiB/s is total bytes over the
# wall-clock time of its whole command, measured the same way for both.
#   usage: bench/generator/gen_vs_fio.sh [DIR]   (DIR on the disk to measure; default /tmp/dlgen-genbench)
#   env:   BUILD=build  FORMAT=npz  FILES=64  SIZE=16MiB  THREADS=2  ROUNDS=3
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD:-$root/build}
dir=${1:-/tmp/dlgen-genbench}
format=${FORMAT:-npz} files=${FILES:-64} size=${SIZE:-16MiB} threads=${THREADS:-2} rounds=${ROUNDS:-3}
gen=$build/bench/generator/gen_bench
[[ -x $gen ]] || { echo "missing $gen: cmake --build $build --target gen_bench" >&2; exit 77; }
command -v fio >/dev/null || { echo "fio not installed" >&2; exit 77; }
py=/usr/bin/python3

mkdir -p "$dir"
gen_ratios=()
for ((r = 1; r <= rounds; r++)); do
  rm -rf "$dir/gen" "$dir/fio"
  t0=$(date +%s.%N)
  out=$("$gen" "$dir/gen" "$format" "$files" "$size" "$threads")
  t1=$(date +%s.%N)
  bytes=$(sed -E 's/.*bytes=([0-9]+).*/\1/' <<<"$out")
  gen_mibs=$("$py" -c "print('%.1f' % ($bytes / 2**20 / ($t1 - $t0)))")
  rm -rf "$dir/gen"
  mkdir -p "$dir/fio"
  per_job=$(( (bytes + threads - 1) / threads ))
  t0=$(date +%s.%N)
  fio --name=gen-vs-fio --directory="$dir/fio" --rw=write --bs=4M --ioengine=psync \
      --numjobs="$threads" --size="$per_job" --end_fsync=1 --group_reporting >/dev/null
  t1=$(date +%s.%N)
  fio_mibs=$("$py" -c "print('%.1f' % ($per_job * $threads / 2**20 / ($t1 - $t0)))")
  rm -rf "$dir/fio"
  ratio=$("$py" -c "print('%.3f' % ($gen_mibs / $fio_mibs))")
  gen_ratios+=("$ratio")
  printf 'round %d: %s %s files x %s: generator %8.1f MiB/s   fio --rw=write %8.1f MiB/s   ratio %s\n' \
    "$r" "$format" "$files" "$size" "$gen_mibs" "$fio_mibs" "$ratio"
done
median=$(printf '%s\n' "${gen_ratios[@]}" | sort -n | "$py" -c 'import sys; v=[float(x) for x in sys.stdin]; print(v[len(v)//2])')
echo "median ratio generator/fio: $median"
