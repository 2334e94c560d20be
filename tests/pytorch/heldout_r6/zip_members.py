#!/usr/bin/env python3
"""One uncompressed zip archive of small sample files (varying sizes, the label in the member's
name), read member by member with zipfile from DataLoader workers (each worker opens the archive
in worker_init_fn). Train and val are one archive split by SubsetRandomSampler / a fixed val
index list; validation every epoch; a checkpoint every 12 steps.
Each sample also carries the bytes its load read (/proc/self/io rchar around it): the ground
truth of the dataset bytes a trace should show.

    zip_members.py --make DIR             # writes DIR/samples.zip
    zip_members.py --data DIR --ckpt CK   # trains; last stdout line is the ground truth as JSON
"""
import os
import sys
import zipfile

import numpy as np
import torch
import torch.nn as nn
from ground_truth import Truth, counted, parse_args
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
        x = np.resize(np.frombuffer(data, dtype=np.float32), FEAT)  # crop or repeat to FEAT
        return torch.from_numpy(x), int(info.filename.split("_")[1].split(".")[0]), nbytes


def worker_init(_):
    get_worker_info().dataset.open()



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
    run = Truth()

    def checkpoint(step):
        if step % a.ckpt_every == 0:
            run.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step},
                     os.path.join(a.ckpt, "last.pt"), after_step=step)

    for _ in range(a.epochs):
        run.train_epoch(model, opt, loss_fn, tl, after_step=checkpoint)
        run.eval_pass(model, vl)
    sizes = [i.file_size for i in ds.infos]
    run.print("zip_members", files=1, file_bytes=os.path.getsize(path), members=len(sizes),
              train_members=len(train_idx), val_members=len(val_idx),
              member_bytes_mean=sum(sizes) / len(sizes), member_bytes_min=min(sizes),
              member_bytes_max=max(sizes),
              payload_bytes_per_epoch=sum(sizes[i] for i in train_idx),
              val_payload_bytes_per_pass=sum(sizes[i] for i in val_idx), batch_size=a.batch,
              workers=2, epochs=a.epochs, checkpoint_every_steps=a.ckpt_every)


def main():
    a = parse_args(epochs=2, batch=16, extra=[("--ckpt-every", 12)])
    make(a.make) if a.make else train(a)


if __name__ == "__main__":
    sys.exit(main())
