#!/usr/bin/python3
"""A small, general PyTorch CPU training script with known I/O behaviour.

It reads a directory of sample files through a torch DataLoader (worker processes, batches,
shuffling), spends a known time per step (sleep or a matmul loop, standing in for an
accelerator), optionally evaluates on a validation directory, and writes checkpoints with
torch.save. dlgen's capture, distil and compare tests trace it with known settings and check what
they infer against the ground truth it prints as JSON on its last stdout line.

Run with Debian's interpreter (/usr/bin/python3): it needs python3-torch, numpy, PIL and h5py.
"""
import argparse
import json
import os
import sys
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

EXTENSIONS = {
    "npz": (".npz",),
    "jpeg": (".jpg", ".jpeg"),
    "hdf5": (".h5", ".hdf5"),
    "raw": None,  # any file
}
SAMPLE_BYTES = 1024  # what each sample contributes to the model input (fixed, so batches stack)


def list_files(root, fmt):
    exts = EXTENSIONS[fmt]
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.startswith(".") or name.endswith((".json", ".toml", ".manifest")):
                continue  # dlgen's manifest and other bookkeeping
            if exts is None or name.lower().endswith(exts):
                out.append(os.path.join(dirpath, name))
    return out


def to_fixed(buf):
    a = np.frombuffer(buf, dtype=np.uint8)[:SAMPLE_BYTES]
    if a.size < SAMPLE_BYTES:
        a = np.pad(a, (0, SAMPLE_BYTES - a.size))
    return torch.from_numpy(a.astype(np.float32) / 255.0)


class FileDataset(Dataset):
    """One sample per file, decoded the way real pipelines do for each format."""

    def __init__(self, root, fmt):
        self.files = list_files(root, fmt)
        self.fmt = fmt
        if not self.files:
            raise SystemExit(f"train.py: no {fmt} files under {root}")

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        path = self.files[i]
        if self.fmt == "npz":
            with np.load(path) as z:
                arr = z[z.files[0]]
            x = to_fixed(np.ascontiguousarray(arr).tobytes())
        elif self.fmt == "jpeg":
            from PIL import Image
            with Image.open(path) as im:
                im = im.convert("RGB").resize((16, 16))
                x = to_fixed(im.tobytes())
        elif self.fmt == "hdf5":
            import h5py
            with h5py.File(path, "r") as f:
                names = []
                f.visit(lambda n: names.append(n) if isinstance(f[n], h5py.Dataset) else None)
                x = to_fixed(np.asarray(f[names[0]][()]).tobytes())
        else:
            with open(path, "rb") as f:
                x = to_fixed(f.read())
        return x, i % 10


def busy(ms, mode, model_dim=256):
    """Spends `ms` milliseconds: sleeping (exact) or multiplying matrices (CPU-bound)."""
    if ms <= 0:
        return
    if mode == "sleep":
        time.sleep(ms / 1000.0)
        return
    end = time.perf_counter() + ms / 1000.0
    a = torch.randn(model_dim, model_dim)
    while time.perf_counter() < end:
        a = torch.tanh(a @ a)


def save_checkpoint(model, path, pad_bytes, fsync):
    state = {"model": model.state_dict(), "pad": torch.zeros(max(0, pad_bytes // 4), dtype=torch.float32)}
    with open(path, "wb") as f:
        torch.save(state, f)
        f.flush()
        if fsync:
            os.fsync(f.fileno())
    return os.path.getsize(path)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", required=True, help="training data directory")
    p.add_argument("--format", choices=sorted(EXTENSIONS), default="npz")
    p.add_argument("--val-data", help="validation data directory (one pass after each epoch)")
    p.add_argument("--workers", type=int, default=2, help="DataLoader worker processes (0: read in main)")
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--shuffle", dest="shuffle", action="store_true", default=True)
    p.add_argument("--no-shuffle", dest="shuffle", action="store_false")
    p.add_argument("--drop-last", action="store_true")
    p.add_argument("--prefetch-factor", type=int, default=2)
    p.add_argument("--persistent-workers", action="store_true")
    p.add_argument("--compute-ms", type=float, default=20.0, help="simulated compute per training step")
    p.add_argument("--val-compute-ms", type=float, default=None, help="per evaluation step (default: compute/2)")
    p.add_argument("--compute-mode", choices=["sleep", "matmul"], default="sleep")
    p.add_argument("--checkpoint-every-epochs", type=int, default=0)
    p.add_argument("--checkpoint-every-steps", type=int, default=0)
    p.add_argument("--checkpoint-dir", default="checkpoints")
    p.add_argument("--checkpoint-size", type=int, default=4 << 20, help="bytes of padding state per checkpoint")
    p.add_argument("--no-fsync", dest="fsync", action="store_false", default=True)
    p.add_argument("--max-steps", type=int, default=0, help="stop each epoch after N steps (0: no limit)")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()

    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    train = FileDataset(a.data, a.format)
    loader_kw = dict(batch_size=a.batch_size, num_workers=a.workers, drop_last=a.drop_last)
    if a.workers > 0:
        loader_kw.update(prefetch_factor=a.prefetch_factor, persistent_workers=a.persistent_workers)
    loader = DataLoader(train, shuffle=a.shuffle, **loader_kw)
    val_loader = None
    if a.val_data:
        val_loader = DataLoader(FileDataset(a.val_data, a.format), shuffle=False, **loader_kw)

    model = torch.nn.Linear(SAMPLE_BYTES, 10)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    if a.checkpoint_every_epochs or a.checkpoint_every_steps:
        os.makedirs(a.checkpoint_dir, exist_ok=True)
    val_ms = a.compute_ms / 2 if a.val_compute_ms is None else a.val_compute_ms

    steps = 0
    checkpoints = []
    step_times = []
    t0 = time.time()
    for epoch in range(a.epochs):
        model.train()
        for i, (x, y) in enumerate(loader):
            s0 = time.perf_counter()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            busy(a.compute_ms - (time.perf_counter() - s0) * 1000.0, a.compute_mode)
            step_times.append(time.perf_counter() - s0)
            steps += 1
            if a.checkpoint_every_steps and steps % a.checkpoint_every_steps == 0:
                path = os.path.join(a.checkpoint_dir, f"step_{steps:06d}.pt")
                checkpoints.append(save_checkpoint(model, path, a.checkpoint_size, a.fsync))
            if a.max_steps and i + 1 >= a.max_steps:
                break
        if a.checkpoint_every_epochs and (epoch + 1) % a.checkpoint_every_epochs == 0:
            path = os.path.join(a.checkpoint_dir, f"epoch_{epoch + 1:04d}.pt")
            checkpoints.append(save_checkpoint(model, path, a.checkpoint_size, a.fsync))
        if val_loader is not None:
            model.eval()
            with torch.no_grad():
                for x, y in val_loader:
                    model(x)
                    busy(val_ms, a.compute_mode)

    truth = {
        "files": len(train),
        "workers": a.workers,
        "batch_size": a.batch_size,
        "epochs": a.epochs,
        "shuffle": a.shuffle,
        "steps": steps,
        "checkpoints": checkpoints,
        "compute_s": a.compute_ms / 1000.0,
        "step_time_median_s": float(np.median(step_times)) if step_times else 0.0,
        "elapsed_s": time.time() - t0,
    }
    print(json.dumps(truth))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
