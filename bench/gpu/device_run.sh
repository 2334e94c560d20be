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
# Parts to run (1/0): the warm-up epochs, the uncaptured runs, step_times.py. A short device budget
# runs the captures alone: WARMUP=0 PLAIN=0 STEP_TIMES=0.
WARMUP=${WARMUP:-1}
PLAIN=${PLAIN:-1}
STEP_TIMES=${STEP_TIMES:-1}

NAME=gpu
DEADLINE_DEFAULT=450
# shellcheck source=bench/gpu/device_lib.sh
source "$(dirname "$0")/device_lib.sh"

say "device_run.sh: DEVICE=$DEVICE DLGEN=$DLGEN DLGEN_CUDA_LIB=${DLGEN_CUDA_LIB:-none} WORK=$WORK $(date -u +%FT%TZ)"

# --- Host facts ---------------------------------------------------------------------------------
host_facts

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

# --- Summary from the programs' own logs and the capture counts; pack ---------------------------
summarize
pack
