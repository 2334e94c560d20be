#!/usr/bin/python3
"""A GPT-style language-model trainer over uint16 token shards (held-out program).

  make_data.py --shards DATA --scale gpu
  lm_shards.py DATA --device cuda --size gpu -j 4 -b 24 --block 1024 --accum 4 --epochs 2 --out OUT

DATA/train/shard_*.bin and DATA/val/shard_*.bin hold uint16 tokens; DATA/meta.json the vocabulary
size. A map-style Dataset opens each shard with np.memmap lazily, in the worker that first needs it,
and returns the window of --block + 1 tokens an index names (index -> shard, offset); a RandomSampler
with replacement draws --samples-per-epoch indices an epoch, so windows are random. DataLoader with
workers and pin_memory (CUDA); x and y go to the device with non_blocking=True.

Gradient accumulation: one DataLoader batch is a micro-step; every --accum micro-steps the optimizer
steps (the count runs across epochs). torch.autocast (--dtype bfloat16 by default; float16 adds a
GradScaler). A small GPT (--size tiny|small|gpu: layers, width, heads). Every --eval-every optimizer
steps an evaluation of --eval-iters batches from the val shards (a DataLoader over them with its own
random sampler), and every --ckpt-every optimizer steps torch.save of model + AdamW state to
OUT/ckpt.pt (overwritten). The CPU runs ahead of the GPU: the only synchronisations are loss.item()
every --log-every micro-steps, the evaluation's mean loss and the checkpoint's copy to the CPU.

Ground truth: JSON lines at exit to --log FILE (or stderr), README.md here.
"""
import argparse
import glob
import json
import math
import os
import sys
import time

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F
from torch.utils.data import DataLoader, Dataset, RandomSampler

# The ground-truth instrumentation (step timer, log) of the other GPU programs: measuring, not training.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import gpu_models as truth  # noqa: E402

SIZES = {  # layers, width, heads
    "tiny": (2, 64, 4),
    "small": (4, 256, 4),
    "gpu": (8, 512, 8),
}


class TokenShards(Dataset):
    def __init__(self, pattern, block):
        self.paths = sorted(glob.glob(pattern))
        if not self.paths:
            raise SystemExit(f"lm_shards.py: no shards match {pattern}")
        self.block = block
        sizes = [os.path.getsize(p) // 2 for p in self.paths]
        self.windows = [max(0, n - block - 1) for n in sizes]  # start offsets per shard
        if sum(self.windows) == 0:
            raise SystemExit(f"lm_shards.py: {pattern}: shards shorter than --block {block} + 1 tokens")
        self.starts = np.cumsum([0] + self.windows)
        self.maps = {}  # per process: opened on first use, after the fork

    def __len__(self):
        return int(self.starts[-1])

    def __getitem__(self, i):
        s = int(np.searchsorted(self.starts, i, side="right")) - 1
        off = i - int(self.starts[s])
        m = self.maps.get(s)
        if m is None:
            m = self.maps[s] = np.memmap(self.paths[s], dtype=np.uint16, mode="r")
        w = torch.from_numpy(m[off:off + self.block + 1].astype(np.int64))
        return w[:-1], w[1:]


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def attend(self, x):
        b, t, d = x.shape
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in self.qkv(x).split(d, 2))
        if hasattr(F, "scaled_dot_product_attention"):  # torch >= 2.0: flash / memory-efficient kernels
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            att = (q @ k.transpose(-2, -1)) / math.sqrt(k.size(-1))
            mask = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
            y = att.masked_fill(~mask, float("-inf")).softmax(-1) @ v
        return self.proj(y.transpose(1, 2).reshape(b, t, d))

    def forward(self, x):
        x = x + self.attend(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, vocab, block, layers, d, heads):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(block, d)
        self.blocks = nn.ModuleList(Block(d, heads) for _ in range(layers))
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.tok.weight  # weight tying, as GPT-2
        for m in self.modules():  # GPT-2's initialisation (N(0, 1) embeddings make huge tied logits)
            if isinstance(m, (nn.Linear, nn.Embedding)):
                nn.init.normal_(m.weight, 0.0, 0.02)
            if isinstance(m, nn.Linear) and m.bias is not None:
                nn.init.zeros_(m.bias)

    def forward(self, idx, targets):
        pos = torch.arange(idx.size(1), device=idx.device)
        x = self.tok(idx) + self.pos(pos)
        for b in self.blocks:
            x = b(x)
        logits = self.head(self.ln(x))
        return F.cross_entropy(logits.view(-1, logits.size(-1)).float(), targets.reshape(-1))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("data", help="folder with train/shard_*.bin, val/shard_*.bin and meta.json")
    p.add_argument("--device", default="auto")
    p.add_argument("--size", default="small", choices=SIZES)
    p.add_argument("-j", "--workers", type=int, default=4)
    p.add_argument("-b", "--batch-size", type=int, default=16, help="windows per micro-step")
    p.add_argument("--block", type=int, default=256, help="tokens per window (context length)")
    p.add_argument("--accum", type=int, default=4, help="micro-steps per optimizer step")
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--samples-per-epoch", type=int, help="windows the sampler draws an epoch "
                   "(default: 20 optimizer steps' worth)")
    p.add_argument("--eval-every", type=int, default=10, help="optimizer steps between evaluations")
    p.add_argument("--eval-iters", type=int, default=10, help="val batches an evaluation")
    p.add_argument("--ckpt-every", type=int, default=20, help="optimizer steps between checkpoints")
    p.add_argument("--log-every", type=int, default=10, help="loss.item() every N micro-steps")
    p.add_argument("--dtype", default="bfloat16", choices=("bfloat16", "float16", "float32"))
    p.add_argument("--lr", type=float, default=6e-4)
    p.add_argument("--out", default="out")
    p.add_argument("--log")
    p.add_argument("--seed", type=int, default=1337)
    a = p.parse_args()
    if a.samples_per_epoch is None:
        a.samples_per_epoch = 20 * a.accum * a.batch_size
    for k in ("workers", "batch_size", "block", "accum", "epochs", "samples_per_epoch", "eval_every",
              "eval_iters", "ckpt_every", "log_every"):
        if getattr(a, k) < 1:
            p.error(f"--{k.replace('_', '-')} must be at least 1")
    return a


