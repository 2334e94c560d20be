#!/usr/bin/env python3
"""One HDF5 file holding a train and a val split as chunked datasets, read one index at a
time by DataLoader workers (each opens the file lazily in its own process), persistent workers
with prefetch_factor 4, a validation pass every epoch, a checkpoint every epoch.

    h5_chunked.py --make DIR             # writes DIR/data.h5
    h5_chunked.py --data DIR --ckpt CK   # trains; last stdout line is the ground truth as JSON
"""
import argparse
import json
import os
import statistics
import sys
import time

import h5py
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

N_TRAIN, N_VAL, SHAPE, CHUNK = 512, 128, (3, 32, 32), 8


def make(d):
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(6)
    with h5py.File(os.path.join(d, "data.h5"), "w") as f:
        for split, n in (("train", N_TRAIN), ("val", N_VAL)):
            g = f.create_group(split)
            g.create_dataset("x", data=rng.standard_normal((n,) + SHAPE, dtype=np.float32),
                             chunks=(CHUNK,) + SHAPE)
            g.create_dataset("y", data=rng.integers(0, 10, n, dtype=np.int64), chunks=(64,))


class H5Split(Dataset):
    def __init__(self, path, split):
        self.path, self.split, self.f = path, split, None
        with h5py.File(path, "r") as f:
            self.n = f[split]["x"].shape[0]

    def __len__(self):
        return self.n

    def load(self, i):
        if self.f is None:  # one handle per worker process, opened after the fork
            self.f = h5py.File(self.path, "r")
        g = self.f[self.split]
        return g["x"][i], int(g["y"][i])

    def __getitem__(self, i):
        (x, y), nbytes = counted(lambda: self.load(i))
        return torch.from_numpy(x), y, nbytes


def net():
    return nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4),
                         nn.Flatten(), nn.Linear(512, 10))



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
    path = os.path.join(a.data, "data.h5")
    kw = dict(num_workers=2, persistent_workers=True, prefetch_factor=4)
    tl = DataLoader(H5Split(path, "train"), batch_size=a.batch, shuffle=True, **kw)
    vl = DataLoader(H5Split(path, "val"), batch_size=64, shuffle=False, **kw)
    model, loss_fn = net(), nn.CrossEntropyLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
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
        p = os.path.join(a.ckpt, f"epoch{ep + 1}.pt")
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": ep}, p)
        ckpts.append({"path": os.path.basename(p), "bytes": os.path.getsize(p), "after_epoch": ep + 1})
    sample = int(np.prod(SHAPE)) * 4 + 8
    print(json.dumps({
        "program": "h5_chunked", "files": 1, "file_bytes": os.path.getsize(path),
        "train_samples": N_TRAIN, "val_samples": N_VAL, "sample_bytes": int(np.prod(SHAPE)) * 4,
        "chunk_samples": CHUNK, "chunk_bytes": CHUNK * int(np.prod(SHAPE)) * 4,
        "payload_bytes_per_epoch": N_TRAIN * sample,
        "train_bytes_read_per_epoch": rc, "val_bytes_read_per_pass": vrc,
        "batch_size": a.batch, "eval_batch_size": 64, "workers": 2, "prefetch_factor": 4,
        "persistent_workers": True, "epochs": a.epochs, "steps_per_epoch": steps,
        "eval_steps_per_pass": eval_steps, "checkpoints": ckpts,
        "median_compute_s": statistics.median(computes)}))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make", metavar="DIR", help="write the dataset into DIR and exit")
    p.add_argument("--data", metavar="DIR")
    p.add_argument("--ckpt", default="ckpt")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch", type=int, default=32)
    a = p.parse_args()
    make(a.make) if a.make else train(a)


if __name__ == "__main__":
    sys.exit(main())
