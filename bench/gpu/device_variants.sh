#!/usr/bin/env bash
# Which job knob closes a same-host gap (issue 18): after bench/gpu/device_replay.sh, replays one
# program's distilled job again on the same host and storage with `--set` overrides, each under
# capture, and compares each replay with the original. The evidence for a distil rule is then the
# variant that passes, measured where the original ran, not argued from the committed traces.
#
#   OUT=<device_replay.sh's OUT> bash bench/gpu/device_variants.sh NAME 'KEY=V [KEY=V...]' ...
#
# e.g. bash bench/gpu/device_variants.sh imagenet 'reader.prefetch=2' 'compute.batch_overhead=0.0027s'
# Reads $OUT/NAME.h5 and the job from $OUT/logs.tar.gz (NAME.job.toml); replays in device_replay.sh's
# WORK/replay-NAME (its dataset is reused). Leaves $OUT/NAME.vI.replay.h5 for variant I and
# $OUT/variants-NAME.txt: per variant, the overrides, compare's verdict and its FAIL rows.
set -u
name=$1
shift
OUT=${OUT:-/tmp/dlgen-replay-out}
WORK=${WORK:-/tmp/dlgen-replay}
DLGEN=$(realpath "${DLGEN:-.gpu/dlgen}")
dir=$WORK/replay-$name
report=$OUT/variants-$name.txt
job=$WORK/$name.variants.job.toml
tar -xzf "$OUT/logs.tar.gz" -O "logs/$name.job.toml" >"$job" || {
  echo "device_variants.sh: no logs/$name.job.toml in $OUT/logs.tar.gz" | tee -a "$report"
  exit 1
}
mkdir -p "$dir"
i=0
for variant in "$@"; do
  i=$((i + 1))
  sets=()
  for kv in $variant; do sets+=(--set "$kv"); done
  replay=$OUT/$name.v$i.replay.h5
  (cd "$dir" && timeout -k 10 120 "$DLGEN" run "$job" -q "${sets[@]}" --capture "$replay") \
    >"$WORK/$name.v$i.run.out" 2>&1
  {
    echo "== $name v$i: $variant (run rc $?)"
    timeout -k 10 60 "$DLGEN" compare "$OUT/$name.h5" "$replay" 2>&1 |
      grep -E "FAIL|fidelity|^(epoch_time|duration|step_time|compute|au|throughput) "
  } | tee -a "$report"
done
