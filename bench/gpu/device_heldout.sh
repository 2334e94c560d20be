#!/usr/bin/env bash
# One run on a lent GPU machine (issue 18): the two held-out GPU programs of tests/pytorch/heldout_gpu/
# (prefetch_imagenet.py: apex/timm data_prefetcher on a side CUDA stream over CSV-listed images;
# lm_shards.py: a GPT over memmapped token shards with gradient accumulation), each once warm-up
# (uncaptured, short: cuDNN autotuning and kernel loading stay out of the capture) and once under
# `dlgen capture`. From the repo root, with .gpu/dlgen built here and carried (../shared/gpu/README.md)
# and $OUT set by the device tool:
#
#   bash bench/gpu/device_heldout.sh
#
# Leaves in $OUT:
#   prefetch_imagenet.h5 lm_shards.h5   the captures (gzipped when over 15 MB)
#   logs.tar.gz                         each program's ground-truth log (JSON lines:
#                                       NAME.{warmup,captured}.log), its stdout, the capture counts,
#                                       nvidia-smi samples every 200 ms during each run, host facts
#   summary.txt                         what ran, exit codes, wall times, the logs' totals
# Every step runs under `timeout`, and the script stops starting new steps once DEADLINE_S (default
# 330 s) is near.
#
# Knobs (environment), as bench/gpu/device_run.sh: DEVICE=cuda|cpu (cpu: tiny datasets and models, to
# check this script on a host without a GPU, e.g. DEVICE=cpu DLGEN=build/dlgen as root), DLGEN (default
# .gpu/dlgen), WORK (datasets and checkpoints, default /tmp/dlgen-heldout), DEADLINE_S, DLGEN_CUDA_LIB
# (default /usr/local/nvidia/lib64/libcuda.so.1, else ldconfig's), PYTHON (default python3; on a host
# where python3 is not the one with torch, e.g. PYTHON=/usr/bin/python3).
set -u
START=$(date +%s)
OUT=${OUT:-/tmp/dlgen-heldout-out}
DEVICE=${DEVICE:-cuda}
DLGEN=${DLGEN:-.gpu/dlgen}
WORK=${WORK:-/tmp/dlgen-heldout}
DEADLINE_S=${DEADLINE_S:-330}
LOGS=$OUT/logs
SUMMARY=$OUT/summary.txt
H=tests/pytorch/heldout_gpu
mkdir -p "$OUT" "$LOGS" "$WORK"
: >"$SUMMARY"
# The traced programs get the host's own libraries (the dlgen wrapper sets LD_LIBRARY_PATH for itself).
PYTHON=${PYTHON:-python3}
PY=(env -u LD_LIBRARY_PATH "$PYTHON")

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
# keeping 20 s for packing), stdout+stderr to logs/NAME.out; one summary line.
step() {
  local name=$1 limit=$2
  shift 2
  local budget=$(($(left) - 20))
  if [ "$budget" -lt 15 ]; then
    say "$(printf '%-26s skipped (%ss left of DEADLINE_S)' "$name" "$(left)")"
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
  say "$(printf '%-26s rc %-3s wall %7.2f s (limit %s s)' "$name" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" "$limit")"
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

say "device_heldout.sh: DEVICE=$DEVICE DLGEN=$DLGEN DLGEN_CUDA_LIB=${DLGEN_CUDA_LIB:-none} WORK=$WORK $(date -u +%FT%TZ)"

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
  say "$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -n 1)"
fi
grep -E '^(torch|torchvision)' "$LOGS/host.txt" | tee -a "$SUMMARY"

# --- Scale ----------------------------------------------------------------------------------------
# cuda: imagenet 2,000 + 200 images, resnet18 batch 64, 8 workers, 3 epochs (32 + 4 steps an epoch:
# an epoch is ~1-2 s of decoding on 8 workers, so 3 to last long enough), a checkpoint every 20 steps
# (4 of ~90 MB, the first 2 deleted); lm: the "gpu" GPT (8 layers, width 512, 51 M
# parameters with the 50,304 vocabulary), 16 windows of 1,024 tokens a micro-step, 4 micro-steps an
# optimizer step, 80 micro-steps an epoch, 2 epochs, an evaluation of 10 batches every 10 optimizer
# steps (4), ckpt.pt every 20 (2).
if [ "$DEVICE" = cpu ]; then
  DATA_ARGS=(--scale cpu --jobs 2)
  IMG_ARGS=(--device cpu --arch tiny -j 2 -b 16 --epochs 2 --image-size 32 --val-resize 40 --ckpt-every 4)
  IMG_WARM=(--epochs 1)
  LM_ARGS=(--device cpu --size tiny -j 2 -b 8 --block 64 --accum 4 --epochs 2 --samples-per-epoch 192
    --eval-every 5 --eval-iters 3 --ckpt-every 4)
  LM_WARM=(--epochs 1 --samples-per-epoch 64 --eval-every 2 --eval-iters 2 --ckpt-every 100)
