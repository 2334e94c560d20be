#!/usr/bin/python3
"""Images stored in one zip file, read by DataLoader workers (held-out program).

  zip_images.py --make DIR              # DIR/images.zip: JPEGs stored uncompressed (ZIP_STORED)
  zip_images.py --data DIR/images.zip

A common way to ship many small images as one file (CelebA/FFHQ zips, StyleGAN's dataset_tool): the
Dataset lists the members in the main process, and each DataLoader worker opens its own
zipfile.ZipFile handle at its first sample (a ZipFile must not be shared across fork) and reads the
members it is given: ZipFile.read(name) then PIL decode. 2 workers, batch 32, shuffle, 2 epochs,
no validation, no checkpoint. A sleep per step stands in for the accelerator.

The last stdout line is JSON: the ground truth.
"""
import argparse
import io
import json
import os
import time
import zipfile

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset


def make(root, n, seed):
    os.makedirs(root, exist_ok=True)
    rng = np.random.default_rng(seed)
    with zipfile.ZipFile(os.path.join(root, "images.zip"), "w", zipfile.ZIP_STORED) as zf:
        for i in range(n):
            side = int(rng.integers(48, 112))
            small = rng.integers(0, 256, (side // 2, side // 2, 3), dtype=np.uint8)
            img = Image.fromarray(small).resize((side, side), Image.BILINEAR)
            buf = io.BytesIO()
            img.save(buf, "JPEG", quality=95)
            zf.writestr(f"img/{i:05d}.jpg", buf.getvalue())


class ZipImages(Dataset):
    def __init__(self, path):
        self.path = path
        with zipfile.ZipFile(path) as zf:
            self.names = sorted(n for n in zf.namelist() if n.endswith(".jpg"))
            self.sizes = [zf.getinfo(n).file_size for n in self.names]  # for the ground truth
        self.zf = None  # opened in each worker at its first sample

    def __len__(self):
        return len(self.names)

    def __getitem__(self, i):
        if self.zf is None:
            self.zf = zipfile.ZipFile(self.path)
        img = Image.open(io.BytesIO(self.zf.read(self.names[i]))).convert("RGB").resize((32, 32))
        return torch.from_numpy(np.asarray(img, dtype=np.float32)).permute(2, 0, 1) / 255.0, i % 10


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make")
    p.add_argument("--data")
    p.add_argument("--images", type=int, default=1200)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute-ms", type=float, default=25.0)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)  # the compute is a stand-in (a sleep); keep the host free for the loader
    if a.make:
        make(a.make, a.images, a.seed)
        return

    ds = ZipImages(a.data)
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
    sizes = ds.sizes
    print(json.dumps({
        "program": "zip_images", "files": 1, "zip_bytes": os.path.getsize(a.data), "samples": len(ds),
        "sample_bytes_mean": float(np.mean(sizes)), "sample_bytes_min": min(sizes),
        "sample_bytes_max": max(sizes), "batch_size": a.batch_size, "workers": a.workers,
        "epochs": a.epochs, "steps_per_epoch": steps, "shuffle": "sample",
        "compute_s": a.compute_ms / 1000, "wall_s": wall}))


if __name__ == "__main__":
    main()
