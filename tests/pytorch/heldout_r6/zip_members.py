#!/usr/bin/env python3
"""One uncompressed zip archive of small sample files (varying sizes, the label in the member's
name), read member by member with zipfile from DataLoader workers (each worker opens the archive
in worker_init_fn). Train and val are one archive split by SubsetRandomSampler / a fixed val
index list; validation every epoch; a checkpoint every 12 steps.

    zip_members.py --make DIR             # writes DIR/samples.zip
    zip_members.py --data DIR --ckpt CK   # trains; last stdout line is the ground truth as JSON
"""
import argparse
import json
import os
import statistics
import sys
import time
import zipfile

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset, SubsetRandomSampler, get_worker_info

N, VAL_EVERY, FEAT = 400, 5, 1024  # every 5th member is validation


def make(d):
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(7)
    with zipfile.ZipFile(os.path.join(d, "samples.zip"), "w", zipfile.ZIP_STORED) as z:
        for i in range(N):
            n = int(rng.integers(FEAT, 4 * FEAT))  # float32 values: 4-16 KiB a member
            z.writestr(f"s{i:05d}_{int(rng.integers(0, 10))}.f32",
                       rng.standard_normal(n, dtype=np.float32).tobytes())


class ZipSamples(Dataset):
    def __init__(self, path):
        self.path, self.zf = path, None
        with zipfile.ZipFile(path) as z:
            self.infos = sorted(z.infolist(), key=lambda i: i.filename)

    def open(self):
        self.zf, self.opened = counted(lambda: zipfile.ZipFile(self.path))  # the central directory

    def __len__(self):
        return len(self.infos)

    def __getitem__(self, i):
        info = self.infos[i]
        data, nbytes = counted(lambda: self.zf.read(info))
        nbytes, self.opened = nbytes + self.opened, 0
        x = np.resize(np.frombuffer(data, dtype=np.float32), FEAT)  # crop or repeat to a fixed length
        return torch.from_numpy(x), int(info.filename.split("_")[1].split(".")[0]), nbytes


def worker_init(_):
    get_worker_info().dataset.open()


def rchar():
    """This process's bytes from read-type system calls so far, and the length of the read that
    asked (it counts too)."""
    with open("/proc/self/io", "rb") as f:
        s = f.read()
    return int(s.split(b"rchar: ")[1].split(b"\n")[0]), len(s)


def counted(load):
    """load()'s result and the bytes its system calls read: the dataset's bytes as the worker read
    them (ground truth for what a trace should show)."""
    before, asked = rchar()
    out = load()
    return out, rchar()[0] - before - asked


def train(a):
    torch.manual_seed(0)
    torch.set_num_threads(1)
    path = os.path.join(a.data, "samples.zip")
    ds = ZipSamples(path)
    val_idx = list(range(0, len(ds), VAL_EVERY))
    train_idx = [i for i in range(len(ds)) if i % VAL_EVERY]
    kw = dict(num_workers=2, worker_init_fn=worker_init)
    tl = DataLoader(ds, batch_size=a.batch, sampler=SubsetRandomSampler(train_idx), **kw)
    vl = DataLoader(ds, batch_size=a.batch, sampler=val_idx, **kw)
    model = nn.Sequential(nn.Linear(FEAT, 512), nn.ReLU(), nn.Linear(512, 10))
    loss_fn, opt = nn.CrossEntropyLoss(), torch.optim.Adam(model.parameters(), lr=1e-3)
    os.makedirs(a.ckpt, exist_ok=True)
    computes, steps, eval_steps, ckpts, rc, vrc, step = [], [], [], [], [], [], 0
    for ep in range(a.epochs):
        model.train()
        n = 0
        rc.append(0)
        for x, y, nb in tl:
            rc[-1] += int(nb.sum())
            t = time.perf_counter()
            opt.zero_grad()
            loss_fn(model(x), y).backward()
            opt.step()
            computes.append(time.perf_counter() - t)
            n += 1
            step += 1
            if step % a.ckpt_every == 0:
                p = os.path.join(a.ckpt, "last.pt")
                torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step}, p)
                ckpts.append({"path": "last.pt", "bytes": os.path.getsize(p), "after_step": step})
        steps.append(n)
        model.eval()
        n = 0
        with torch.no_grad():
            vrc.append(0)
            for x, y, nb in vl:
                vrc[-1] += int(nb.sum())
                model(x)
                n += 1
        eval_steps.append(n)
    members = {i.filename: i.file_size for i in ds.infos}
    names = [i.filename for i in ds.infos]
    print(json.dumps({
        "program": "zip_members", "files": 1, "file_bytes": os.path.getsize(path),
        "members": len(names), "train_members": len(train_idx), "val_members": len(val_idx),
        "member_bytes_mean": statistics.mean(members.values()),
        "member_bytes_min": min(members.values()), "member_bytes_max": max(members.values()),
        "payload_bytes_per_epoch": sum(members[names[i]] for i in train_idx),
        "val_payload_bytes_per_pass": sum(members[names[i]] for i in val_idx),
        "train_bytes_read_per_epoch": rc, "val_bytes_read_per_pass": vrc, "batch_size": a.batch, "workers": 2, "epochs": a.epochs, "steps_per_epoch": steps,
        "eval_steps_per_pass": eval_steps, "checkpoint_every_steps": a.ckpt_every,
        "checkpoints": ckpts, "median_compute_s": statistics.median(computes)}))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make", metavar="DIR", help="write the dataset into DIR and exit")
    p.add_argument("--data", metavar="DIR")
    p.add_argument("--ckpt", default="ckpt")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--ckpt-every", type=int, default=12)
    a = p.parse_args()
    make(a.make) if a.make else train(a)


if __name__ == "__main__":
    sys.exit(main())
