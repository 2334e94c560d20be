#!/usr/bin/python3
"""A token-stream training loop shaped like Karpathy's nanoGPT train.py (held-out program).

  nanogpt.py --make DIR                 # DIR/train.bin and DIR/val.bin: uint16 tokens (np.memmap)
  nanogpt.py --data DIR --out OUT       # train

No Dataset, no DataLoader: get_batch() maps the split's .bin afresh every call (nanoGPT does, "to
avoid a memory leak"), draws --batch-size random windows of --block-size + 1 tokens and stacks them,
all in the main process, so the reads are page faults of one mapped file at random offsets.
Every --eval-interval iterations (iteration 0 included, and the last) estimate_loss() runs
--eval-iters batches of each split (train, then val) and, after iteration 0, torch.save of the
model and the AdamW state goes to OUT/ckpt.pt (always_save_checkpoint). A small transformer-ish MLP
trains on the windows; a sleep per step stands in for the accelerator.

The last stdout line is JSON: the ground truth (files, iterations, windows, evals, checkpoints).
"""
import argparse
import json
import os
import time

import numpy as np
import torch
from torch import nn


def make(root, train_tokens, val_tokens, seed):
    os.makedirs(root, exist_ok=True)
    rng = np.random.default_rng(seed)
    for name, n in (("train.bin", train_tokens), ("val.bin", val_tokens)):
        arr = np.memmap(os.path.join(root, name), dtype=np.uint16, mode="w+", shape=(n,))
        arr[:] = rng.integers(0, 50257, size=n, dtype=np.uint16)
        arr.flush()
        del arr


class TinyLM(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, x, y):
        h = self.emb(x[:, -8:])  # the last positions only: a cheap step (the sleep is the accelerator)
        h = h + self.mlp(h)
        logits = self.head(h)
        return nn.functional.cross_entropy(logits.reshape(-1, logits.size(-1)), y[:, -8:].reshape(-1))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make")
    p.add_argument("--data")
    p.add_argument("--out", default="out")
    p.add_argument("--train-tokens", type=int, default=16 << 20)  # 32 MiB
    p.add_argument("--val-tokens", type=int, default=2 << 20)  # 4 MiB
    p.add_argument("--batch-size", type=int, default=12)
    p.add_argument("--block-size", type=int, default=256)
    p.add_argument("--max-iters", type=int, default=120)
    p.add_argument("--eval-interval", type=int, default=40)
    p.add_argument("--eval-iters", type=int, default=8)
    p.add_argument("--compute-ms", type=float, default=20.0)
    p.add_argument("--eval-compute-ms", type=float, default=5.0)
    p.add_argument("--seed", type=int, default=1337)
    a = p.parse_args()
    torch.set_num_threads(1)  # the compute is a stand-in (a sleep); keep the host free for the loader
    if a.make:
        make(a.make, a.train_tokens, a.val_tokens, a.seed)
        return

    torch.manual_seed(a.seed)
    os.makedirs(a.out, exist_ok=True)
    vocab = 4096  # the tokens are taken modulo this: a small head
    model = TinyLM(vocab, 64)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    batches = {"train": 0, "eval_train": 0, "eval_val": 0}  # get_batch calls by purpose

    def get_batch(split, purpose="train"):
        data = np.memmap(os.path.join(a.data, f"{split}.bin"), dtype=np.uint16, mode="r")
        ix = torch.randint(len(data) - a.block_size, (a.batch_size,))
        x = torch.stack([torch.from_numpy((data[i:i + a.block_size]).astype(np.int64)) for i in ix])
        y = torch.stack([torch.from_numpy((data[i + 1:i + 1 + a.block_size]).astype(np.int64)) for i in ix])
        batches[purpose] += 1
        return x % vocab, y % vocab

    @torch.no_grad()
    def estimate_loss():
        model.eval()
        out = {}
        for split in ("train", "val"):
            losses = torch.zeros(a.eval_iters)
            for k in range(a.eval_iters):
                x, y = get_batch(split, "eval_" + split)
                losses[k] = model(x, y).item()
                time.sleep(a.eval_compute_ms / 1000)
            out[split] = losses.mean().item()
        model.train()
        return out

    evals, checkpoints, ckpt_bytes, train_steps = 0, 0, 0, 0
    t0 = time.monotonic()
    x, y = get_batch("train")
    for it in range(a.max_iters + 1):
        if it % a.eval_interval == 0:
            losses = estimate_loss()
            evals += 1
            print(f"step {it}: train loss {losses['train']:.4f}, val loss {losses['val']:.4f}", flush=True)
            if it > 0:
                path = os.path.join(a.out, "ckpt.pt")
                torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "iter_num": it}, path)
                checkpoints += 1
                ckpt_bytes = os.path.getsize(path)
        if it == a.max_iters:
            break
        loss = model(x, y)
        x, y = get_batch("train")  # the next batch, while "the GPU" works on this one
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        time.sleep(a.compute_ms / 1000)
        train_steps += 1
    wall = time.monotonic() - t0

    sizes = {s: os.path.getsize(os.path.join(a.data, f"{s}.bin")) for s in ("train", "val")}
    print(json.dumps({
        "program": "nanogpt", "files": 2, "train_bin_bytes": sizes["train"], "val_bin_bytes": sizes["val"],
        "batch_size": a.batch_size, "window_bytes": 2 * (a.block_size + 1), "workers": 0,
        "train_steps": train_steps, "train_batches_read": batches["train"],
        "eval_train_batches_read": batches["eval_train"], "eval_val_batches_read": batches["eval_val"],
        "evals": evals,
        "eval_batches_per_eval": 2 * a.eval_iters, "checkpoints": checkpoints,
        "checkpoint_every_steps": a.eval_interval, "checkpoint_bytes": ckpt_bytes,
        "compute_s": a.compute_ms / 1000, "eval_compute_s": a.eval_compute_ms / 1000, "wall_s": wall}))


if __name__ == "__main__":
    main()
