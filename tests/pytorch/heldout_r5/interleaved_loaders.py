#!/usr/bin/python3
"""Multi-task training: two DataLoaders over two datasets, their batches interleaved step by step
(held-out program, round 5).

  interleaved_loaders.py --make DIR     # DIR/images/img_*.png and DIR/features/feat_*.npy
  interleaved_loaders.py --data DIR

The multi-task / multi-domain recipe (a shared trunk, one head per task; MT-DNN, multi-dataset
detection, an auxiliary self-supervised loss): each task has its own Dataset and DataLoader with
its own batch size and worker count, and the training loop alternates them, one optimiser step a
batch: image task, feature task, image task, ... The epoch is the image task's (384 PNGs of
48x48-96x96 px, 3-25 KiB, PIL in 2 workers, batch 16, shuffle: 24 steps); the feature task (96
.npy files of 64 KiB, float32 256x64, np.load in 1 worker, batch 8, shuffle: 12 batches a pass)
is smaller, so its loader is restarted whenever it runs out: 2 passes over the features an
epoch. 2 epochs: 48 image steps and 48 feature steps, 96 optimiser steps. No validation, no
checkpoint. The image step's compute is 15 ms, the feature step's 5 ms (sleeps stand in for the
accelerator).

The last stdout line is JSON: the ground truth.
"""
import argparse
import io
import json
import os
import time

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset


def make(root, n_images, n_feats, seed):
    rng = np.random.default_rng(seed)
    os.makedirs(os.path.join(root, "images"), exist_ok=True)
    os.makedirs(os.path.join(root, "features"), exist_ok=True)
    for i in range(n_images):
        side = int(rng.integers(48, 97))
        small = rng.integers(0, 256, (side // 4, side // 4, 3), dtype=np.uint8)
        img = Image.fromarray(small).resize((side, side), Image.BILINEAR)
        buf = io.BytesIO()
        img.save(buf, "PNG")
        with open(os.path.join(root, "images", f"img_{i:05d}_{int(rng.integers(0, 10))}.png"), "wb") as f:
            f.write(buf.getvalue())
    for i in range(n_feats):
        np.save(os.path.join(root, "features", f"feat_{i:05d}.npy"),
                rng.standard_normal((256, 64)).astype(np.float32))


class Images(Dataset):
    def __init__(self, root):
        self.dir = os.path.join(root, "images")
        self.names = sorted(os.listdir(self.dir))

    def __len__(self):
        return len(self.names)

    def __getitem__(self, i):
        name = self.names[i]
        img = Image.open(os.path.join(self.dir, name)).convert("RGB").resize((32, 32))
        x = torch.from_numpy(np.asarray(img, dtype=np.float32)).permute(2, 0, 1) / 255.0
        return x, int(name.rsplit("_", 1)[1].split(".")[0])


class Features(Dataset):
    def __init__(self, root):
        self.dir = os.path.join(root, "features")
        self.names = sorted(os.listdir(self.dir))

    def __len__(self):
        return len(self.names)

    def __getitem__(self, i):
        x = torch.from_numpy(np.load(os.path.join(self.dir, self.names[i])))
        return x, x.mean()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make")
    p.add_argument("--data")
    p.add_argument("--images", type=int, default=384)
    p.add_argument("--features", type=int, default=96)
    p.add_argument("--image-batch", type=int, default=16)
    p.add_argument("--feature-batch", type=int, default=8)
    p.add_argument("--image-workers", type=int, default=2)
    p.add_argument("--feature-workers", type=int, default=1)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--image-ms", type=float, default=15.0)
    p.add_argument("--feature-ms", type=float, default=5.0)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)  # the compute is a stand-in (a sleep); keep the host free for the loader
    if a.make:
        make(a.make, a.images, a.features, a.seed)
        return

    images, feats = Images(a.data), Features(a.data)
    image_loader = DataLoader(images, batch_size=a.image_batch, shuffle=True, num_workers=a.image_workers)
    feat_loader = DataLoader(feats, batch_size=a.feature_batch, shuffle=True, num_workers=a.feature_workers)
    trunk = torch.nn.Linear(64, 64)
    image_head = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 32 * 32, 64), torch.nn.ReLU(),
                                     trunk, torch.nn.Linear(64, 10))
    feat_head = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), trunk, torch.nn.Linear(64, 1))
    # The trunk is in both heads: each parameter once.
    params = {id(q): q for q in list(image_head.parameters()) + list(feat_head.parameters())}
    opt = torch.optim.SGD(list(params.values()), lr=0.01)

    feat_iter, feat_passes = iter(feat_loader), 1

    def next_features():
        nonlocal feat_iter, feat_passes
        try:
            return next(feat_iter)
        except StopIteration:
            feat_iter, feat_passes = iter(feat_loader), feat_passes + 1
            return next(feat_iter)

    image_steps, feat_steps = [], []
    t0 = time.monotonic()
    for epoch in range(a.epochs):
        n_img = n_feat = 0
        for x, y in image_loader:
            loss = torch.nn.functional.cross_entropy(image_head(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(a.image_ms / 1000)
            n_img += 1
            f, target = next_features()
            loss = torch.nn.functional.mse_loss(feat_head(f).mean(dim=(1, 2)), target)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(a.feature_ms / 1000)
            n_feat += 1
        image_steps.append(n_img)
        feat_steps.append(n_feat)
        print(f"epoch {epoch}: {n_img} image steps, {n_feat} feature steps", flush=True)
    wall = time.monotonic() - t0
    img_sizes = [os.path.getsize(os.path.join(images.dir, n)) for n in images.names]
    feat_sizes = [os.path.getsize(os.path.join(feats.dir, n)) for n in feats.names]
    print(json.dumps({
        "program": "interleaved_loaders", "datasets": 2, "files": len(images) + len(feats),
        "image_files": len(images), "feature_files": len(feats),
        "image_bytes_mean": float(np.mean(img_sizes)), "image_bytes_min": min(img_sizes),
        "image_bytes_max": max(img_sizes), "feature_bytes": feat_sizes[0],
        "image_batch_size": a.image_batch, "feature_batch_size": a.feature_batch,
        "image_workers": a.image_workers, "feature_workers": a.feature_workers,
        "workers": a.image_workers + a.feature_workers, "shuffle": "file", "epochs": a.epochs,
        "image_steps_per_epoch": image_steps, "feature_steps_per_epoch": feat_steps,
        "steps_per_epoch": [i + f for i, f in zip(image_steps, feat_steps)],
        "feature_passes": feat_passes, "evals": 0, "checkpoints": 0,
        "image_compute_s": a.image_ms / 1000, "feature_compute_s": a.feature_ms / 1000,
        "wall_s": wall}))


if __name__ == "__main__":
    main()
