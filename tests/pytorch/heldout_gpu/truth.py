"""Ground-truth instrumentation of the held-out GPU programs (prefetch_imagenet.py, lm_shards.py).

Not part of what the programs do for training: it only measures. The records have the keys
tests/pytorch/gpu_imagenet.py writes (tests/pytorch/README.md, "Ground truth"), so
bench/gpu/device_run.sh's summary code reads both.

- StepTimer: each step's compute as the device sees it. On CUDA two events on the current stream
  around the step, read only at the program's own synchronisations (so measuring changes nothing);
  on CPU the wall time of the step.
- Log: records kept in memory and written once, at exit, as JSON lines (no I/O in the traced run).
"""
import json
import sys
import time

import torch


def pick_device(name):
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    device = torch.device(name)
    if device.type == "cuda":
        if not torch.cuda.is_available():
            raise SystemExit(f"--device {name}: torch.cuda.is_available() is False")
        if device.index is None:
            device = torch.device("cuda", torch.cuda.current_device())
    return device


def device_info(device):
    info = {"device": str(device), "torch": torch.__version__}
    if device.type == "cuda":
        p = torch.cuda.get_device_properties(device)
        info.update(gpu=p.name, gpu_memory_bytes=p.total_memory, cuda=torch.version.cuda,
                    cudnn=torch.backends.cudnn.version(), gpu_count=torch.cuda.device_count())
    return info


class StepTimer:
    def __init__(self, device):
        self.cuda = device.type == "cuda"
        self.pending = []

    def start(self):
        if self.cuda:
            self._start = torch.cuda.Event(enable_timing=True)
            self._start.record()
        else:
            self._start = time.monotonic()

    def stop(self):
        if self.cuda:
            e = torch.cuda.Event(enable_timing=True)
            e.record()
            self.pending.append((self._start, e))
        else:
            self.pending.append(time.monotonic() - self._start)

    def resolve(self):
        """The times of the steps stopped since the last call, in order, in seconds."""
        if self.cuda:
            out = []
            for s, e in self.pending:
                e.synchronize()
                out.append(s.elapsed_time(e) / 1000.0)
        else:
            out = list(self.pending)
        self.pending = []
        return out


class Log:
    def __init__(self, path):
        self.path, self.records = path, []

    def add(self, event, **fields):
        self.records.append({"event": event, **fields})

    def write(self):
        text = "".join(json.dumps(r, sort_keys=True) + "\n" for r in self.records)
        if self.path:
            with open(self.path, "w") as f:
                f.write(text)
        else:
            sys.stderr.write(text)
            sys.stderr.flush()


def median(xs):
    xs = sorted(xs)
    if not xs:
        return None
    n = len(xs)
    return xs[n // 2] if n % 2 else 0.5 * (xs[n // 2 - 1] + xs[n // 2])
