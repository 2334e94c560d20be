#!/usr/bin/env bash
# A dataset of very many small files (MLPerf Storage v3.0 retinanet: 1,170,301 jpeg files): how
# fast dlgen generates it against fio writing the same number of files of the same size, how much
# memory the replay's plan takes, and what a file costs the replay (open, read, close) against fio
# reading the same files. Every figure is wall-clock time and maximum RSS of the whole command
# (/usr/bin/time -v); files/s = files / wall seconds, MiB/s = bytes / 2^20 / wall seconds.
#   usage: bench/generator/many_files.sh [DIR]     (DIR on the disk to measure; default /tmp/dlgen-many)
#   env:   BUILD=build FILES=1170301 SIZE=4096 PER_DIR=1000 THREADS=2 FORMAT=raw STEPS=5000
#          FIO=1 KEEP=0
# SIZE is bytes per file (raw: exactly; jpeg needs >= 2048). Both writers end with the data on
# disk: dlgen syncfs()s before its manifest says complete; fio's command is followed by `sync`.
# fio writes FILES/THREADS files per job in one directory per job (fio has no fan-out); dlgen
# PER_DIR files a subdirectory (0: flat, as fio). The replay runs STEPS steps of batch 24 (one file
# a sample) with no compute time, reading the files just written (page cache: the cost measured
# is the system calls and the replay's own work per file, not the disk's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${BUILD:-$root/build}
dir=${1:-/tmp/dlgen-many}
files=${FILES:-1170301} size=${SIZE:-4096} per_dir=${PER_DIR:-1000} threads=${THREADS:-2}
format=${FORMAT:-raw} steps=${STEPS:-5000} use_fio=${FIO:-1} keep=${KEEP:-0}
dlgen=$build/dlgen
[[ -x $dlgen ]] || { echo "missing $dlgen: cmake --build $build --target dlgen" >&2; exit 77; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time not installed (Debian package time)" >&2; exit 77; }
if [[ $use_fio == 1 ]] && ! command -v fio >/dev/null; then echo "fio not installed" >&2; exit 77; fi
mkdir -p "$dir"

# Room for one copy at a time (each side is removed before the other writes): blocks and inodes.
need_kib=$(( files * ((size + 4095) / 4096) * 4 * 11 / 10 ))
avail_kib=$(df -Pk "$dir" | awk 'NR == 2 {print $4}')
avail_inodes=$(df -Pi "$dir" | awk 'NR == 2 {print $4}')
if (( need_kib > avail_kib )) || (( files + files / 100 > avail_inodes )); then
  echo "$dir: needs $need_kib KiB and $files inodes, has $avail_kib KiB and $avail_inodes inodes" >&2
  exit 77
fi

job=$dir/many.toml
cat >"$job" <<EOF
# bench/generator/many_files.sh: retinanet's shape (one file a sample, batch 24, 8 readers)
[job]
name = "many-files"

[dataset]
dir = "$dir/gen"
format = "$format"
num_files = $files
samples_per_file = 1
sample_size = $size
seed = 3
files_per_dir = $per_dir

[reader]
batch_size = 24
workers = 8
prefetch = 2
shuffle = "file"
seed = 3

[compute]
accelerator = "bench"

[compute.bench]
time = "0s"

[run]
epochs = 1
accelerators = 1
max_steps = $steps
EOF

results=$dir/results.txt
: >"$results"
# timed NAME CMD...: runs CMD under /usr/bin/time -v; records "NAME wall_s max_rss_kib".
timed() {
  local name=$1 tfile
  shift
  tfile=$(mktemp)
  /usr/bin/time -v -o "$tfile" "$@" >/dev/null
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0;
         for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$tfile")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tfile")
  rm -f "$tfile"
  echo "$name $wall $rss" | tee -a "$results"
}

bytes=$(( files * size ))
echo "== $files files of $size B ($format), $per_dir a directory, $threads threads, in $dir"
rm -rf "$dir/gen" "$dir/fio"
timed generate "$dlgen" generate "$job" --quiet
timed generate-reuse "$dlgen" generate "$job" --quiet
timed dry-run "$dlgen" run "$job" --dry-run
timed replay "$dlgen" run "$job" --no-generate --quiet
replay_files=$(( steps * 24 ))
if [[ $use_fio == 1 ]]; then
  # fio_args NRFILES: fio's options for NRFILES files a job, written or read one after another.
  fio_args() {
    echo --directory="$dir/fio" --nrfiles="$1" --filesize="$size" --bs="$size" --ioengine=psync \
      --numjobs="$threads" --openfiles=16 --file_service_type=sequential --fallocate=none \
      --group_reporting "--filename_format=j\$jobnum.f\$filenum"
  }
  mkdir -p "$dir/fio"
  timed fio-write bash -c "fio --name=many --rw=write $(fio_args $((files / threads))) && sync"
  # As many files as the replay read, opened and read once each (page cache, as the replay's).
  timed fio-read bash -c "fio --name=many --rw=read $(fio_args $((replay_files / threads)))"
  rm -rf "$dir/fio"
fi
[[ $keep == 1 ]] || rm -rf "$dir/gen"

python3 - "$results" "$files" "$bytes" "$replay_files" <<'EOF'
import sys
rows = {l.split()[0]: (float(l.split()[1]), int(l.split()[2])) for l in open(sys.argv[1])}
files, nbytes, replay_files = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def w(name, n, b):
    s, rss = rows[name]
    print('%-15s %8.1f s  %9.0f files/s  %7.1f MiB/s  max RSS %7.1f MiB' %
          (name, s, n / s, b / 2**20 / s, rss / 1024))
w('generate', files, nbytes)
if 'fio-write' in rows:
    w('fio-write', files, nbytes)
    print('generate / fio files/s ratio: %.2f' % (rows['fio-write'][0] / rows['generate'][0]))
s, rss = rows['generate-reuse']; print('%-15s %8.1f s  (manifest read, every file stat-ed)  max RSS %7.1f MiB' % ('generate-reuse', s, rss / 1024))
s, rss = rows['dry-run']; print('%-15s %8.1f s  max RSS %7.1f MiB' % ('dry-run', s, rss / 1024))
s, rss = rows['replay']
print('%-15s %8.1f s  %d files read: %.1f us a file (start-up included)  max RSS %7.1f MiB' %
      ('replay', s, replay_files, s / replay_files * 1e6, rss / 1024))
if 'fio-read' in rows:
    s, rss = rows['fio-read']
    print('%-15s %8.1f s  %d files read: %.1f us a file  max RSS %7.1f MiB' %
          ('fio-read', s, replay_files, s / replay_files * 1e6, rss / 1024))
EOF
