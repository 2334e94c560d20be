#!/usr/bin/python3
"""One HDF5 file holding several datasets (images and labels), read a sample at a time by
DataLoader workers through h5py (held-out program).

  h5_pairs.py --make DIR                # DIR/train.h5: "images" N x 64 x 64 x 3 uint8, "labels" N int64
  h5_pairs.py --data DIR/train.h5

The usual h5py Dataset: the length is read in the main process, each worker opens its own
h5py.File at its first sample (an HDF5 handle must not cross fork) and reads f["images"][i] and
f["labels"][i] for each sample: one sample is a row of two datasets. Contiguous layout (h5py's
default). 2 workers, batch 32, shuffle, 2 epochs. A sleep per step stands in for the accelerator.

The last stdout line is JSON: the ground truth.
"""
import argparse
import json
import os
import time

import h5py
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

SIDE = 64


def make(root, n, seed):
    os.makedirs(root, exist_ok=True)
    rng = np.random.default_rng(seed)
    with h5py.File(os.path.join(root, "train.h5"), "w") as f:
        f.create_dataset("images", data=rng.integers(0, 256, (n, SIDE, SIDE, 3), dtype=np.uint8))
        f.create_dataset("labels", data=rng.integers(0, 10, n, dtype=np.int64))


class H5Pairs(Dataset):
    def __init__(self, path):
        self.path = path
        with h5py.File(path, "r") as f:
            self.n = len(f["labels"])
        self.f = None

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if self.f is None:
            self.f = h5py.File(self.path, "r")
        x = torch.from_numpy(self.f["images"][i].astype(np.float32) / 255.0).permute(2, 0, 1)
        y = int(self.f["labels"][i])
        return x, y


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make")
    p.add_argument("--data")
    p.add_argument("--samples", type=int, default=2000)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute-ms", type=float, default=25.0)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)  # the compute is a stand-in (a sleep); keep the host free for the loader
    if a.make:
        make(a.make, a.samples, a.seed)
        return

    ds = H5Pairs(a.data)
    loader = DataLoader(ds, batch_size=a.batch_size, shuffle=True, num_workers=a.workers)
    steps = []
    t0 = time.monotonic()
    for epoch in range(a.epochs):
        n = 0
        for x, y in loader:
            x.mean()
            time.sleep(a.compute_ms / 1000)
            n += 1
        steps.append(n)
        print(f"epoch {epoch}: {n} steps", flush=True)
    wall = time.monotonic() - t0
    print(json.dumps({
        "program": "h5_pairs", "files": 1, "file_bytes": os.path.getsize(a.data), "samples": len(ds),
        "datasets_per_sample": 2, "image_bytes": SIDE * SIDE * 3, "label_bytes": 8,
        "batch_size": a.batch_size, "workers": a.workers, "epochs": a.epochs, "steps_per_epoch": steps,
        "shuffle": "sample", "compute_s": a.compute_ms / 1000, "wall_s": wall}))


if __name__ == "__main__":
    main()
