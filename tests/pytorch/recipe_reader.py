#!/usr/bin/python3
"""Reads sample files the way one library does, under a PyTorch DataLoader: the access-recipe tests.

`--make DIR --kind K` writes a small dataset of one kind (sizes vary from file to file, so a
recipe learned from it must hold for files of any size); `--data DIR --kind K` reads it with
2 DataLoader workers, batch 4, 2 epochs, a short sleep per step. Kinds and the library call that
reads each sample:
  jpeg  PIL Image.open + convert("RGB")     npy  numpy.load
  npz   numpy.load of a zip (np.savez)      h5   h5py: one dataset's rows
  pt    torch.load                          raw  open().read()
Run with Debian's interpreter (/usr/bin/python3).
"""
import argparse
import io
import os
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

EXT = {"jpeg": ".jpg", "npy": ".npy", "npz": ".npz", "h5": ".h5", "pt": ".pt", "raw": ".bin"}


def make(root, kind, n, seed):
    os.makedirs(root, exist_ok=True)
    rng = np.random.default_rng(seed)
    for i in range(n):
        path = os.path.join(root, f"s{i:04d}{EXT[kind]}")
        rows = int(rng.integers(48, 160))  # file sizes vary by about 3x
        arr = rng.integers(0, 255, size=(rows, 1024), dtype=np.uint8)
        if kind == "jpeg":
            from PIL import Image
            Image.fromarray(rng.integers(0, 255, size=(rows * 2, 160, 3), dtype=np.uint8)).save(
                path, quality=95)
        elif kind == "npy":
            np.save(path, arr)
        elif kind == "npz":
            np.savez(path, x=arr, y=np.int64(i))
        elif kind == "h5":
            import h5py
            with h5py.File(path, "w") as f:
                f.create_dataset("x", data=arr)
        elif kind == "pt":
            torch.save({"x": torch.from_numpy(arr), "y": i}, path)
        else:
            with open(path, "wb") as f:
                f.write(arr.tobytes())


class Files(Dataset):
    def __init__(self, root, kind):
        self.files = sorted(os.path.join(root, f) for f in os.listdir(root) if f.endswith(EXT[kind]))
        self.kind = kind

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        path, k = self.files[i], self.kind
        if k == "jpeg":
            from PIL import Image
            with Image.open(path) as im:
                a = np.asarray(im.convert("RGB"))
        elif k == "npy":
            a = np.load(path)
        elif k == "npz":
            with np.load(path) as z:
                a = z[z.files[0]]
        elif k == "h5":
            import h5py
            with h5py.File(path, "r") as f:
                a = f["x"][:]
        elif k == "pt":
            a = torch.load(path)["x"].numpy()
        else:
            with open(path, "rb") as f:
                a = np.frombuffer(f.read(), dtype=np.uint8)
        return torch.tensor(float(a.reshape(-1)[:64].astype(np.float32).sum()))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--kind", choices=sorted(EXT), required=True)
    p.add_argument("--make", help="write a dataset here and exit")
    p.add_argument("--data", help="read the dataset here")
    p.add_argument("--files", type=int, default=48)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute-ms", type=float, default=5.0)
    a = p.parse_args()
    if a.make:
        make(a.make, a.kind, a.files, seed=7)
        return
    torch.set_num_threads(1)
    loader = DataLoader(Files(a.data, a.kind), batch_size=4, num_workers=2, shuffle=True)
    for _ in range(a.epochs):
        for x in loader:
            time.sleep(a.compute_ms / 1000.0)


if __name__ == "__main__":
    main()
