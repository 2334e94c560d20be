#!/usr/bin/python3
"""K-fold cross-validation over a folder of small .pt tensor files (held-out program, round 5).

  pt_kfold.py --make DIR                # DIR/samples/<id>.pt ({"x": uint8 3x48x48, "y": int}), DIR/index.txt
  pt_kfold.py --data DIR --out OUT

The preprocessed-tensor recipe (medical imaging and Kaggle notebooks: each sample cached once as a
.pt file, then torch.load in __getitem__), evaluated by k-fold cross-validation as small-data
projects do: the folder's samples are permuted once (seeded) and cut into 3 folds; for each fold a
fresh model trains on the other two folds through a SubsetRandomSampler over the full Dataset and
is validated on its fold through a torch.utils.data.Subset. Each fold: 2 epochs (batch 32, 2
workers), a validation pass after each epoch (batch 64, 2 workers, in order, no_grad), and the
fold's model saved at its end with torch.save (OUT/fold<k>.pt). So every file is read 4 times for
training and twice for validation over the run, and which files are validation changes per fold.
Sleeps per step stand in for the accelerator.

The last stdout line is JSON: the ground truth.
"""
import argparse
import json
import os
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, Subset, SubsetRandomSampler

SIDE = 48


def make(root, n, seed):
    rng = np.random.default_rng(seed)
    os.makedirs(os.path.join(root, "samples"), exist_ok=True)
    names = []
    for i in range(n):
        name = f"case_{i:05d}.pt"
        x = torch.from_numpy(rng.integers(0, 256, (3, SIDE, SIDE), dtype=np.uint8))
        torch.save({"x": x, "y": int(rng.integers(0, 4))}, os.path.join(root, "samples", name))
        names.append(name)
    with open(os.path.join(root, "index.txt"), "w") as f:
        f.write("\n".join(names) + "\n")


class PtFiles(Dataset):
    def __init__(self, root):
        self.dir = os.path.join(root, "samples")
        with open(os.path.join(root, "index.txt")) as f:
            self.names = [line.strip() for line in f if line.strip()]

    def __len__(self):
        return len(self.names)

    def __getitem__(self, i):
        d = torch.load(os.path.join(self.dir, self.names[i]))
        return d["x"].float() / 255.0, d["y"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make")
    p.add_argument("--data")
    p.add_argument("--out")
    p.add_argument("--samples", type=int, default=480)
    p.add_argument("--folds", type=int, default=3)
    p.add_argument("--epochs-per-fold", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--val-batch-size", type=int, default=64)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--compute-ms", type=float, default=20.0)
    p.add_argument("--eval-ms", type=float, default=6.0)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)  # the compute is a stand-in (a sleep); keep the host free for the loader
    if a.make:
        make(a.make, a.samples, a.seed)
        return

    os.makedirs(a.out, exist_ok=True)
    full = PtFiles(a.data)
    order = np.random.default_rng(a.seed).permutation(len(full))
    folds = np.array_split(order, a.folds)
    steps, eval_steps, ckpt_bytes, train_sizes, val_sizes = [], [], [], [], []
    t0 = time.monotonic()
    for k in range(a.folds):
        val_idx = folds[k].tolist()
        train_idx = np.concatenate([folds[j] for j in range(a.folds) if j != k]).tolist()
        train_sizes.append(len(train_idx))
        val_sizes.append(len(val_idx))
        sampler = SubsetRandomSampler(train_idx, generator=torch.Generator().manual_seed(k))
        train = DataLoader(full, batch_size=a.batch_size, sampler=sampler, num_workers=a.workers)
        val = DataLoader(Subset(full, val_idx), batch_size=a.val_batch_size, shuffle=False,
                         num_workers=a.workers)
        torch.manual_seed(k)
        model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * SIDE * SIDE, 32),
                                    torch.nn.ReLU(), torch.nn.Linear(32, 4))
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        for epoch in range(a.epochs_per_fold):
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
            print(f"fold {k} epoch {epoch}: {n} steps, validation {m} steps, "
                  f"loss {total / len(val_idx):.3f}", flush=True)
        path = os.path.join(a.out, f"fold{k}.pt")
        torch.save(model.state_dict(), path)
        ckpt_bytes.append(os.path.getsize(path))
    wall = time.monotonic() - t0
    sizes = [os.path.getsize(os.path.join(full.dir, n)) for n in full.names]
    print(json.dumps({
        "program": "pt_kfold", "files": len(full), "reader": "torch.load", "folds": a.folds,
        "train_files_per_fold": train_sizes, "val_files_per_fold": val_sizes, "same_folder": True,
        "file_bytes_mean": float(np.mean(sizes)), "file_bytes_min": min(sizes),
        "file_bytes_max": max(sizes), "batch_size": a.batch_size, "eval_batch_size": a.val_batch_size,
        "workers": a.workers, "shuffle": "file", "epochs": a.folds * a.epochs_per_fold,
        "epochs_per_fold": a.epochs_per_fold, "steps_per_epoch": steps, "evals": len(eval_steps),
        "eval_steps_per_pass": eval_steps, "eval_every_epochs": 1,
        "reads_per_file_train": a.epochs_per_fold * (a.folds - 1),
        "reads_per_file_eval": a.epochs_per_fold, "checkpoints": len(ckpt_bytes),
        "checkpoint_bytes": ckpt_bytes[-1], "checkpoint_every_epochs": a.epochs_per_fold,
        "compute_s": a.compute_ms / 1000, "eval_compute_s": a.eval_ms / 1000, "wall_s": wall}))


if __name__ == "__main__":
    main()
