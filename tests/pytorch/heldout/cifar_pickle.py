#!/usr/bin/python3
"""CIFAR-10 the way torchvision's datasets.CIFAR10 reads it (held-out program).

  cifar_pickle.py --make DIR            # DIR/cifar-10-batches-py/{data_batch_1..5,test_batch,batches.meta}
  cifar_pickle.py --data DIR --checkpoint-dir CKPT

The dataset is python pickles of whole batches ({b"data": uint8 N x 3072, b"labels": [...]}), as
the CIFAR-10 python version ships. At start the program pickle.load()s every training batch file
and the test batch (torchvision does it in CIFAR10.__init__) and keeps the arrays in memory; the
DataLoader (2 workers, batch 64, shuffle) then indexes memory only: all the file I/O is up front.
A test pass after every epoch, torch.save of the model every epoch. A sleep per step stands in for
the accelerator.

The last stdout line is JSON: the ground truth.
"""
import argparse
import json
import os
import pickle
import time

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

FOLDER = "cifar-10-batches-py"
TRAIN = [f"data_batch_{i}" for i in range(1, 6)]
TEST = ["test_batch"]


def make(root, per_batch, seed):
    d = os.path.join(root, FOLDER)
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(seed)
    for name in TRAIN + TEST:
        # Python 2 str keys, which pickle.load(encoding="latin1") gives back as str (torchvision's keys)
        batch = {"batch_label": name, "labels": rng.integers(0, 10, per_batch).tolist(),
                 "data": rng.integers(0, 256, (per_batch, 3072), dtype=np.uint8),
                 "filenames": [f"{name}_{i}.png" for i in range(per_batch)]}
        with open(os.path.join(d, name), "wb") as f:
            pickle.dump(batch, f, protocol=4)  # raw bytes, as the python-version files hold the pixels
    with open(os.path.join(d, "batches.meta"), "wb") as f:
        pickle.dump({"label_names": [f"c{i}" for i in range(10)]}, f, protocol=4)


class CIFAR10(Dataset):
    """torchvision.datasets.CIFAR10's loading, without torchvision."""

    def __init__(self, root, train):
        self.data, self.targets = [], []
        for name in TRAIN if train else TEST:
            with open(os.path.join(root, FOLDER, name), "rb") as f:
                entry = pickle.load(f, encoding="latin1")
            self.data.append(entry["data"])
            self.targets.extend(entry["labels"])
        self.data = np.vstack(self.data).reshape(-1, 3, 32, 32)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, i):
        x = torch.from_numpy(self.data[i].astype(np.float32) / 255.0)
        if torch.rand(1).item() < 0.5:
            x = x.flip(2)  # RandomHorizontalFlip
        return x, self.targets[i]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make")
    p.add_argument("--data")
    p.add_argument("--checkpoint-dir", default="checkpoints")
    p.add_argument("--per-batch", type=int, default=1000, help="images per batch file (CIFAR: 10000)")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--compute-ms", type=float, default=10.0)
    p.add_argument("--eval-compute-ms", type=float, default=4.0)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)  # the compute is a stand-in (a sleep); keep the host free for the loader
    if a.make:
        make(a.make, a.per_batch, a.seed)
        return

    torch.manual_seed(a.seed)
    os.makedirs(a.checkpoint_dir, exist_ok=True)
    t0 = time.monotonic()
    train, test = CIFAR10(a.data, True), CIFAR10(a.data, False)
    load_s = time.monotonic() - t0
    model = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(),
                          nn.Linear(256, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    train_loader = DataLoader(train, batch_size=a.batch_size, shuffle=True, num_workers=a.workers)
    test_loader = DataLoader(test, batch_size=a.batch_size * 2, shuffle=False, num_workers=a.workers)
    steps, eval_steps, ckpt_bytes = [], [], 0
    for epoch in range(a.epochs):
        model.train()
        n = 0
        for x, y in train_loader:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(a.compute_ms / 1000)
            n += 1
        steps.append(n)
        model.eval()
        n = 0
        with torch.no_grad():
            for x, y in test_loader:
                model(x)
                time.sleep(a.eval_compute_ms / 1000)
                n += 1
        eval_steps.append(n)
        path = os.path.join(a.checkpoint_dir, "cifar_model.pt")
        torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": epoch}, path)
        ckpt_bytes = os.path.getsize(path)
        print(f"epoch {epoch}: {steps[-1]} steps", flush=True)
    wall = time.monotonic() - t0

    d = os.path.join(a.data, FOLDER)
    print(json.dumps({
        "program": "cifar_pickle", "train_files": len(TRAIN), "test_files": len(TEST),
        "file_bytes": {n: os.path.getsize(os.path.join(d, n)) for n in TRAIN + TEST},
        "reads_of_each_file": 1, "load_s": load_s, "train_samples": len(train), "test_samples": len(test),
        "batch_size": a.batch_size, "eval_batch_size": a.batch_size * 2, "workers": a.workers,
        "epochs": a.epochs, "steps_per_epoch": steps, "eval_steps_per_pass": eval_steps,
        "checkpoints": a.epochs, "checkpoint_bytes": ckpt_bytes, "compute_s": a.compute_ms / 1000,
        "eval_compute_s": a.eval_compute_ms / 1000, "wall_s": wall}))


if __name__ == "__main__":
    main()
