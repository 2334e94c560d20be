#!/usr/bin/python3
"""A ConcatDataset of two folders of different file sizes, balanced by a WeightedRandomSampler
(held-out program).

  weighted_concat.py --make DIR         # DIR/common/*.bin (many small files), DIR/rare/*.bin (few large)
  weighted_concat.py --data DIR

The class-imbalance recipe: two sources concatenated (torch.utils.data.ConcatDataset), each sample
weighted by 1 / (its source's size) so that a batch draws both sources equally, with replacement
(WeightedRandomSampler, num_samples = the whole set): the few large "rare" files are read about 4
times an epoch, most "common" files once or not at all. Each sample is open().read() of one file.
2 workers, batch 16, 2 epochs. A sleep per step stands in for the accelerator.

The last stdout line is JSON: the ground truth.
"""
import argparse
import json
import os
import time

import numpy as np
import torch
from torch.utils.data import ConcatDataset, DataLoader, Dataset, WeightedRandomSampler


def make(root, common, rare, seed):
    rng = np.random.default_rng(seed)
    for name, n, lo, hi in (("common", common, 4 << 10, 12 << 10), ("rare", rare, 96 << 10, 160 << 10)):
        os.makedirs(os.path.join(root, name), exist_ok=True)
        for i in range(n):
            with open(os.path.join(root, name, f"{name}_{i:05d}.bin"), "wb") as f:
                f.write(rng.bytes(int(rng.integers(lo, hi))))


class Folder(Dataset):
    def __init__(self, root, label):
        self.files = sorted(os.path.join(root, f) for f in os.listdir(root))
        self.label = label

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        with open(self.files[i], "rb") as f:
            b = f.read()
        return torch.frombuffer(bytearray(b[:1024]), dtype=torch.uint8).float(), self.label


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make")
    p.add_argument("--data")
    p.add_argument("--common", type=int, default=480)
    p.add_argument("--rare", type=int, default=120)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute-ms", type=float, default=25.0)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)  # the compute is a stand-in (a sleep); keep the host free for the loader
    if a.make:
        make(a.make, a.common, a.rare, a.seed)
        return

    common, rare = Folder(os.path.join(a.data, "common"), 0), Folder(os.path.join(a.data, "rare"), 1)
    ds = ConcatDataset([common, rare])
    weights = [1.0 / len(common)] * len(common) + [1.0 / len(rare)] * len(rare)
    g = torch.Generator().manual_seed(a.seed)
    sampler = WeightedRandomSampler(weights, num_samples=len(ds), replacement=True, generator=g)
    loader = DataLoader(ds, batch_size=a.batch_size, sampler=sampler, num_workers=a.workers)
    steps, drawn = [], {"common": 0, "rare": 0}
    t0 = time.monotonic()
    for epoch in range(a.epochs):
        n = 0
        for x, y in loader:
            drawn["rare"] += int(y.sum())
            drawn["common"] += int(len(y) - y.sum())
            time.sleep(a.compute_ms / 1000)
            n += 1
        steps.append(n)
        print(f"epoch {epoch}: {n} steps", flush=True)
    wall = time.monotonic() - t0
    sizes = {k: [os.path.getsize(f) for f in d.files] for k, d in (("common", common), ("rare", rare))}
    print(json.dumps({
        "program": "weighted_concat", "files": len(ds), "common_files": len(common), "rare_files": len(rare),
        "common_bytes_mean": float(np.mean(sizes["common"])), "rare_bytes_mean": float(np.mean(sizes["rare"])),
        "samples_per_epoch": len(ds), "replacement": True, "samples_drawn": drawn,
        "batch_size": a.batch_size, "workers": a.workers, "epochs": a.epochs, "steps_per_epoch": steps,
        "compute_s": a.compute_ms / 1000, "wall_s": wall}))


if __name__ == "__main__":
    main()
