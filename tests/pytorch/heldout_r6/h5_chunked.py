#!/usr/bin/env python3
"""One HDF5 file holding a train and a val split as chunked datasets, read one index at a
time by DataLoader workers (each opens the file lazily in its own process), persistent workers
with prefetch_factor 4, a validation pass every epoch, a checkpoint every epoch.
Each sample also carries the bytes its load read (/proc/self/io rchar around it): the ground
truth of the dataset bytes a trace should show.

    h5_chunked.py --make DIR             # writes DIR/data.h5
    h5_chunked.py --data DIR --ckpt CK   # trains; last stdout line is the ground truth as JSON
"""
import os
import sys

import h5py
import numpy as np
import torch
import torch.nn as nn
from ground_truth import Truth, counted, parse_args
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
    run = Truth()
    for ep in range(a.epochs):
        run.train_epoch(model, opt, loss_fn, tl)
        run.eval_pass(model, vl)
        run.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": ep},
                 os.path.join(a.ckpt, f"epoch{ep + 1}.pt"), after_epoch=ep + 1)
    size = int(np.prod(SHAPE)) * 4
    run.print("h5_chunked", files=1, file_bytes=os.path.getsize(path), train_samples=N_TRAIN,
              val_samples=N_VAL, sample_bytes=size, chunk_samples=CHUNK, chunk_bytes=CHUNK * size,
              payload_bytes_per_epoch=N_TRAIN * (size + 8), batch_size=a.batch,
              eval_batch_size=64, workers=2, prefetch_factor=4, persistent_workers=True,
              epochs=a.epochs)


def main():
    a = parse_args(epochs=2, batch=32)
    make(a.make) if a.make else train(a)


if __name__ == "__main__":
    sys.exit(main())
