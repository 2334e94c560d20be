#!/usr/bin/python3
"""Gradient accumulation with step-based checkpoints and a resume at start (held-out program).

  grad_accum.py --make DIR              # DIR/data/*.npy samples and DIR/ckpt/last.pt (a previous run's)
  grad_accum.py --data DIR/data --ckpt DIR/ckpt/last.pt

A folder of .npy samples (np.load in 2 DataLoader workers, batch 8, shuffle, 2 epochs). The program
first resumes: torch.load of the checkpoint (model, optimizer, the optimizer-step counter). Each
DataLoader batch is a micro-batch: forward + backward (a sleep per micro-batch stands in for the
accelerator); every --accum micro-batches the optimizer steps (another short sleep), and every
--ckpt-every optimizer steps torch.save overwrites the checkpoint, as HF Trainer's save_steps or
nanoGPT do. A model padded with a buffer gives the checkpoint its size.

The last stdout line is JSON: the ground truth.
"""
import argparse
import json
import os
import time

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

FEATURES = 1024


def model_and_opt(pad_mib):
    model = nn.Sequential(nn.Linear(FEATURES, 64), nn.ReLU(), nn.Linear(64, 10))
    model.register_buffer("pad", torch.zeros(pad_mib << 18))  # float32: pad_mib MiB of state
    return model, torch.optim.AdamW(model.parameters(), lr=1e-3)


def make(root, n, pad_mib, start_step, seed):
    rng = np.random.default_rng(seed)
    os.makedirs(os.path.join(root, "data"), exist_ok=True)
    os.makedirs(os.path.join(root, "ckpt"), exist_ok=True)
    for i in range(n):
        rows = int(rng.integers(4, 12))  # 16-48 KiB of float32
        np.save(os.path.join(root, "data", f"sample_{i:05d}.npy"), rng.random((rows, FEATURES), dtype=np.float32))
    model, opt = model_and_opt(pad_mib)
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "opt_step": start_step},
               os.path.join(root, "ckpt", "last.pt"))


class NpyFolder(Dataset):
    def __init__(self, root):
        self.files = sorted(os.path.join(root, f) for f in os.listdir(root) if f.endswith(".npy"))

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        arr = np.load(self.files[i])
        return torch.from_numpy(arr.mean(axis=0)), i % 10


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make")
    p.add_argument("--data")
    p.add_argument("--ckpt")
    p.add_argument("--samples", type=int, default=480)
    p.add_argument("--pad-mib", type=int, default=8)
    p.add_argument("--start-step", type=int, default=100, help="--make: the saved optimizer step")
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--accum", type=int, default=4)
    p.add_argument("--ckpt-every", type=int, default=5, help="optimizer steps between checkpoints")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--micro-ms", type=float, default=12.0, help="forward + backward of one micro-batch")
    p.add_argument("--opt-ms", type=float, default=8.0, help="one optimizer step")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)  # the compute is a stand-in (a sleep); keep the host free for the loader
    if a.make:
        make(a.make, a.samples, a.pad_mib, a.start_step, a.seed)
        return

    t0 = time.monotonic()
    model, opt = model_and_opt(a.pad_mib)
    state = torch.load(a.ckpt)
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["optimizer"])
    opt_step = start = state["opt_step"]
    restored_bytes = os.path.getsize(a.ckpt)
    print(f"resumed from {a.ckpt} at optimizer step {opt_step}", flush=True)

    loader = DataLoader(NpyFolder(a.data), batch_size=a.batch_size, shuffle=True, num_workers=a.workers)
    micro, checkpoints, ckpt_bytes = [], 0, 0
    for epoch in range(a.epochs):
        n = 0
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y) / a.accum
            loss.backward()
            time.sleep(a.micro_ms / 1000)
            n += 1
            if n % a.accum == 0:
                opt.step()
                opt.zero_grad()
                time.sleep(a.opt_ms / 1000)
                opt_step += 1
                if opt_step % a.ckpt_every == 0:
                    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "opt_step": opt_step},
                               a.ckpt)
                    checkpoints += 1
                    ckpt_bytes = os.path.getsize(a.ckpt)
        micro.append(n)
        print(f"epoch {epoch}: {n} micro-batches, optimizer step {opt_step}", flush=True)
    wall = time.monotonic() - t0
    print(json.dumps({
        "program": "grad_accum", "files": len(loader.dataset), "batch_size": a.batch_size,
        "workers": a.workers, "epochs": a.epochs, "micro_batches_per_epoch": micro,
        "accum": a.accum, "optimizer_steps": opt_step - start, "checkpoints": checkpoints,
        "checkpoint_every_micro_batches": a.ckpt_every * a.accum, "checkpoint_bytes": ckpt_bytes,
        "restore_reads": 1, "restored_bytes": restored_bytes,
        "compute_per_micro_batch_s": a.micro_ms / 1000 + a.opt_ms / 1000 / a.accum, "wall_s": wall}))


if __name__ == "__main__":
    main()
