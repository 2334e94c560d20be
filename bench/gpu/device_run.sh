#!/usr/bin/env bash
# One run on a lent GPU machine (issue 18): real GPU training programs, each once uncaptured and once
# under `dlgen capture`, and the accelerator's own step times. From the repo root, with .gpu/dlgen
# built here and carried (../shared/gpu/README.md) and $OUT set by the device tool:
#
#   bash bench/gpu/device_run.sh
#
# Leaves in $OUT (at most 8 files come back, 16 MB each):
#   imagenet.h5 imagenet_amp.h5 segmentation.h5   the captures (gzipped when over 15 MB)
#   step_times.json                               bench/gpu/step_times.py's table
#   logs.tar.gz                                   every program's ground-truth log (JSON lines:
#                                                 NAME.{warmup,plain,captured}.log), its stdout, the
#                                                 capture counts, nvidia-smi samples taken every
#                                                 200 ms during each run, host facts
#   summary.txt                                   what ran, exit codes, wall times, the logs' totals
# Every step runs under `timeout`, and the whole script stops starting new steps once DEADLINE_S
# (default 450 s) is near, so it ends inside 8 minutes even if something hangs.
#
# Knobs (environment): DEVICE=cuda|cpu (cpu: tiny datasets and models, to check this script on a host
# without a GPU), DLGEN (default .gpu/dlgen), WORK (datasets and checkpoints, default /tmp/dlgen-gpu),
# DEADLINE_S, DLGEN_CUDA_LIB (default /usr/local/nvidia/lib64/libcuda.so.1, else ldconfig's).
set -u
START=$(date +%s)
OUT=${OUT:-/tmp/dlgen-gpu-out}
DEVICE=${DEVICE:-cuda}
DLGEN=${DLGEN:-.gpu/dlgen}
WORK=${WORK:-/tmp/dlgen-gpu}
DEADLINE_S=${DEADLINE_S:-450}
# Parts to run (1/0): the warm-up epochs, the uncaptured runs, step_times.py. A short device budget
# runs the captures alone: WARMUP=0 PLAIN=0 STEP_TIMES=0.
WARMUP=${WARMUP:-1}
PLAIN=${PLAIN:-1}
STEP_TIMES=${STEP_TIMES:-1}
LOGS=$OUT/logs
SUMMARY=$OUT/summary.txt
mkdir -p "$OUT" "$LOGS" "$WORK"
: >"$SUMMARY"
# The traced programs get the host's own libraries (the dlgen wrapper sets LD_LIBRARY_PATH for itself).
PY=(env -u LD_LIBRARY_PATH python3)

if [ -z "${DLGEN_CUDA_LIB:-}" ]; then
  if [ -e /usr/local/nvidia/lib64/libcuda.so.1 ]; then
    DLGEN_CUDA_LIB=/usr/local/nvidia/lib64/libcuda.so.1
  else
    DLGEN_CUDA_LIB=$(ldconfig -p 2>/dev/null | awk '/libcuda\.so\.1 /{print $NF; exit}')
  fi
fi
export DLGEN_CUDA_LIB

say() { echo "$*" | tee -a "$SUMMARY"; }
left() { echo $((DEADLINE_S - ($(date +%s) - START))); }

# step NAME LIMIT_S CMD...: run CMD under timeout (LIMIT_S, cut to what is left before the deadline,
# keeping 25 s for packing), stdout+stderr to logs/NAME.out; one summary line.
step() {
  local name=$1 limit=$2
  shift 2
  local budget=$(($(left) - 25))
  if [ "$budget" -lt 15 ]; then
    say "$(printf '%-22s skipped (%ss left of DEADLINE_S)' "$name" "$(left)")"
    return 0
  fi
  [ "$limit" -gt "$budget" ] && limit=$budget
  local smi_pid=
  if [ "$DEVICE" != cpu ] && command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=timestamp,utilization.gpu,utilization.memory,memory.used,power.draw \
      --format=csv,nounits -lms 200 >"$LOGS/$name.smi.csv" 2>/dev/null &
    smi_pid=$!
  fi
  local t0 t1 rc
  t0=$(date +%s.%N)
  timeout -k 10 "$limit" "$@" >"$LOGS/$name.out" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  [ -n "$smi_pid" ] && kill "$smi_pid" 2>/dev/null && wait "$smi_pid" 2>/dev/null
  say "$(printf '%-22s rc %-3s wall %7.2f s (limit %s s)' "$name" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" "$limit")"
  [ "$rc" -ne 0 ] && tail -n 5 "$LOGS/$name.out" | sed 's/^/    | /' | tee -a "$SUMMARY"
  return 0
}

