"""A training loop over one memory-mapped .npy (np.load(mmap_mode="r")), read a row per sample in
DataLoader workers: its data reads are page faults, not syscalls (tests/analysis/distil_e2e_test).

usage: mmap_loader.py FILE.npy [--workers N] [--batch-size B] [--epochs E] [--compute-ms MS]
Prints one JSON line with the ground truth: samples, sample_bytes, file_bytes, batches per epoch.
"""
import argparse
import json
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class Rows(Dataset):
    def __init__(self, path):
        self.path = path
        self.rows = None  # mapped in each worker at its first sample
        self.n = np.load(path, mmap_mode="r").shape[0]

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if self.rows is None:
            self.rows = np.load(self.path, mmap_mode="r")
        return torch.from_numpy(np.array(self.rows[i]))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("path")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute-ms", type=float, default=5.0)
    a = p.parse_args()
    ds = Rows(a.path)
    batches = 0
    for _ in range(a.epochs):
        loader = DataLoader(ds, batch_size=a.batch_size, shuffle=True, num_workers=a.workers)
        for _ in loader:
            time.sleep(a.compute_ms / 1000)
            batches += 1
        del loader
    rows = np.load(a.path, mmap_mode="r")
    print(json.dumps({"samples": int(rows.shape[0]), "sample_bytes": int(rows[0].nbytes),
                      "file_bytes": int(rows.offset + rows.nbytes),
                      "batches_per_epoch": batches // a.epochs}))


if __name__ == "__main__":
    main()
