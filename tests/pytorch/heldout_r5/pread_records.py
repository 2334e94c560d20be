#!/usr/bin/python3
"""Fixed-size records in one packed binary file, read with os.pread at random offsets; early
stopping on the validation loss, the best model saved atomically (held-out program, round 5).

  pread_records.py --make DIR           # DIR/train.bin, DIR/val.bin: a 64-byte header, then records
  pread_records.py --data DIR --out OUT

The packed-array recipe (CIFAR/SVHN-style binary batches, ImageNet-32/64 "npz unpacked to .bin",
FFCV-like fixed records without the library): one file holds every image as a fixed-size record
(a uint16 label then 3x40x40 uint8 pixels: 4,802 bytes, so records do not fall on page
boundaries) after a 64-byte header that gives the record count and shape. The main process reads
the header; each DataLoader worker opens its own descriptor at its first sample (os.open,
O_RDONLY) and reads one record per sample with os.pread at header + i * 4,802. Training: 2,000
records (train.bin, 9.2 MiB), batch 64, shuffle, 2 workers: 32 steps an epoch (the last 16).
Validation: 400 records (val.bin), batch 200, in order, after every epoch. Early stopping: the
run ends when the validation loss has not improved for 2 epochs (at most 10); on each
improvement the model (with its optimizer state) is written with torch.save to OUT/best.pt.tmp
and renamed over OUT/best.pt with os.replace, so a crash never leaves a torn checkpoint.
Sleeps per step stand in for the accelerator.

The last stdout line is JSON: the ground truth.
"""
import argparse
import json
import os
import struct
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

SIDE = 40
RECORD = 2 + 3 * SIDE * SIDE
HEADER = 64
MAGIC = b"PKREC001"


def write_file(path, n, rng, noise):
    """Records whose label is a coarse function of the image (learnable), with `noise` of the
    labels drawn at random so the validation loss turns upward after a few epochs."""
    with open(path, "wb") as f:
        f.write(struct.pack("<8sIIII", MAGIC, n, 3, SIDE, SIDE).ljust(HEADER, b"\0"))
        for _ in range(n):
            label = int(rng.integers(0, 10))
            base = rng.integers(0, 256, (3, SIDE, SIDE), dtype=np.int16)
            base[label % 3] = np.clip(base[label % 3] // 2 + 20 * label, 0, 255)
            if rng.random() < noise:
                label = int(rng.integers(0, 10))
            f.write(struct.pack("<H", label) + base.astype(np.uint8).tobytes())


def make(root, n_train, n_val, seed):
    os.makedirs(root, exist_ok=True)
    rng = np.random.default_rng(seed)
    write_file(os.path.join(root, "train.bin"), n_train, rng, 0.3)
    write_file(os.path.join(root, "val.bin"), n_val, rng, 0.3)


class PackedRecords(Dataset):
    def __init__(self, path):
        self.path = path
        with open(path, "rb") as f:
            magic, n, c, h, w = struct.unpack("<8sIIII", f.read(24))
        if magic != MAGIC or (c, h, w) != (3, SIDE, SIDE):
            raise SystemExit(f"pread_records.py: {path}: not a packed record file")
        self.n = n
        self.fd = None  # opened in the worker that reads: a descriptor must not cross fork

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if self.fd is None:
            self.fd = os.open(self.path, os.O_RDONLY)
        rec = os.pread(self.fd, RECORD, HEADER + i * RECORD)
        label = struct.unpack_from("<H", rec)[0]
        x = np.frombuffer(rec, dtype=np.uint8, offset=2).reshape(3, SIDE, SIDE)
        return torch.from_numpy(x.astype(np.float32) / 255.0), label


def save_atomic(obj, path):
    tmp = path + ".tmp"
    torch.save(obj, tmp)
    os.replace(tmp, path)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make")
    p.add_argument("--data")
    p.add_argument("--out")
    p.add_argument("--train-records", type=int, default=2000)
    p.add_argument("--val-records", type=int, default=400)
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--val-batch-size", type=int, default=200)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--max-epochs", type=int, default=10)
    p.add_argument("--patience", type=int, default=2)
    p.add_argument("--compute-ms", type=float, default=15.0)
    p.add_argument("--eval-ms", type=float, default=10.0)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)  # the compute is a stand-in (a sleep); keep the host free for the loader
    if a.make:
        make(a.make, a.train_records, a.val_records, a.seed)
        return

    os.makedirs(a.out, exist_ok=True)
    train_set = PackedRecords(os.path.join(a.data, "train.bin"))
    val_set = PackedRecords(os.path.join(a.data, "val.bin"))
    train = DataLoader(train_set, batch_size=a.batch_size, shuffle=True, num_workers=a.workers,
                       generator=torch.Generator().manual_seed(a.seed))
    val = DataLoader(val_set, batch_size=a.val_batch_size, shuffle=False, num_workers=a.workers)
    torch.manual_seed(a.seed)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * SIDE * SIDE, 32),
                                torch.nn.ReLU(), torch.nn.Linear(32, 10))
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    best = os.path.join(a.out, "best.pt")
    steps, eval_steps, losses, saved_after = [], [], [], []
    best_loss, bad = float("inf"), 0
    t0 = time.monotonic()
    for epoch in range(a.max_epochs):
        model.train()
        n = 0
        for x, y in train:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(a.compute_ms / 1000)
            n += 1
        steps.append(n)
        model.eval()
        m, total = 0, 0.0
        with torch.no_grad():
            for x, y in val:
                total += float(torch.nn.functional.cross_entropy(model(x), y, reduction="sum"))
                time.sleep(a.eval_ms / 1000)
                m += 1
        eval_steps.append(m)
        val_loss = total / len(val_set)
        losses.append(round(val_loss, 4))
        if val_loss < best_loss:
            best_loss, bad = val_loss, 0
            save_atomic({"epoch": epoch, "model": model.state_dict(), "optimizer": opt.state_dict()}, best)
            saved_after.append(epoch)
        else:
            bad += 1
        print(f"epoch {epoch}: {n} steps, validation {m} steps, loss {val_loss:.4f}"
              f"{' (saved)' if bad == 0 else ''}", flush=True)
        if bad >= a.patience:
            break
    wall = time.monotonic() - t0
    print(json.dumps({
        "program": "pread_records", "files": 1, "reader": "os.pread", "record_bytes": RECORD,
        "header_bytes": HEADER, "records": len(train_set), "file_bytes": os.path.getsize(train_set.path),
        "val_files": 1, "val_records": len(val_set), "val_file_bytes": os.path.getsize(val_set.path),
        "batch_size": a.batch_size, "eval_batch_size": a.val_batch_size, "workers": a.workers,
        "shuffle": "sample", "drop_last": False, "epochs": len(steps), "max_epochs": a.max_epochs,
        "stopped_early": len(steps) < a.max_epochs, "val_losses": losses, "steps_per_epoch": steps,
        "evals": len(eval_steps), "eval_steps_per_pass": eval_steps, "eval_every_epochs": 1,
        "checkpoints": len(saved_after), "checkpoint_after_epochs": saved_after,
        "checkpoint_bytes": os.path.getsize(best), "checkpoint_write": "tmp+os.replace",
        "compute_s": a.compute_ms / 1000, "eval_compute_s": a.eval_ms / 1000, "wall_s": wall}))


if __name__ == "__main__":
    main()
