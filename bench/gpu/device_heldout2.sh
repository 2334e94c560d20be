#!/usr/bin/env bash
# One run on a lent GPU machine (issue 18, second round): the three held-out GPU programs of
# tests/pytorch/heldout_gpu2/ (hf_textcls.py: a Hugging Face Trainer-style text classifier over JSON
# lines read whole at start, tokenising collate, save_pretrained checkpoint directories;
# coco_detect.py: a torchvision-references-style detector, COCO annotations JSON, aspect-ratio-grouped
# batches of variable-size images, two checkpoint files an epoch; wds_shards.py: a WebDataset-style
# IterableDataset streaming tar shards split over workers, gradient checkpointing, AMP), each once
# warm-up (uncaptured, one epoch: cuDNN autotuning and kernel loading stay out of the capture) and
# once under `dlgen capture`. From the repo root, with .gpu/dlgen built here and carried
# (../shared/gpu/README.md) and $OUT set by the device tool:
#
#   bash bench/gpu/device_heldout2.sh
#
# Leaves in $OUT:
#   hf_textcls.h5 coco_detect.h5 wds_shards.h5   the captures (gzipped when over 15 MB)
#   logs.tar.gz     each program's ground-truth log (JSON lines: NAME.{warmup,captured}.log), its
#                   stdout, the capture counts, nvidia-smi samples every 200 ms during each run, host facts
#   summary.txt     what ran, exit codes, wall times, the logs' totals
# Every step runs under `timeout`, and the script stops starting new steps once DEADLINE_S (default
# 300 s) is near.
#
# Knobs (environment), as bench/gpu/device_heldout.sh: DEVICE=cuda|cpu (cpu: tiny datasets and models,
# to check this script on a host without a GPU, e.g. DEVICE=cpu DLGEN=build/dlgen as root), DLGEN
# (default .gpu/dlgen), WORK (datasets and checkpoints, default /tmp/dlgen-heldout2), DEADLINE_S,
# DLGEN_CUDA_LIB, PYTHON (default python3).
set -u
H=tests/pytorch/heldout_gpu2

NAME=heldout2
DEADLINE_DEFAULT=300
# shellcheck source=bench/gpu/device_lib.sh
source "$(dirname "$0")/device_lib.sh"

say "device_heldout2.sh: DEVICE=$DEVICE DLGEN=$DLGEN DLGEN_CUDA_LIB=${DLGEN_CUDA_LIB:-none} WORK=$WORK $(date -u +%FT%TZ)"

# --- Host facts ---------------------------------------------------------------------------------
host_facts

# --- Scale ----------------------------------------------------------------------------------------
# cuda (tests/pytorch/heldout_gpu2/README.md): text 4 x 4,000 records + 1,000, MiniLM-L6-H384 (22.7 M
# parameters) batch 32, bf16, 4 workers, 3 epochs of 500 steps (the H200 capture of 4 took 53 s), an evaluation (batch 64, 16 steps)
# every 250 steps, a checkpoint directory every 500 (~275 MB, 2 kept), the final model; coco 1,600 +
# 100 images of 400-640 px, resnet18 + FCOS-like head at 512 px, batch 8, 8 workers, AMP, 3 epochs of
# 187 steps, 2 x ~100 MB checkpoints an epoch, evaluation at batch 1; wds 32 + 2 tar shards of 256
# JPEGs, resnet18 at 160 px with gradient checkpointing and AMP, batch 128, 8 workers, 6 epochs of 64
# steps, a ~90 MB checkpoint an epoch and the float16 weights at the end.
if [ "$DEVICE" = cpu ]; then
  DATA_ARGS=(--scale cpu --jobs 2)
  HF_ARGS=(--device cpu --model tiny -b 8 --eval-batch-size 16 -j 2 --epochs 2 --eval-steps 10 --save-steps 12
    --logging-steps 5 --max-length 128)
  COCO_ARGS=(--device cpu --arch tiny -b 4 -j 2 --epochs 2 --min-size 96 --max-size 160)
  WDS_ARGS=(--device cpu --arch tiny -b 16 -j 2 --epochs 2 --image-size 48 --shuffle-buffer 20 --grad-ckpt)
else
  DATA_ARGS=(--scale gpu --jobs "$(nproc)")
  HF_ARGS=(--device cuda --model minilm -b 32 --eval-batch-size 64 -j 4 --epochs 3 --bf16 --eval-steps 250
    --save-steps 500 --save-total-limit 2 --logging-steps 50 --max-length 256)
  COCO_ARGS=(--device cuda --arch resnet18 -b 8 -j 8 --epochs 3 --min-size 512 --max-size 853 --amp)
  WDS_ARGS=(--device cuda --arch resnet18 -b 128 -j 8 --epochs 6 --image-size 160 --shuffle-buffer 1000
    --amp --grad-ckpt)
fi
# Warm-ups: one epoch, no checkpoint directories (hf) where a flag allows.
HF_WARM=(--epochs 1 --save-steps 100000)
COCO_WARM=(--epochs 1)
WDS_WARM=(--epochs 1)
TEXT=$WORK/text
COCO=$WORK/coco
WDS=$WORK/wds
CKPT=$WORK/checkpoints

# --- Datasets -------------------------------------------------------------------------------------
rm -rf "$TEXT" "$COCO" "$WDS" "$CKPT"
step datasets 90 "${PY[@]}" $H/make_data.py --text "$TEXT" --coco "$COCO" --wds "$WDS" "${DATA_ARGS[@]}"
tail -n 1 "$LOGS/datasets.out" | tee -a "$SUMMARY"

# --- Programs: a short warm-up each, then each once captured (page cache warm) -------------------
hf() { echo $H/hf_textcls.py "$TEXT" "${HF_ARGS[@]}" --output-dir "$CKPT/hf.$1" --log "$LOGS/hf_textcls.$1.log"; }
coco() { echo $H/coco_detect.py "$COCO" "${COCO_ARGS[@]}" --output-dir "$CKPT/coco.$1" --log "$LOGS/coco_detect.$1.log"; }
wds() { echo $H/wds_shards.py "$WDS" "${WDS_ARGS[@]}" --out "$CKPT/wds.$1" --log "$LOGS/wds_shards.$1.log"; }
# shellcheck disable=SC2046  # the helpers print plain words (paths under $WORK, $LOGS)
step hf_textcls.warmup 45 "${PY[@]}" $(hf warmup) "${HF_WARM[@]}"
# shellcheck disable=SC2046
step coco_detect.warmup 45 "${PY[@]}" $(coco warmup) "${COCO_WARM[@]}"
# shellcheck disable=SC2046
step wds_shards.warmup 45 "${PY[@]}" $(wds warmup) "${WDS_WARM[@]}"
# shellcheck disable=SC2046
capture hf_textcls 60 $(hf captured)
# shellcheck disable=SC2046
capture coco_detect 60 $(coco captured)
# shellcheck disable=SC2046
capture wds_shards 60 $(wds captured)

# --- Summary from the programs' own logs and the capture counts; pack ---------------------------
summarize
pack