class Trainer:
    def __init__(self, a):
        self.a = a
        self.log = truth.Log(a.log)
        self.device = truth.pick_device(a.device)
        self.cuda = self.device.type == "cuda"
        torch.manual_seed(a.seed)
        if self.cuda:
            torch.cuda.set_device(self.device)
            torch.backends.cuda.matmul.allow_tf32 = True
        with open(os.path.join(a.data, "meta.json")) as f:
            self.vocab = json.load(f)["vocab_size"]
        self.train_set = TokenShards(os.path.join(a.data, "train", "shard_*.bin"), a.block)
        self.val_set = TokenShards(os.path.join(a.data, "val", "shard_*.bin"), a.block)
        layers, d, heads = SIZES[a.size]
        vocab = (self.vocab + 63) // 64 * 64  # nanoGPT pads 50257 to 50304
        self.model = GPT(vocab, a.block, layers, d, heads).to(self.device)
        self.params = sum(p.numel() for p in self.model.parameters())
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=a.lr, betas=(0.9, 0.95), weight_decay=0.1)
        self.dtype = getattr(torch, a.dtype)
        self.scaler = truth.grad_scaler(self.device, a.dtype == "float16")
        loader = dict(batch_size=a.batch_size, num_workers=a.workers, pin_memory=self.cuda)
        self.train_loader = DataLoader(self.train_set, sampler=RandomSampler(
            self.train_set, replacement=True, num_samples=a.samples_per_epoch,
            generator=torch.Generator().manual_seed(a.seed)), **loader)
        self.val_loader = DataLoader(self.val_set, sampler=RandomSampler(
            self.val_set, replacement=True, num_samples=a.eval_iters * a.batch_size,
            generator=torch.Generator().manual_seed(a.seed + 1)), **loader)
        self.timer = truth.StepTimer(self.device)
        self.micro = self.opt_steps = 0
        self.steps_per_epoch, self.val_passes = [], []
        self.compute = {"train": [], "val": []}
        self.waits, self.saved, self.evals = [], [], []
        self.recs = []  # training step records waiting for their compute times

    def autocast(self):
        return torch.autocast(self.device.type, dtype=self.dtype, enabled=self.dtype != torch.float32)

    def to_device(self, x, y):
        if self.cuda:  # pinned by the DataLoader: asynchronous copies
            return x.to(self.device, non_blocking=True), y.to(self.device, non_blocking=True)
        return x, y

    def train_epoch(self, epoch):
        self.model.train()
        t_pass = time.monotonic()
        i = 0
        for (x, y), t0, t1 in truth.timed(self.train_loader):
            self.timer.start()
            x, y = self.to_device(x, y)
            with self.autocast():
                loss = self.model(x, y) / self.a.accum
            self.scaler.scale(loss).backward()
            self.micro += 1
            last = self.micro % self.a.accum == 0
            if last:
                self.scaler.unscale_(self.optimizer)
                nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
                self.scaler.step(self.optimizer)
                self.scaler.update()
                self.optimizer.zero_grad(set_to_none=True)
                self.opt_steps += 1
            self.timer.stop()
            if self.micro % self.a.log_every == 0:
                print(f"epoch {epoch} micro {self.micro} step {self.opt_steps} loss "
                      f"{loss.item() * self.a.accum:.4f}", flush=True)
            t2 = time.monotonic()
            self.recs.append({"epoch": epoch, "phase": "train", "step": i, "micro_step": self.micro - 1,
                              "optimizer_step": last, "t_ready_ns": int(t1 * 1e9), "data_wait_s": t1 - t0,
                              "cpu_s": t2 - t1})
            self.waits.append(t1 - t0)
            i += 1
            if last and self.opt_steps % self.a.eval_every == 0:
                self.evaluate(epoch)
            if last and self.opt_steps % self.a.ckpt_every == 0:
                self.checkpoint(epoch)
        self.flush_steps()
        self.steps_per_epoch.append(i)
        self.log.add("epoch", epoch=epoch, phase="train", steps=i, seconds=time.monotonic() - t_pass,
                     optimizer_steps=self.opt_steps)

    def flush_steps(self):
        """Training records get their compute times (waits for the GPU only where it is behind)."""
        for r, c in zip(self.recs, self.timer.resolve()):
            r["compute_s"] = c
            self.compute["train"].append(c)
            self.log.add("step", **r)
        self.recs = []

    @torch.no_grad()
    def evaluate(self, epoch):
        self.flush_steps()  # the pending training events, before the evaluation's own
        self.model.eval()
        t_pass = time.monotonic()
        losses, recs = [], []
        i = 0
        for (x, y), t0, t1 in truth.timed(self.val_loader):
            self.timer.start()
            x, y = self.to_device(x, y)
            with self.autocast():
                losses.append(self.model(x, y))
            self.timer.stop()
            recs.append({"epoch": epoch, "phase": "val", "step": i, "after_optimizer_step": self.opt_steps,
                         "t_ready_ns": int(t1 * 1e9), "data_wait_s": t1 - t0, "cpu_s": time.monotonic() - t1})
            i += 1
        val_loss = torch.stack(losses).mean().item()  # the evaluation's synchronisation
        for r, c in zip(recs, self.timer.resolve()):
            r["compute_s"] = c
            self.compute["val"].append(c)
            self.log.add("step", **r)
        self.val_passes.append(i)
        self.evals.append(self.opt_steps)
        self.log.add("epoch", epoch=epoch, phase="val", steps=i, seconds=time.monotonic() - t_pass,
                     loss=val_loss, after_optimizer_step=self.opt_steps)
        print(f"step {self.opt_steps}: val loss {val_loss:.4f}", flush=True)
        self.model.train()

    def checkpoint(self, epoch):
        self.flush_steps()  # torch.save copies the state to the CPU: it waits for the GPU anyway
        os.makedirs(self.a.out, exist_ok=True)
        path = os.path.join(self.a.out, "ckpt.pt")
        t0 = time.monotonic()
        torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                    "iter_num": self.opt_steps, "config": vars(self.a)}, path)
        rec = {"epoch": epoch, "optimizer_step": self.opt_steps, "path": path, "bytes": os.path.getsize(path),
               "seconds": time.monotonic() - t0, "kind": "torch.save"}
        self.saved.append(rec)
        self.log.add("checkpoint", **rec)

    def summary(self, t_origin):
        a = self.a
        self.log.add(
            "summary", program="lm_shards", size=a.size, params=self.params, vocab=self.vocab, block=a.block,
            dtype=a.dtype, amp=a.dtype != "float32", pin_memory=self.cuda, sync_every_step=False,
            batch_size=a.batch_size, workers=a.workers, epochs=a.epochs, accum=a.accum,
            micro_batches_per_optimizer_step=a.accum, step_unit="micro-batch (one DataLoader batch)",
            samples_per_epoch=a.samples_per_epoch, train_samples=a.samples_per_epoch,
            val_samples=a.eval_iters * a.batch_size, sampler="RandomSampler(replacement=True)",
            train_shards=len(self.train_set.paths), val_shards=len(self.val_set.paths),
            steps_per_epoch=self.steps_per_epoch, val_steps_per_pass=self.val_passes,
            steps=sum(self.steps_per_epoch), val_steps=sum(self.val_passes), optimizer_steps=self.opt_steps,
            eval_every=a.eval_every, eval_iters=a.eval_iters, evals_after_optimizer_steps=self.evals,
            drop_last=False, ckpt_every=a.ckpt_every, checkpoint_bytes=sum(c["bytes"] for c in self.saved),
            checkpoints=len(self.saved), compute_median_s=truth.median(self.compute["train"]),
            val_compute_median_s=truth.median(self.compute["val"]),
            data_wait_median_s=truth.median(self.waits), wall_s=time.monotonic() - t_origin,
            **truth.device_info(self.device))


def main():
    t_origin = time.monotonic()
    a = parse_args()
    t = Trainer(a)
    for epoch in range(a.epochs):
        t.train_epoch(epoch)
    t.summary(t_origin)
    t.log.write()


if __name__ == "__main__":
    main()
