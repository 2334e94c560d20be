#!/usr/bin/env bash
# The whole loop on a lent GPU host (issue 18): each real GPU program is captured (after a warm-up
# run), distilled, replayed on the SAME host without touching the GPU (`dlgen run --capture`), and
# the replay compared with the original: the storage is the same on both sides, so every row,
# checkpoint write time included, should hold. From the repo root, `.gpu/dlgen` packed and carried
# (../shared/gpu/README.md), $OUT set by the device tool:
#
#   bash bench/gpu/device_replay.sh
#
# Leaves in $OUT: NAME.h5 (the original), NAME.replay.h5, logs.tar.gz (the programs' logs, each
# NAME.job.toml, NAME.compare.json and .txt, capture counts), summary.txt. Programs:
# gpu_imagenet (resnet50, 8 workers, batch 64, 2 epochs, pin memory), gpu_segmentation (3D U-Net,
# image + label pairs, validation by list), and heldout_gpu/lm_shards captured again after its
# shards were dropped from the page cache (NAME lm_cold: np.memmap pages read from the disk).
# Knobs: DEVICE=cuda|cpu (cpu: tiny, to check the script here), DLGEN, WORK, DEADLINE_S (default
# 480), DLGEN_CUDA_LIB, PYTHON; PROGRAMS (default "imagenet segmentation lm_cold"); REPEAT=1 captures
# each program a second time (NAME.b.h5) and compares with `--original-repeat NAME.b.h5`, so each
# timing tolerance widens to the originals' own spread where that is larger (compare's report
# says which).
set -u
T=tests/pytorch
H=tests/pytorch/heldout_gpu
NAME=replay
DEADLINE_DEFAULT=480
# shellcheck source=bench/gpu/device_lib.sh
source "$(dirname "$0")/device_lib.sh"
DLGEN=$(realpath "$DLGEN")

say "device_replay.sh: DEVICE=$DEVICE DLGEN=$DLGEN DLGEN_CUDA_LIB=${DLGEN_CUDA_LIB:-none} WORK=$WORK $(date -u +%FT%TZ)"
host_facts

if [ "$DEVICE" = cpu ]; then
  DATA_ARGS=(--train 256 --val 32 --classes 4 --cases 10 --eval 2 --side 16)
  IMG_ARGS=(--device cpu -a tiny -j 2 -b 32 --epochs 2 --image-size 32 --val-resize 40)
  SEG_ARGS=(--device cpu -j 2 -b 2 --epochs 2 --patch 16 --filters 4,8)
  LM_DATA=(--scale cpu --jobs 2)
  LM_ARGS=(--device cpu --size tiny -j 2 -b 8 --block 64 --accum 4 --epochs 2 --samples-per-epoch 192
    --eval-every 5 --eval-iters 3 --ckpt-every 4)
else
  DATA_ARGS=(--train 2048 --val 256 --classes 16 --cases 24 --eval 4 --side 128)
  IMG_ARGS=(--device cuda -a resnet50 -j 8 -b 64 --epochs 2)
  SEG_ARGS=(--device cuda -j 4 -b 2 --epochs 4 --patch 128)
  LM_DATA=(--scale gpu --jobs "$(nproc)")
  LM_ARGS=(--device cuda --size gpu -j 4 -b 16 --block 1024 --accum 4 --epochs 2 --samples-per-epoch 1280
    --eval-every 10 --eval-iters 10 --ckpt-every 20)
fi
IMG=$WORK/imagenet
KITS=$WORK/kits
SHARDS=$WORK/shards
CKPT=$WORK/checkpoints
rm -rf "$IMG" "$KITS" "$SHARDS" "$CKPT"
step datasets 90 "${PY[@]}" $T/make_gpu_datasets.py --imagenet "$IMG" --kits "$KITS" "${DATA_ARGS[@]}"
step lm_data 60 "${PY[@]}" $H/make_data.py --shards "$SHARDS" "${LM_DATA[@]}"

img() { echo $T/gpu_imagenet.py "$IMG" "${IMG_ARGS[@]}" --checkpoint-dir "$CKPT/img.$1" --log "$LOGS/imagenet.$1.log"; }
seg() { echo $T/gpu_segmentation.py "$KITS" "${SEG_ARGS[@]}" --checkpoint "$CKPT/seg.$1/unet3d.pt" --log "$LOGS/segmentation.$1.log"; }
lm() { echo $H/lm_shards.py "$SHARDS" "${LM_ARGS[@]}" --out "$CKPT/lm.$1" --log "$LOGS/lm_cold.$1.log"; }

# replay NAME: distil the capture, run the job on this host under capture, compare (text + JSON).
replay() {
  local name=$1 dir=$WORK/replay-$1
  [ -e "$OUT/$name.h5" ] || { say "$name: no capture to replay"; return 0; }
  mkdir -p "$dir"
  step "$name.distil" 30 "$DLGEN" distil "$OUT/$name.h5" -o "$LOGS/$name.job.toml"
  step "$name.replay" 120 bash -c "cd '$dir' && '$DLGEN' run '$LOGS/$name.job.toml' -q --capture '$OUT/$name.replay.h5'"
  local repeat=()
  [ -e "$OUT/$name.b.h5" ] && repeat=(--original-repeat "$OUT/$name.b.h5")
  step "$name.compare" 30 "$DLGEN" compare "$OUT/$name.h5" "$OUT/$name.replay.h5" "${repeat[@]}" \
    --json-out "$LOGS/$name.compare.json"
  cp "$LOGS/$name.compare.out" "$LOGS/$name.compare.txt" 2>/dev/null
  grep -E "FAIL|fidelity" "$LOGS/$name.compare.out" 2>/dev/null | sed "s/^/    $name | /" | tee -a "$SUMMARY"
}

PROGRAMS=${PROGRAMS:-imagenet segmentation lm_cold}
REPEAT=${REPEAT:-0}
wants() { [[ " $PROGRAMS " == *" $1 "* ]]; }
# shellcheck disable=SC2046  # the helpers print plain words (paths under $WORK, $LOGS)
wants imagenet && step imagenet.warmup 80 "${PY[@]}" $(img warmup) --epochs 1
# shellcheck disable=SC2046
wants segmentation && step segmentation.warmup 80 "${PY[@]}" $(seg warmup) --epochs 1
if wants imagenet; then
  # shellcheck disable=SC2046
  capture imagenet 100 $(img captured)
  # shellcheck disable=SC2046
  [ "$REPEAT" = 1 ] && capture imagenet.b 100 $(img again)
  replay imagenet
fi
if wants segmentation; then
  # shellcheck disable=SC2046
  capture segmentation 100 $(seg captured)
  # shellcheck disable=SC2046
  [ "$REPEAT" = 1 ] && capture segmentation.b 100 $(seg again)
  replay segmentation
fi
wants lm_cold || { summarize; pack; exit 0; }
# The shards out of the page cache (written just now, they sit in 2 MiB folios whose faults have no
# tracepoint): the capture then sees the np.memmap reads as a cold run does.
"${PY[@]}" -c 'import os, sys
for root, _, files in os.walk(sys.argv[1]):
    for f in files:
        fd = os.open(os.path.join(root, f), os.O_RDONLY); os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED); os.close(fd)' "$SHARDS"
# shellcheck disable=SC2046
capture lm_cold 100 $(lm captured)
replay lm_cold

summarize
pack
