#!/usr/bin/python3
"""Batches of a token budget: a batch sampler that packs documents by size, so the batch size
varies from step to step (held-out program, round 5).

  token_budget.py --make DIR            # DIR/docs/doc_*.bin (uint16 tokens), DIR/lengths.json
  token_budget.py --data DIR --out OUT

fairseq's / torchtext's batch_by_size in its simplest form (translation, speech and protein
models train this way): each document is a file of uint16 token ids (32-2,048 tokens: 64 B to
4 KiB; lognormal lengths around 300 tokens, most short); a length table made with the data lets the main process
plan. The sampler sorts the documents by length and cuts the sorted list into batches whose
padded size (longest document x count) stays within 8,192 tokens, at most 64 documents, then
shuffles the order of those batches each epoch (seeded). So a batch is 4 long documents or 64
short ones: the batch size is not one number. Each document is read with np.fromfile in one of 2
workers (default prefetch, workers forked each epoch) and a collate_fn pads the batch. 3 epochs;
the model and optimizer are saved once at the end with torch.save (OUT/final.pt). The step's
compute (a sleep) is 4 ms + 2 ms per 1,000 padded tokens, as a transformer's grows with its
input.

The last stdout line is JSON: the ground truth.
"""
import argparse
import json
import math
import os
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, Sampler

VOCAB = 8000


def make(root, n, seed):
    rng = np.random.default_rng(seed)
    os.makedirs(os.path.join(root, "docs"), exist_ok=True)
    lengths = {}
    for i in range(n):
        length = int(np.clip(rng.lognormal(math.log(300), 0.9), 32, 2048))
        name = f"doc_{i:05d}.bin"
        rng.integers(1, VOCAB, length, dtype=np.uint16).tofile(os.path.join(root, "docs", name))
        lengths[name] = length
    with open(os.path.join(root, "lengths.json"), "w") as f:
        json.dump(lengths, f)


class Docs(Dataset):
    def __init__(self, root):
        self.dir = os.path.join(root, "docs")
        with open(os.path.join(root, "lengths.json")) as f:
            table = json.load(f)
        self.names = sorted(table)
        self.lengths = [table[n] for n in self.names]

    def __len__(self):
        return len(self.names)

    def __getitem__(self, i):
        return torch.from_numpy(np.fromfile(os.path.join(self.dir, self.names[i]), dtype=np.uint16)
                                .astype(np.int64))


class TokenBudgetBatches(Sampler):
    """Sorted by length, cut where the padded batch would pass max_tokens or max_docs; the
    order of the batches is shuffled every epoch."""

    def __init__(self, lengths, max_tokens, max_docs, seed):
        order = sorted(range(len(lengths)), key=lambda i: lengths[i])
        self.batches, batch, longest = [], [], 0
        for i in order:
            if batch and (max(longest, lengths[i]) * (len(batch) + 1) > max_tokens or len(batch) == max_docs):
                self.batches.append(batch)
                batch, longest = [], 0
            batch.append(i)
            longest = max(longest, lengths[i])
        if batch:
            self.batches.append(batch)
        self.seed, self.epoch = seed, 0

    def __iter__(self):
        rng = np.random.default_rng(self.seed + self.epoch)
        self.epoch += 1
        for k in rng.permutation(len(self.batches)):
            yield self.batches[k]

    def __len__(self):
        return len(self.batches)


def pad_collate(docs):
    out = torch.zeros(len(docs), max(len(d) for d in docs), dtype=torch.int64)
    for k, d in enumerate(docs):
        out[k, :len(d)] = d
    return out


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make")
    p.add_argument("--data")
    p.add_argument("--out")
    p.add_argument("--docs", type=int, default=1200)
    p.add_argument("--max-tokens", type=int, default=8192)
    p.add_argument("--max-docs", type=int, default=64)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)  # the compute is a stand-in (a sleep); keep the host free for the loader
    if a.make:
        make(a.make, a.docs, a.seed)
        return

    os.makedirs(a.out, exist_ok=True)
    ds = Docs(a.data)
    sampler = TokenBudgetBatches(ds.lengths, a.max_tokens, a.max_docs, a.seed)
    loader = DataLoader(ds, batch_sampler=sampler, num_workers=a.workers, collate_fn=pad_collate)
    # A bag of embeddings and a document-class head: the real cost is the sleep below.
    model = torch.nn.Sequential(torch.nn.EmbeddingBag(VOCAB, 32, mode="mean"), torch.nn.Linear(32, 8))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    steps, batch_sizes, compute = [], [], []
    t0 = time.monotonic()
    for epoch in range(a.epochs):
        n = 0
        for tokens in loader:
            loss = torch.nn.functional.cross_entropy(model(tokens), tokens[:, 0] % 8)
            opt.zero_grad()
            loss.backward()
            opt.step()
            c = 0.004 + 0.002 * tokens.numel() / 1000
            time.sleep(c)
            compute.append(c)
            batch_sizes.append(tokens.shape[0])
            n += 1
        steps.append(n)
        print(f"epoch {epoch}: {n} steps", flush=True)
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict()}, os.path.join(a.out, "final.pt"))
    wall = time.monotonic() - t0
    sizes = [os.path.getsize(os.path.join(ds.dir, n)) for n in ds.names]
    bs = np.array(batch_sizes)
    print(json.dumps({
        "program": "token_budget", "files": len(ds), "file_bytes_mean": float(np.mean(sizes)),
        "file_bytes_min": min(sizes), "file_bytes_max": max(sizes), "bytes_per_epoch": sum(sizes),
        "batches_per_epoch": len(sampler), "batch_size_min": int(bs.min()),
        "batch_size_max": int(bs.max()), "batch_size_mean": float(bs.mean()),
        "batch_size_median": float(np.median(bs)), "max_tokens": a.max_tokens,
        "workers": a.workers, "shuffle": "batch", "epochs": a.epochs, "steps_per_epoch": steps,
        "evals": 0, "checkpoints": 1, "checkpoint_bytes": os.path.getsize(os.path.join(a.out, "final.pt")),
        "compute_s_mean": float(np.mean(compute)), "compute_s_min": min(compute),
        "compute_s_max": max(compute), "wall_s": wall}))


if __name__ == "__main__":
    main()
