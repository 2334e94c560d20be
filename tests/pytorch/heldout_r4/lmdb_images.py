#!/usr/bin/python3
"""Samples in one LMDB environment, opened read-only and lazily in each DataLoader worker
(held-out program, round 4).

  lmdb_images.py --make DIR             # DIR/train.lmdb/data.mdb: pickled (image bytes, label) values
  lmdb_images.py --data DIR/train.lmdb

The "ImageNet as LMDB" recipe (folder2lmdb, BasicSR, many detection and super-resolution repos):
every encoded image is one value of an LMDB database keyed by its index, plus a `__len__` key. The
Dataset opens the environment in the main process only to read `__len__` and closes it again; each
of 4 DataLoader workers opens its own read-only environment at its first sample (an LMDB
environment must not cross a fork) with lock=False, readahead=False, meminit=False, as such repos
do, and reads a sample with txn.get(key): LMDB maps data.mdb, so the reads are page faults on the
mapping, not read() calls. Batch 32, shuffle, drop_last, 2 epochs; no validation, no checkpoint. A
sleep per step stands in for the accelerator.

The last stdout line is JSON: the ground truth.
"""
import argparse
import json
import os
import pickle
import time

import lmdb
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def key(i):
    return f"{i:08d}".encode()


def make(root, n, lo, hi, seed):
    """n values of lo..hi bytes (uniform), written in key order in one transaction."""
    rng = np.random.default_rng(seed)
    path = os.path.join(root, "train.lmdb")
    os.makedirs(path, exist_ok=True)
    env = lmdb.open(path, map_size=1 << 30)
    sizes = []
    with env.begin(write=True) as txn:
        for i in range(n):
            img = rng.bytes(int(rng.integers(lo, hi + 1)))  # stands in for an encoded image
            value = pickle.dumps((img, i % 10), protocol=pickle.HIGHEST_PROTOCOL)
            sizes.append(len(value))
            txn.put(key(i), value)
        txn.put(b"__len__", pickle.dumps(n))
    env.sync()
    env.close()
    print(json.dumps({"values": n, "value_bytes_mean": float(np.mean(sizes)),
                      "data_mdb_bytes": os.path.getsize(os.path.join(path, "data.mdb"))}))


class LmdbDataset(Dataset):
    def __init__(self, path):
        self.path = path
        env = lmdb.open(path, readonly=True, lock=False, readahead=False, meminit=False)
        with env.begin() as txn:
            self.length = pickle.loads(txn.get(b"__len__"))
        env.close()
        self.env = None  # opened in each worker at its first sample

    def __len__(self):
        return self.length

    def __getitem__(self, i):
        if self.env is None:
            self.env = lmdb.open(self.path, readonly=True, lock=False, readahead=False, meminit=False)
        with self.env.begin(write=False) as txn:
            buf = txn.get(key(i))
        img, label = pickle.loads(buf)
        x = np.frombuffer(img, dtype=np.uint8, count=3 * 32 * 32).astype(np.float32) / 255.0
        return torch.from_numpy(x).view(3, 32, 32), label, len(buf)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make")
    p.add_argument("--data")
    p.add_argument("--values", type=int, default=1800)
    p.add_argument("--min-kib", type=int, default=40)
    p.add_argument("--max-kib", type=int, default=120)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--workers", type=int, default=4)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute-ms", type=float, default=20.0)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)  # the compute is a stand-in (a sleep); keep the host free for the loader
    if a.make:
        make(a.make, a.values, a.min_kib << 10, a.max_kib << 10, a.seed)
        return

    ds = LmdbDataset(a.data)
    loader = DataLoader(ds, batch_size=a.batch_size, shuffle=True, drop_last=True, num_workers=a.workers)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 32 * 32, 10))
    steps, samples, value_bytes = [], 0, 0
    t0 = time.monotonic()
    for epoch in range(a.epochs):
        n = 0
        for x, y, nbytes in loader:
            model(x).sum()
            time.sleep(a.compute_ms / 1000)
            n += 1
            samples += len(y)
            value_bytes += int(nbytes.sum())
        steps.append(n)
        print(f"epoch {epoch}: {n} steps", flush=True)
    wall = time.monotonic() - t0
    data_mdb = os.path.join(a.data, "data.mdb")
    print(json.dumps({
        "program": "lmdb_images", "files": 1, "data_mdb_bytes": os.path.getsize(data_mdb),
        "values": len(ds), "samples_per_epoch": len(ds) // a.batch_size * a.batch_size,
        "samples_read": samples, "value_bytes_read": value_bytes,
        "value_bytes_mean": value_bytes / max(samples, 1), "value_bytes_min": a.min_kib << 10,
        "value_bytes_max": (a.max_kib << 10) + 64, "batch_size": a.batch_size, "workers": a.workers,
        "drop_last": True, "shuffle": "sample", "epochs": a.epochs, "steps_per_epoch": steps,
        "access": "mmap page faults", "readahead": False, "evals": 0, "checkpoints": 0,
        "compute_s": a.compute_ms / 1000, "wall_s": wall}))


if __name__ == "__main__":
    main()
