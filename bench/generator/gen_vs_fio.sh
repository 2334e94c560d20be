#!/usr/bin/env bash
# Generator write bandwidth and CPU cost vs `fio --rw=write` of the same total bytes on the same
# disk, alternately, ROUNDS times. Both end with the data on disk: the generator fsync()s its large
# (O_DIRECT) files one by one, or syncfs()s after small ones, before its manifest says complete;
# fio gets --end_fsync=1 (FIO_DIRECT=1 adds --direct=1). Same number of writer threads and 4 MiB
# requests. Each side's MiB/s is total bytes over the wall-clock time of its whole command; its CPU
# cost is user + system seconds of that command per GiB written (from /usr/bin/time), which does
# not depend on how loaded the machine is the way wall-clock time does. BASELINE=path/to/gen_bench
# adds another generator build to each round (before/after comparisons).
#   usage: bench/generator/gen_vs_fio.sh [DIR]   (DIR on the disk to measure; default /tmp/dlgen-genbench)
#   env:   BUILD=build  FORMAT=npz  FILES=64  SIZE=16MiB  THREADS=2  ROUNDS=3  FIO_DIRECT=0  BASELINE=
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD:-$root/build}
dir=${1:-/tmp/dlgen-genbench}
format=${FORMAT:-npz} files=${FILES:-64} size=${SIZE:-16MiB} threads=${THREADS:-2} rounds=${ROUNDS:-3}
fio_direct=${FIO_DIRECT:-0} baseline=${BASELINE:-}
gen=$build/bench/generator/gen_bench
[[ -x $gen ]] || { echo "missing $gen: cmake --build $build --target gen_bench" >&2; exit 77; }
command -v fio >/dev/null || { echo "fio not installed" >&2; exit 77; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time not installed (Debian package time)" >&2; exit 77; }
py=/usr/bin/python3
mkdir -p "$dir"
results=$(mktemp)
trap 'rm -f "$results"' EXIT

# run NAME BYTES CMD...: times CMD, appends "NAME MiB/s CPU-s/GiB" to $results and prints it.
run() {
  local name=$1 bytes=$2
  shift 2
  local tfile
  tfile=$(mktemp)
  /usr/bin/time -o "$tfile" -f '%e %U %S' "$@" >/dev/null
  local line
  line=$("$py" -c "
import sys
e, u, s = map(float, open('$tfile').read().split()[-3:])
b = $bytes
print('%s %.1f %.3f' % ('$name', b / 2**20 / e, (u + s) / (b / 2**30)))")
  rm -f "$tfile"
  echo "$line" >>"$results"
  read -r _ mibs cpu <<<"$line"
  printf '  %-9s %8.1f MiB/s  %6.3f CPU s/GiB\n' "$name" "$mibs" "$cpu"
}

# The generator's exact total, framing included, from the layout (nothing written).
bytes=$("$gen" - "$format" "$files" "$size" "$threads" | sed -E 's/.*bytes=([0-9]+).*/\1/')
per_job=$(( (bytes + threads - 1) / threads ))
fio_args=(--name=gen-vs-fio --directory="$dir/fio" --rw=write --bs=4M --ioengine=psync
          --numjobs="$threads" --size="$per_job" --end_fsync=1 --direct="$fio_direct" --group_reporting)
for ((r = 1; r <= rounds; r++)); do
  echo "round $r: $format $files files x $size, $threads threads ($bytes bytes)"
  rm -rf "$dir/gen" "$dir/fio"
  run gen "$bytes" "$gen" "$dir/gen" "$format" "$files" "$size" "$threads"
  rm -rf "$dir/gen"
  if [[ -n $baseline ]]; then
    run base "$bytes" "$baseline" "$dir/gen" "$format" "$files" "$size" "$threads"
    rm -rf "$dir/gen"
  fi
  mkdir -p "$dir/fio"
  run fio $((per_job * threads)) fio "${fio_args[@]}"
  rm -rf "$dir/fio"
done
"$py" - "$results" <<'EOF'
import sys, statistics as st
rows = {}
for line in open(sys.argv[1]):
    name, mibs, cpu = line.split()
    rows.setdefault(name, []).append((float(mibs), float(cpu)))
fio = rows['fio']
for name in [n for n in ('gen', 'base') if n in rows]:
    label = {'gen': 'generator', 'base': 'baseline'}[name]
    ratios = [g[0] / f[0] for g, f in zip(rows[name], fio)]
    print('%-9s median %7.1f MiB/s  %.3f CPU s/GiB   median ratio MiB/s vs fio: %.3f' %
          (label, st.median(m for m, _ in rows[name]), st.median(c for _, c in rows[name]), st.median(ratios)))
print('fio       median %7.1f MiB/s  %.3f CPU s/GiB' % (st.median(m for m, _ in fio), st.median(c for _, c in fio)))
EOF
