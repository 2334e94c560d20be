#!/usr/bin/env python3
"""Audio-like clips of variable length, one torch.save'd .pt file per clip, loaded with
torch.load in 2 DataLoader workers. A length index (lengths.json) lets a bucketing batch
sampler group clips of similar length (sorted by length, cut into batches, the batches shuffled
each epoch); collate pads each batch to its longest clip. Validation every epoch on a separate
folder; the latest weights saved to the same file after every epoch.
Each sample also carries the bytes its load read (/proc/self/io rchar around it): the ground
truth of the dataset bytes a trace should show.

    pt_buckets.py --make DIR             # writes DIR/train/*.pt, DIR/val/*.pt, DIR/lengths.json
    pt_buckets.py --data DIR --ckpt CK   # trains; last stdout line is the ground truth as JSON
"""
import json
import os
import random
import sys

import torch
import torch.nn as nn
from ground_truth import Truth, counted, parse_args
from torch.utils.data import DataLoader, Dataset, Sampler

N_TRAIN, N_VAL, MIN_LEN, MAX_LEN = 256, 64, 1000, 8000


def make(d):
    g = torch.Generator().manual_seed(9)
    lengths = {}
    for split, n in (("train", N_TRAIN), ("val", N_VAL)):
        os.makedirs(os.path.join(d, split), exist_ok=True)
        for i in range(n):
            L = int(torch.randint(MIN_LEN, MAX_LEN, (1,), generator=g))
            name = f"{split}/clip{i:05d}.pt"
            torch.save({"wave": torch.randn(L, generator=g),
                        "label": int(torch.randint(0, 8, (1,), generator=g))},
                       os.path.join(d, name))
            lengths[name] = L
    with open(os.path.join(d, "lengths.json"), "w") as f:
        json.dump(lengths, f)


class Clips(Dataset):
    def __init__(self, root, split, lengths):
        self.names = sorted(n for n in lengths if n.startswith(split + "/"))
        self.paths = [os.path.join(root, n) for n in self.names]
        self.lengths = [lengths[n] for n in self.names]

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        d, nbytes = counted(lambda: torch.load(self.paths[i]))
        return d["wave"], d["label"], nbytes


class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch, shuffle, seed=0):
        order = sorted(range(len(lengths)), key=lambda i: lengths[i])
        self.batches = [order[k:k + batch] for k in range(0, len(order), batch)]
        self.shuffle, self.rng = shuffle, random.Random(seed)

    def __iter__(self):
        b = list(self.batches)
        if self.shuffle:
            self.rng.shuffle(b)
        return iter(b)

    def __len__(self):
        return len(self.batches)


def pad(batch):
    L = max(w.shape[0] for w, _, _ in batch)
    x = torch.zeros(len(batch), 1, L)
    for k, (w, _, _) in enumerate(batch):
        x[k, 0, :w.shape[0]] = w
    return x, torch.tensor([y for _, y, _ in batch]), torch.tensor([n for _, _, n in batch])



def train(a):
    torch.manual_seed(0)
    torch.set_num_threads(1)
    with open(os.path.join(a.data, "lengths.json")) as f:
        lengths = json.load(f)
    tds, vds = Clips(a.data, "train", lengths), Clips(a.data, "val", lengths)
    kw = dict(num_workers=2, collate_fn=pad)
    tl = DataLoader(tds, batch_sampler=BucketBatchSampler(tds.lengths, a.batch, True), **kw)
    vl = DataLoader(vds, batch_sampler=BucketBatchSampler(vds.lengths, a.batch, False), **kw)
    model = nn.Sequential(nn.Conv1d(1, 16, 9, stride=4), nn.ReLU(), nn.Conv1d(16, 32, 9, stride=4),
                          nn.ReLU(), nn.AdaptiveMaxPool1d(1), nn.Flatten(), nn.Linear(32, 8))
    loss_fn, opt = nn.CrossEntropyLoss(), torch.optim.Adam(model.parameters(), lr=1e-3)
    os.makedirs(a.ckpt, exist_ok=True)
    run = Truth()
    for ep in range(a.epochs):
        run.train_epoch(model, opt, loss_fn, tl)
        run.eval_pass(model, vl)
        run.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": ep + 1},
                 os.path.join(a.ckpt, "last.pt"), after_epoch=ep + 1)
    sizes = [os.path.getsize(p) for p in tds.paths]
    vsizes = [os.path.getsize(p) for p in vds.paths]
    run.print("pt_buckets", files=len(sizes), val_files=len(vsizes),
              file_bytes_mean=sum(sizes) / len(sizes), file_bytes_min=min(sizes),
              file_bytes_max=max(sizes), payload_bytes_per_epoch=sum(sizes),
              val_bytes_per_pass=sum(vsizes), batch_size=a.batch, workers=2, epochs=a.epochs)


def main():
    a = parse_args(epochs=2, batch=16)
    make(a.make) if a.make else train(a)


if __name__ == "__main__":
    sys.exit(main())
