#!/usr/bin/python3
"""A PyTorch DataLoader over .npy/.npz sample files, shaped like issue 12's program (b).

Each sample file is read with numpy.load (its zip reader for .npz), 4 workers by default, batch 1,
no shuffle, a fixed compute time per step (sleep). Each step's batch also costs the main process
its own work outside compute: receiving the tensors from /dev/shm, unpickling, collating (PyTorch
does it; nothing here adds to it). dlgen's consumer-cost test captures this script, distils it,
replays the job under capture and compares step and epoch times.

Optional: --checkpoint saves the model with torch.save after each epoch (no fsync) and copies the
best one with shutil.copyfile (issue 12's program (a) does both).

Run with Debian's interpreter (/usr/bin/python3). Prints its ground truth as JSON on its last line.
"""
import argparse
import json
import os
import shutil
import sys
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class NumpyFiles(Dataset):
    def __init__(self, root):
        self.files = sorted(
            os.path.join(d, n)
            for d, _, names in os.walk(root)
            for n in names
            if n.endswith((".npz", ".npy"))
        )
        if not self.files:
            raise SystemExit(f"npz_loader.py: no .npz/.npy files under {root}")

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        path = self.files[i]
        if path.endswith(".npz"):
            with np.load(path) as z:
                arr = z[z.files[0]]
        else:
            arr = np.load(path)
        # A small fixed-size tensor, so batches stack whatever the file holds.
        flat = np.ascontiguousarray(arr).reshape(-1).view(np.uint8)[:4096]
        x = np.zeros(4096, dtype=np.float32)
        x[: flat.size] = flat
        return torch.from_numpy(x), i % 10


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", required=True)
    p.add_argument("--workers", type=int, default=4)
    p.add_argument("--batch-size", type=int, default=1)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute-ms", type=float, default=3.5)
    p.add_argument("--checkpoint", help="directory: torch.save each epoch, copy the best with shutil")
    p.add_argument("--checkpoint-bytes", type=int, default=8 << 20)
    a = p.parse_args()

    torch.manual_seed(0)
    torch.set_num_threads(1)
    data = NumpyFiles(a.data)
    loader = DataLoader(data, batch_size=a.batch_size, num_workers=a.workers, shuffle=False)
    model = torch.nn.Linear(4096, 10)
    pad = torch.zeros(max(0, a.checkpoint_bytes // 4), dtype=torch.float32)
    if a.checkpoint:
        os.makedirs(a.checkpoint, exist_ok=True)

    steps = 0
    step_times = []
    t0 = time.perf_counter()
    prev = None
    best = None
    for epoch in range(a.epochs):
        for x, y in loader:
            now = time.perf_counter()
            if prev is not None:
                step_times.append(now - prev)
            prev = now
            time.sleep(a.compute_ms / 1000.0)
            steps += 1
        prev = None
        if a.checkpoint:
            path = os.path.join(a.checkpoint, f"epoch_{epoch + 1:03d}.pt")
            torch.save({"model": model.state_dict(), "pad": pad}, path)
            if best is None or epoch % 2 == 0:  # "improved": copy it as the best model
                best = path
                shutil.copyfile(path, os.path.join(a.checkpoint, "model_best.pt"))
    truth = {
        "files": len(data),
        "workers": a.workers,
        "batch_size": a.batch_size,
        "epochs": a.epochs,
        "steps": steps,
        "compute_s": a.compute_ms / 1000.0,
        "step_time_median_s": float(np.median(step_times)) if step_times else 0.0,
        "elapsed_s": time.perf_counter() - t0,
    }
    print(json.dumps(truth))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
