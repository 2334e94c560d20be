#!/usr/bin/env python3
"""Fixed-size binary records (an int32 label and 749 float32 features: 3,000 bytes) in a few
shard files, read with os.pread by index from 3 DataLoader workers (each opens its own fds).
A custom batch_sampler hands out runs of consecutive records of one shard (cache-friendly
"block shuffle": the blocks are shuffled every epoch, records inside a block stay in order).
Validation on a separate file every epoch; a checkpoint per epoch, each in a new file.
Each sample also carries the bytes its load read (/proc/self/io rchar around it): the ground
truth of the dataset bytes a trace should show.

    block_records.py --make DIR             # writes DIR/train-0000.bin ... and DIR/val.bin
    block_records.py --data DIR --ckpt CK   # trains; last stdout line is the ground truth as JSON
"""
import os
import random
import sys

import numpy as np
import torch
import torch.nn as nn
from ground_truth import Truth, counted, parse_args
from torch.utils.data import DataLoader, Dataset, Sampler

REC, FEAT = 3000, 749
SHARDS, PER_SHARD, N_VAL = 4, 160, 120


def make(d):
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(8)
    names = [f"train-{s:04d}.bin" for s in range(SHARDS)] + ["val.bin"]
    for name in names:
        n = N_VAL if name == "val.bin" else PER_SHARD
        rec = np.zeros(n, dtype=[("y", "<i4"), ("x", "<f4", FEAT)])
        rec["y"] = rng.integers(0, 10, n)
        rec["x"] = rng.standard_normal((n, FEAT), dtype=np.float32)
        rec.tofile(os.path.join(d, name))


class Records(Dataset):
    """Record i of the concatenated files; fds opened lazily in each worker."""

    def __init__(self, paths):
        self.paths = paths
        self.counts = [os.path.getsize(p) // REC for p in paths]
        self.starts = np.cumsum([0] + self.counts)
        self.fds, self.pid = None, None

    def __len__(self):
        return int(self.starts[-1])

    def __getitem__(self, i):
        if self.pid != os.getpid():
            self.fds, self.pid = [os.open(p, os.O_RDONLY) for p in self.paths], os.getpid()
        f = int(np.searchsorted(self.starts, i, side="right")) - 1
        b, nbytes = counted(lambda: os.pread(self.fds[f], REC, (i - int(self.starts[f])) * REC))
        y = int.from_bytes(b[:4], "little")
        return torch.frombuffer(bytearray(b[4:]), dtype=torch.float32), y, nbytes


class BlockBatchSampler(Sampler):
    """Batches of `batch` consecutive records of one file, the blocks in a new random order each
    epoch."""

    def __init__(self, ds, batch, shuffle, seed=0):
        self.blocks = [list(range(int(s), int(s) + c))[k:k + batch]
                       for s, c in zip(ds.starts[:-1], ds.counts) for k in range(0, c, batch)]
        self.shuffle, self.rng = shuffle, random.Random(seed)

    def __iter__(self):
        order = list(range(len(self.blocks)))
        if self.shuffle:
            self.rng.shuffle(order)
        return iter([self.blocks[i] for i in order])

    def __len__(self):
        return len(self.blocks)



def train(a):
    torch.manual_seed(0)
    torch.set_num_threads(1)
    shards = [os.path.join(a.data, f"train-{s:04d}.bin") for s in range(SHARDS)]
    tds, vds = Records(shards), Records([os.path.join(a.data, "val.bin")])
    tl = DataLoader(tds, batch_sampler=BlockBatchSampler(tds, a.batch, True), num_workers=3)
    vl = DataLoader(vds, batch_sampler=BlockBatchSampler(vds, 48, False), num_workers=3)
    model = nn.Sequential(nn.Linear(FEAT, 384), nn.ReLU(), nn.Linear(384, 10))
    loss_fn, opt = nn.CrossEntropyLoss(), torch.optim.SGD(model.parameters(), lr=0.05)
    os.makedirs(a.ckpt, exist_ok=True)
    run = Truth()
    for ep in range(a.epochs):
        run.train_epoch(model, opt, loss_fn, tl)
        run.eval_pass(model, vl)
        run.save({"model": model.state_dict(), "epoch": ep + 1},
                 os.path.join(a.ckpt, f"ckpt_e{ep + 1:02d}.pt"), after_epoch=ep + 1)
    run.print("block_records", files=SHARDS, val_files=1, record_bytes=REC,
              file_bytes=os.path.getsize(shards[0]), train_records=len(tds),
              val_records=len(vds), val_file_bytes=len(vds) * REC,
              payload_bytes_per_epoch=len(tds) * REC, reads_per_epoch=len(tds),
              batch_size=a.batch, eval_batch_size=48, workers=3, epochs=a.epochs)


def main():
    a = parse_args(epochs=3, batch=40)
    make(a.make) if a.make else train(a)


if __name__ == "__main__":
    sys.exit(main())
