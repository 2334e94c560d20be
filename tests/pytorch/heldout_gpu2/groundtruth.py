"""The ground-truth bookkeeping the three programs here share (README.md, "Ground truth"): a timed
DataLoader iterator, per-step compute times (gpu_models.StepTimer: CUDA events on CUDA, wall time on
CPU), pass counts, checkpoints, and the summary, written as JSON lines at exit to --log and printed
last on stdout as one JSON object starting with "program" (what tests/support/heldout_program.hpp
reads). Measuring, not training: nothing here reads or writes during the run.
"""
import argparse
import json
import os
import random
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import gpu_models as truth  # noqa: E402  (StepTimer, Log, pick_device, device_info, median)


def parser(doc, data_help, seed):
    """The options every program here has: DATA, --make DIR, --device, --log, --seed."""
    p = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("data", nargs="?", help=data_help)
    p.add_argument("--make", metavar="DIR", help="only write the program's cpu-scale dataset to DIR (make_data.py)")
    p.add_argument("--device", default="auto")
    p.add_argument("--log", help="the ground-truth JSON lines (default: stderr)")
    p.add_argument("--seed", type=int, default=seed)
    return p


def args_or_make(p, argv, dataset):
    """The parsed options; with --make DIR, make_data.py's DATASET written to DIR and exit."""
    a = p.parse_args(argv)
    if a.make:
        import make_data
        print(json.dumps(make_data.make(**{dataset: a.make})))
        raise SystemExit(0)
    if not a.data:
        p.error("give DATA or --make DIR")
    return a


class Program:
    """What each program's Trainer starts with: options, device, ground truth, seeds."""

    def __init__(self, a):
        self.a = a
        self.device = truth.pick_device(a.device)
        self.cuda = self.device.type == "cuda"
        self.T = Truth(self.device, a.log)
        random.seed(a.seed)
        torch.manual_seed(a.seed)


timed = truth.timed  # the loader's batches with the times around each next()


class Truth:
    def __init__(self, device, log_path):
        self.t_origin = time.monotonic()
        self.device = device
        self.timer = truth.StepTimer(device)
        self.log = truth.Log(log_path)
        self.pending = []  # step records waiting for their compute times
        self.compute = {"train": [], "val": []}
        self.waits = []
        self.passes = {"train": [], "val": []}  # steps of each pass
        self.saved = []  # checkpoint records
        self.removed = []

    def start(self):
        self.timer.start()

    def stop(self, epoch, phase, step, t0, t1, **extra):
        """Ends the step the loop got at t1 (its DataLoader call began at t0)."""
        self.timer.stop()
        if phase == "train":
            self.waits.append(t1 - t0)
        self.pending.append({"epoch": epoch, "phase": phase, "step": step, "t_ready_ns": int(t1 * 1e9),
                             "data_wait_s": t1 - t0, "cpu_s": time.monotonic() - t1, **extra})

    def flush(self):
        """Pending steps get their compute times (on CUDA: waits for those events only)."""
        for r, c in zip(self.pending, self.timer.resolve()):
            r["compute_s"] = c
            self.compute[r["phase"]].append(c)
            self.log.add("step", **r)
        self.pending = []

    def end_pass(self, epoch, phase, steps, t_pass, **extra):
        self.flush()
        self.passes[phase].append(steps)
        self.log.add("epoch", epoch=epoch, phase=phase, steps=steps, seconds=time.monotonic() - t_pass, **extra)

    def checkpoint(self, **rec):
        self.saved.append(rec)
        self.log.add("checkpoint", **rec)

    def checkpoint_removed(self, **rec):
        self.removed.append(rec)
        self.log.add("checkpoint_removed", **rec)

    def finish(self, program, **fields):
        """The summary record (common keys, then the program's), the log written, the stdout line."""
        s = {"program": program, "steps_per_epoch": self.passes["train"], "val_steps_per_pass": self.passes["val"],
             "steps": sum(self.passes["train"]), "val_steps": sum(self.passes["val"]),
             "eval_passes": len(self.passes["val"]),
             "checkpoint_bytes": sum(c["bytes"] for c in self.saved),
             "checkpoint_files": sum(c.get("files", 1) for c in self.saved),
             "checkpoints": len(self.saved), "checkpoints_removed": len(self.removed),
             "checkpoint_size_bytes": self.saved[0]["bytes"] if self.saved else 0,
             "final_model_bytes": self.saved[-1]["bytes"] if self.saved else 0,
             "compute_median_s": truth.median(self.compute["train"]),
             "compute_mean_s": sum(self.compute["train"]) / max(1, len(self.compute["train"])),
             "val_compute_median_s": truth.median(self.compute["val"]),
             "data_wait_median_s": truth.median(self.waits), "wall_s": time.monotonic() - self.t_origin}
        s.update(fields)
        s.update(truth.device_info(self.device))
        self.log.add("summary", **s)
        self.log.write()
        print(json.dumps(s), flush=True)  # "program" first: the line heldout_program.hpp takes


def dir_bytes(path):
    """Bytes of the regular files under path (a checkpoint directory), and how many there are."""
    total = n = 0
    for root, _, files in os.walk(path):
        for name in files:
            total += os.path.getsize(os.path.join(root, name))
            n += 1
    return total, n
