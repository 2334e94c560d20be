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
H=tests/pytorch/heldout_gpu

NAME=heldout
DEADLINE_DEFAULT=330
# shellcheck source=bench/gpu/device_lib.sh
source "$(dirname "$0")/device_lib.sh"

say "device_heldout.sh: DEVICE=$DEVICE DLGEN=$DLGEN DLGEN_CUDA_LIB=${DLGEN_CUDA_LIB:-none} WORK=$WORK $(date -u +%FT%TZ)"

# --- Host facts ---------------------------------------------------------------------------------
host_facts

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

# --- Summary from the programs' own logs and the capture counts; pack ---------------------------
summarize
pack
