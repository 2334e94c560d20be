#!/usr/bin/python3
"""A map-style Dataset of .npy objects that fetches a whole batch at once: DataLoader hands each
worker the batch's indices through `__getitems__` (torch's batched fetch, as object-store datasets
use it to hide per-request latency), and the worker sends the batch's get_object calls through a
thread pool of its own, so several GETs of one worker are in flight together.

  batch_pool.py put BUCKET PREFIX     96 training arrays (PREFIX/train/NNNNN.npy, np.save of
                                      float32 3 x H x H, H 20-32, so their sizes vary) and 32
                                      validation arrays (PREFIX/val/)
  batch_pool.py train BUCKET PREFIX   list_objects_v2 of both prefixes, then 2 epochs:
                                      DataLoader(batch 16, shuffle, 2 workers), each worker a
                                      ThreadPoolExecutor of 8 threads, a linear model and a 20 ms
                                      sleep a step; after each epoch a validation pass over val/
                                      (batch 16, 2 workers, in order); no checkpoint

Prints its ground truth as one JSON line last, with the most GETs a worker had in flight at once.
"""
import io
import os
import sys
import threading

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "heldout"))
from s3_common import client, eval_pass, main, print_truth, put_all, train_epoch  # noqa: E402

TRAIN, VAL, BATCH, WORKERS, THREADS, EPOCHS, COMPUTE, SIDE = 96, 32, 16, 2, 8, 2, 0.02, 16


def npy(rng, side):
    out = io.BytesIO()
    np.save(out, rng.random((3, side, side), dtype=np.float32))
    return out.getvalue()


def put(a):
    rng = np.random.default_rng(11)
    put_all(a.bucket, {"%s/%s/%05d.npy" % (a.prefix, split, i): npy(rng, int(rng.integers(20, 33)))
                       for split, n in (("train", TRAIN), ("val", VAL)) for i in range(n)})


def listing(bucket, prefix):
    items = []
    for page in client().get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        items += [(o["Key"], o["Size"]) for o in page.get("Contents", [])]
    return items


def train(a):
    import multiprocessing
    from concurrent.futures import ThreadPoolExecutor

    import torch
    from torch.utils.data import DataLoader, Dataset
    torch.set_num_threads(1)
    peak = multiprocessing.Array("q", 1)  # most GETs one worker had in flight, over all workers

    class BatchedNpy(Dataset):
        pool = None  # one per worker process, made on its first batch (threads do not fork)

        def __init__(self, items):
            self.keys = [k for k, _ in items]
            self.inflight, self.lock = 0, threading.Lock()

        def __len__(self):
            return len(self.keys)

        def _get(self, i):
            with self.lock:
                self.inflight += 1
                with peak.get_lock():
                    peak[0] = max(peak[0], self.inflight)
            try:
                body = client().get_object(Bucket=a.bucket, Key=self.keys[i])["Body"].read()
            finally:
                with self.lock:
                    self.inflight -= 1
            x = torch.from_numpy(np.load(io.BytesIO(body)))
            return torch.nn.functional.adaptive_avg_pool2d(x, SIDE), i % 10

        def __getitems__(self, indices):
            if self.pool is None:
                self.lock = threading.Lock()
                self.pool = ThreadPoolExecutor(THREADS)
            return list(self.pool.map(self._get, indices))

        def __getitem__(self, i):
            return self._get(i)

    train_items = listing(a.bucket, a.prefix + "/train/")
    val_items = listing(a.bucket, a.prefix + "/val/")
    loader = DataLoader(BatchedNpy(train_items), batch_size=BATCH, shuffle=True,
                        num_workers=WORKERS)
    val_loader = DataLoader(BatchedNpy(val_items), batch_size=BATCH, num_workers=WORKERS)
    model = torch.nn.Linear(3 * SIDE * SIDE, 10)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    steps, evals = [], []
    for _ in range(EPOCHS):
        steps.append(train_epoch(loader, model, opt, COMPUTE))
        evals.append(eval_pass(val_loader, model))
    sizes = [s for _, s in train_items]
    print_truth("batch_pool", objects=len(train_items), samples=len(train_items),
                val_objects=len(val_items), val_bytes=sum(s for _, s in val_items),
                dataset_bytes=sum(sizes), object_bytes_min=min(sizes),
                object_bytes_max=max(sizes), gets_per_sample=1, ranged=False,
                gets=EPOCHS * (len(train_items) + len(val_items)), batch_size=BATCH,
                workers=WORKERS, threads_per_worker=THREADS, peak_inflight_per_worker=peak[0],
                shuffle="sample", epochs=EPOCHS, steps_per_epoch=steps,
                eval_steps_per_pass=evals, evals=len(evals), eval_every_epochs=1,
                compute_s=COMPUTE, checkpoints=0)


if __name__ == "__main__":
    sys.exit(main(__doc__, put, train))