# capture NAME LIMIT_S PROGRAM ARGS...: the program under dlgen capture into $OUT/NAME.h5.
capture() {
  local name=$1 limit=$2
  shift 2
  step "$name.captured" "$limit" "$DLGEN" capture -o "$OUT/$name.h5" --json-out "$LOGS/$name.capture.json" \
    -- "${PY[@]}" "$@"
}

say "device_run.sh: DEVICE=$DEVICE DLGEN=$DLGEN DLGEN_CUDA_LIB=${DLGEN_CUDA_LIB:-none} WORK=$WORK $(date -u +%FT%TZ)"

# --- Host facts ---------------------------------------------------------------------------------
{
  uname -a; nproc; free -g; df -h /tmp
  "${PY[@]}" -c 'import sys, torch; print(sys.version); print("torch", torch.__version__, "cuda", torch.version.cuda,
"available", torch.cuda.is_available(), torch.cuda.get_device_name(0) if torch.cuda.is_available() else "")'
  "${PY[@]}" -c 'import torchvision; print("torchvision", torchvision.__version__)' 2>&1 | tail -n 1
  "${PY[@]}" -c 'import numpy, PIL; print("numpy", numpy.__version__, "PIL", PIL.__version__)'
  ls -l "$DLGEN" "$DLGEN_CUDA_LIB" 2>&1
} >"$LOGS/host.txt" 2>&1
if command -v nvidia-smi >/dev/null; then
  nvidia-smi >"$LOGS/nvidia-smi.txt" 2>&1
  nvidia-smi -q 2>&1 | head -n 80 >"$LOGS/nvidia-smi-q.txt"
  say "$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -n 1)"
fi
grep -E '^(torch|torchvision)' "$LOGS/host.txt" | tee -a "$SUMMARY"

# --- Scale ----------------------------------------------------------------------------------------
if [ "$DEVICE" = cpu ]; then
  DATA_ARGS=(--train 256 --val 32 --classes 4 --cases 10 --eval 2 --side 16)
  IMG_ARGS=(--device cpu -a tiny -j 2 -b 32 --epochs 2 --image-size 32 --val-resize 40)
  SEG_ARGS=(--device cpu -j 2 -b 2 --epochs 2 --patch 16 --filters 4,8)
  STEP_ARGS=(--smoke)
else
  DATA_ARGS=(--train 2048 --val 256 --classes 16 --cases 24 --eval 4 --side 128)
  IMG_ARGS=(--device cuda -a resnet50 -j 8 -b 64 --epochs 2)
  SEG_ARGS=(--device cuda -j 4 -b 2 --epochs 4 --patch 128)
  STEP_ARGS=(--device cuda --budget-s 130)
fi
IMG=$WORK/imagenet
KITS=$WORK/kits
CKPT=$WORK/checkpoints

# --- Datasets -------------------------------------------------------------------------------------
rm -rf "$IMG" "$KITS" "$CKPT"
step datasets 90 "${PY[@]}" tests/pytorch/make_gpu_datasets.py --imagenet "$IMG" --kits "$KITS" "${DATA_ARGS[@]}"
tail -n 1 "$LOGS/datasets.out" | tee -a "$SUMMARY"

# --- Programs: a warm-up, then each once uncaptured and once captured (page cache warm for all) ----
img() { echo tests/pytorch/gpu_imagenet.py "$IMG" "${IMG_ARGS[@]}" --checkpoint-dir "$CKPT/$1" --log "$LOGS/$1.$2.log" "${@:3}"; }
seg() { echo tests/pytorch/gpu_segmentation.py "$KITS" "${SEG_ARGS[@]}" --checkpoint "$CKPT/$1/unet3d.pt" --log "$LOGS/$1.$2.log"; }