else
  DATA_ARGS=(--scale gpu --jobs "$(nproc)")
  IMG_ARGS=(--device cuda --arch resnet18 -j 8 -b 64 --epochs 3 --ckpt-every 20)
  IMG_WARM=(--epochs 1)
  LM_ARGS=(--device cuda --size gpu -j 4 -b 16 --block 1024 --accum 4 --epochs 2 --samples-per-epoch 1280
    --eval-every 10 --eval-iters 10 --ckpt-every 20)
  LM_WARM=(--epochs 1 --samples-per-epoch 256 --eval-every 2 --eval-iters 2 --ckpt-every 100)
fi
IMG=$WORK/images
SHARDS=$WORK/shards
CKPT=$WORK/checkpoints

# --- Datasets -------------------------------------------------------------------------------------
rm -rf "$IMG" "$SHARDS" "$CKPT"
step datasets 90 "${PY[@]}" $H/make_data.py --images "$IMG" --shards "$SHARDS" "${DATA_ARGS[@]}"
tail -n 1 "$LOGS/datasets.out" | tee -a "$SUMMARY"

# --- Programs: a short warm-up each (the first CUDA process pays for autotuning and kernel loading),
# then each once captured (page cache warm) ------------------------------------------------------
img() { echo $H/prefetch_imagenet.py "$IMG" "${IMG_ARGS[@]}" --checkpoint-dir "$CKPT/img.$1" --log "$LOGS/prefetch_imagenet.$1.log"; }
lm() { echo $H/lm_shards.py "$SHARDS" "${LM_ARGS[@]}" --out "$CKPT/lm.$1" --log "$LOGS/lm_shards.$1.log"; }
# shellcheck disable=SC2046  # the helpers print plain words (paths under $WORK, $LOGS)
step prefetch_imagenet.warmup 80 "${PY[@]}" $(img warmup) "${IMG_WARM[@]}"
# shellcheck disable=SC2046
step lm_shards.warmup 60 "${PY[@]}" $(lm warmup) "${LM_WARM[@]}"
# shellcheck disable=SC2046
capture prefetch_imagenet 100 $(img captured)
# shellcheck disable=SC2046
capture lm_shards 100 $(lm captured)

# --- Summary from the programs' own logs and the capture counts ----------------------------------
"${PY[@]}" - "$LOGS" <<'EOF' 2>&1 | tee -a "$SUMMARY"
import glob, json, os, sys
logs = sys.argv[1]
for path in sorted(glob.glob(os.path.join(logs, "*.log"))):
    recs = [json.loads(l) for l in open(path) if l.strip()]
    s = next((r for r in recs if r["event"] == "summary"), None)
    if not s:
        print(f"{os.path.basename(path)}: no summary record"); continue
    f = lambda v: "-" if v is None else f"{v:.4f}"
    cpu = sorted(r["cpu_s"] for r in recs if r["event"] == "step" and r["phase"] == "train")
    extra = (f" accum {s['accum']} optimizer steps {s['optimizer_steps']} evals after {s['evals_after_optimizer_steps']}"
             f" params {s['params']}" if "accum" in s else
             f" ckpts {s['checkpoints']} removed {s['checkpoints_removed']} model {s['model_source']}")
    print(f"{os.path.basename(path)}: {s.get('gpu', s['device'])} steps {s['steps_per_epoch']} val {s['val_steps_per_pass']} "
          f"batch {s['batch_size']} workers {s['workers']} compute median {f(s['compute_median_s'])} s "
          f"cpu median {f(cpu[len(cpu) // 2] if cpu else None)} s "
          f"val {f(s['val_compute_median_s'])} s data wait median {f(s['data_wait_median_s'])} s "
          f"ckpt {s['checkpoint_bytes']} B wall {s['wall_s']:.2f} s" + extra)
for path in sorted(glob.glob(os.path.join(logs, "*.capture.json"))):
    try:
        c = json.load(open(path))
        print(f"{os.path.basename(path)}: events {c.get('events')} lost {c.get('lost_events')} "
              f"processes {c.get('processes')} files {c.get('files')} duration {c.get('duration_s')} s "
              f"exit {c.get('exit_status')}")
    except ValueError as e:
        print(f"{os.path.basename(path)}: {e}")
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
