"""What the round-6 held-out programs measure about themselves and print as their ground truth:
the bytes each sample's load read (rchar of /proc/self/io around it, in the worker that loaded
it), steps and validation steps per pass, the compute of each training step (forward +
backward + optimizer step, timed around the calls; and their median) and the checkpoints written. The data loading
itself stays in each program; this is only the bookkeeping they share, and their command line."""
import argparse
import json
import os
import statistics
import time

import torch


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


def parse_args(epochs, batch, extra=()):
    """--make DIR (write the dataset and exit) or --data DIR --ckpt DIR [--epochs] [--batch]."""
    p = argparse.ArgumentParser()
    p.add_argument("--make", metavar="DIR", help="write the dataset into DIR and exit")
    p.add_argument("--data", metavar="DIR")
    p.add_argument("--ckpt", default="ckpt")
    p.add_argument("--epochs", type=int, default=epochs)
    p.add_argument("--batch", type=int, default=batch)
    for flag, default in extra:
        p.add_argument(flag, type=int, default=default)
    return p.parse_args()


class Truth:
    """A training run's own record. Batches are (inputs, labels, bytes read per sample)."""

    def __init__(self):
        self.computes, self.steps, self.eval_steps, self.checkpoints = [], [], [], []
        self.train_bytes, self.val_bytes, self.step = [], [], 0

    def train_epoch(self, model, opt, loss_fn, loader, after_step=None):
        model.train()
        self.steps.append(0)
        self.train_bytes.append(0)
        for x, y, nbytes in loader:
            self.train_bytes[-1] += int(nbytes.sum())
            t = time.perf_counter()
            opt.zero_grad()
            loss_fn(model(x), y).backward()
            opt.step()
            self.computes.append(time.perf_counter() - t)
            self.steps[-1] += 1
            self.step += 1
            if after_step:
                after_step(self.step)

    def eval_pass(self, model, loader):
        model.eval()
        self.eval_steps.append(0)
        self.val_bytes.append(0)
        with torch.no_grad():
            for x, _, nbytes in loader:
                self.val_bytes[-1] += int(nbytes.sum())
                model(x)
                self.eval_steps[-1] += 1

    def save(self, state, path, **when):
        torch.save(state, path)
        self.checkpoints.append({"path": os.path.basename(path), "bytes": os.path.getsize(path),
                                 **when})

    def print(self, program, **facts):
        print(json.dumps({
            "program": program, **facts, "steps_per_epoch": self.steps,
            "eval_steps_per_pass": self.eval_steps, "train_bytes_read_per_epoch": self.train_bytes,
            "val_bytes_read_per_pass": self.val_bytes, "checkpoints": self.checkpoints,
            "median_compute_s": statistics.median(self.computes),
            "computes_s": self.computes}))