# The first CUDA process on a fresh machine pays once for what later ones find cached (seen on an
# H200: the first training step took 13.3 s in the first process, 2.8 s in the next, cuDNN's
# autotuning and kernel loading): one epoch of each program first, so that the uncaptured and the
# captured run below start alike.
# shellcheck disable=SC2046  # the helpers print plain words (paths under $WORK, $LOGS)
if [ "$WARMUP" = 1 ]; then
  step imagenet.warmup 80 "${PY[@]}" $(img imagenet warmup --epochs 1)
  step segmentation.warmup 80 "${PY[@]}" $(seg segmentation warmup) --epochs 1
  step imagenet_amp.warmup 60 "${PY[@]}" $(img imagenet_amp warmup --amp --channels-last --epochs 1)
fi
[ "$PLAIN" = 1 ] && step imagenet.plain 100 "${PY[@]}" $(img imagenet plain)
capture imagenet 130 $(img imagenet captured)
[ "$PLAIN" = 1 ] && step segmentation.plain 100 "${PY[@]}" $(seg segmentation plain)
capture segmentation 130 $(seg segmentation captured)
[ "$STEP_TIMES" = 1 ] &&
  step step_times 200 "${PY[@]}" bench/gpu/step_times.py "${STEP_ARGS[@]}" --out "$OUT/step_times.json"
[ "$PLAIN" = 1 ] && step imagenet_amp.plain 100 "${PY[@]}" $(img imagenet_amp plain --amp --channels-last)
capture imagenet_amp 130 $(img imagenet_amp captured --amp --channels-last)

# --- Summary from the programs' own logs and the capture counts ----------------------------------
"${PY[@]}" - "$LOGS" "$OUT" <<'EOF' 2>&1 | tee -a "$SUMMARY"
import glob, json, os, sys
logs, out = sys.argv[1], sys.argv[2]
for path in sorted(glob.glob(os.path.join(logs, "*.log"))):
    recs = [json.loads(l) for l in open(path) if l.strip()]
    s = next((r for r in recs if r["event"] == "summary"), None)
    if not s:
        print(f"{os.path.basename(path)}: no summary record"); continue
    f = lambda v: "-" if v is None else f"{v:.4f}"
    print(f"{os.path.basename(path)}: {s.get('gpu', s['device'])} steps {s['steps_per_epoch']} val {s['val_steps_per_pass']} "
          f"batch {s['batch_size']} workers {s['workers']} compute median {f(s['compute_median_s'])} s "
          f"val {f(s['val_compute_median_s'])} s data wait median {f(s['data_wait_median_s'])} s "
          f"ckpt {s['checkpoint_bytes']} B wall {s['wall_s']:.2f} s")
for path in sorted(glob.glob(os.path.join(logs, "*.capture.json"))):
    try:
        c = json.load(open(path))
        print(f"{os.path.basename(path)}: events {c.get('events')} lost {c.get('lost_events')} "
              f"processes {c.get('processes')} files {c.get('files')} duration {c.get('duration_s')} s "
              f"exit {c.get('exit_status')}")
    except ValueError as e:
        print(f"{os.path.basename(path)}: {e}")
try:
    d = json.load(open(os.path.join(out, "step_times.json")))
    for c in d["cases"]:
        print(f"step_times {c['model']} batch {c['batch']} {c['precision']}: "
              + (f"{c['median_s']:.4f} s (min {c['min_s']:.4f}, p90 {c['p90_s']:.4f}) job {c.get('job_step_s', {})}"
                 if "median_s" in c else c.get("error", "?")))
except (OSError, ValueError) as e:
    print(f"step_times.json: {e}")
EOF

# --- Pack: traces over 15 MB gzipped (and left out if still too big), logs in one tarball ---------
for h5 in "$OUT"/*.h5; do
  [ -e "$h5" ] || continue
  size=$(stat -c %s "$h5")
  if [ "$size" -gt 15000000 ]; then
    gzip -1 "$h5"
    [ "$(stat -c %s "$h5.gz")" -gt 16000000 ] && mv "$h5.gz" "$WORK/" && say "$(basename "$h5"): $size B, too big to bring back (left in $WORK)"
  fi
done
ls -l "$OUT" | tee -a "$SUMMARY"
cp "$SUMMARY" "$LOGS/summary.txt"
tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$LOGS"
say "total $(($(date +%s) - START)) s"
