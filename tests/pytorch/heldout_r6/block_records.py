#!/usr/bin/env python3
"""Fixed-size binary records (an int32 label and 749 float32 features: 3,000 bytes) in a few
shard files, read with os.pread by index from 3 DataLoader workers (each opens its own fds).
A custom batch_sampler hands out runs of consecutive records of one shard (cache-friendly
"block shuffle": the blocks are shuffled every epoch, records inside a block stay in order).
Validation on a separate file every epoch; a checkpoint per epoch, each in a new file.

    block_records.py --make DIR             # writes DIR/train-0000.bin ... and DIR/val.bin
    block_records.py --data DIR --ckpt CK   # trains; last stdout line is the ground truth as JSON
"""
import argparse
import json
import os
import random
import statistics
import sys
import time

import numpy as np
import torch
import torch.nn as nn
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
    """Batches of `batch` consecutive records of one file, in a new random block order each epoch."""

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


def rchar():
    """This process's bytes from read-type system calls so far, and the length of the read that
    asked (it counts too)."""
    with open("/proc/self/io", "rb") as f:
        s = f.read()
    return int(s.split(b"rchar: ")[1].split(b"\n")[0]), len(s)


def counted(load):
    """load()'s result and the bytes its system calls read: the dataset's bytes as the worker read
    them (ground truth for what a trace should show)."""
    before, asked = rchar()
    out = load()
    return out, rchar()[0] - before - asked


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
    computes, steps, eval_steps, ckpts, rc, vrc = [], [], [], [], [], []
    for ep in range(a.epochs):
        model.train()
        n = 0
        rc.append(0)
        for x, y, nb in tl:
            rc[-1] += int(nb.sum())
            t = time.perf_counter()
            opt.zero_grad()
            loss_fn(model(x), y).backward()
            opt.step()
            computes.append(time.perf_counter() - t)
            n += 1
        steps.append(n)
        model.eval()
        n = 0
        with torch.no_grad():
            vrc.append(0)
            for x, y, nb in vl:
                vrc[-1] += int(nb.sum())
                model(x)
                n += 1
        eval_steps.append(n)
        p = os.path.join(a.ckpt, f"ckpt_e{ep + 1:02d}.pt")
        torch.save({"model": model.state_dict(), "epoch": ep + 1}, p)
        ckpts.append({"path": os.path.basename(p), "bytes": os.path.getsize(p), "after_epoch": ep + 1})
    print(json.dumps({
        "program": "block_records", "files": SHARDS, "val_files": 1, "record_bytes": REC,
        "file_bytes": os.path.getsize(shards[0]), "train_records": len(tds),
        "val_records": len(vds), "val_file_bytes": len(vds) * REC,
        "payload_bytes_per_epoch": len(tds) * REC, "reads_per_epoch": len(tds),
        "train_bytes_read_per_epoch": rc, "val_bytes_read_per_pass": vrc, "batch_size": a.batch, "eval_batch_size": 48, "workers": 3, "epochs": a.epochs,
        "steps_per_epoch": steps, "eval_steps_per_pass": eval_steps, "checkpoints": ckpts,
        "median_compute_s": statistics.median(computes)}))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make", metavar="DIR", help="write the dataset into DIR and exit")
    p.add_argument("--data", metavar="DIR")
    p.add_argument("--ckpt", default="ckpt")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch", type=int, default=40)
    a = p.parse_args()
    make(a.make) if a.make else train(a)


if __name__ == "__main__":
    sys.exit(main())
