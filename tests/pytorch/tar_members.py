#!/usr/bin/env python3
"""An IterableDataset over Python's tarfile (issue 18): tar shards of .npy members, each DataLoader
worker opening its own shards with tarfile.open (random access: the open probes each compression,
each probe an open of its own) and iterating the members, np.load of each member.

    tar_members.py make DIR [--shards 8] [--samples 100]
    tar_members.py DIR [--workers 2] [--batch-size 32] [--epochs 2] [--compute 0.01]

The last stdout line is the ground truth, JSON: steps_per_epoch (list), batch_size, workers, epochs,
shards, samples_per_shard, samples (per epoch).
"""
import argparse
import io
import json
import os
import tarfile
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info


def make(d, shards, samples):
    """Deterministic shards: member i of shard s is a float32 array of 16-48 rows x 64."""
    os.makedirs(d, exist_ok=True)
    rng = np.random.default_rng(1)
    for s in range(shards):
        with tarfile.open(os.path.join(d, "shard-%04d.tar" % s), "w") as tf:
            for i in range(samples):
                buf = io.BytesIO()
                np.save(buf, rng.random((int(rng.integers(16, 49)), 64), dtype=np.float32))
                info = tarfile.TarInfo("%04d_%06d.npy" % (s, i))
                info.size = buf.tell()
                buf.seek(0)
                tf.addfile(info, buf)


class Shards(IterableDataset):
    def __init__(self, d):
        self.paths = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".tar"))

    def __iter__(self):
        wi = get_worker_info()
        for p in self.paths[wi.id::wi.num_workers]:  # each worker its own shards
            with tarfile.open(p) as tf:
                for m in tf:
                    a = np.load(io.BytesIO(tf.extractfile(m).read()))
                    yield torch.from_numpy(a[:16].copy())


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir")
    p.add_argument("more", nargs="?")
    p.add_argument("--shards", type=int, default=8)
    p.add_argument("--samples", type=int, default=100, help="members per shard")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute", type=float, default=0.01, help="seconds of sleep a step")
    a = p.parse_args()
    if a.dir == "make":
        make(a.more, a.shards, a.samples)
        return
    ds = Shards(a.dir)
    steps, samples = [], 0
    for _ in range(a.epochs):
        n = 0
        for x in DataLoader(ds, batch_size=a.batch_size, num_workers=a.workers):
            time.sleep(a.compute)
            n += 1
            samples += len(x)
        steps.append(n)
    per_shard = samples // a.epochs // len(ds.paths)
    print(json.dumps({"steps_per_epoch": steps, "batch_size": a.batch_size, "workers": a.workers,
                      "epochs": a.epochs, "shards": len(ds.paths), "samples_per_shard": per_shard,
                      "samples": samples // a.epochs}))


if __name__ == "__main__":
    main()
