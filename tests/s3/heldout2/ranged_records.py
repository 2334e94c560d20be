#!/usr/bin/python3
"""Fixed-size records packed into big objects, read by an IterableDataset in fixed Range GETs:
the main process lists the prefix, each DataLoader worker takes its share of the objects
(get_worker_info: every N-th of the epoch's shuffled list) and reads each object front to back in
ranged get_object calls of 256 KiB, yielding the records each range holds in a shuffled order (a
shuffle buffer of one range), as loaders of packed record files (tokenised text, fixed-size
feature vectors) read from a store without a filesystem.

  ranged_records.py put BUCKET PREFIX     4 objects of 3 MiB (PREFIX/part-NNNNN.bin), each 192
                                          records of 16 KiB (768 records)
  ranged_records.py train BUCKET PREFIX   2 epochs: DataLoader(batch 32, 2 workers) over the
                                          IterableDataset, the object list reshuffled each epoch
                                          (seeded by the epoch), a linear model and a 10 ms sleep
                                          a step; no validation, no checkpoint

Prints its ground truth as one JSON line last, with the GETs and bytes the workers fetched.
"""
import os
import random
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "heldout"))
from s3_common import client, main, print_truth, train_step  # noqa: E402

RECORD, RECORDS, OBJECTS, RANGE = 16 << 10, 192, 4, 256 << 10
BATCH, WORKERS, EPOCHS, COMPUTE = 32, 2, 2, 0.01


def put(a):
    rng = np.random.default_rng(12)
    for i in range(OBJECTS):
        body = rng.integers(0, 256, size=RECORD * RECORDS, dtype=np.uint8).tobytes()
        client().put_object(Bucket=a.bucket, Key="%s/part-%05d.bin" % (a.prefix, i), Body=body)


def train(a):
    import multiprocessing

    import torch
    from torch.utils.data import DataLoader, IterableDataset, get_worker_info
    torch.set_num_threads(1)
    counters = multiprocessing.Array("q", 2)  # GETs, bytes: shared with the forked workers

    class RangedRecords(IterableDataset):
        def __init__(self, items):
            self.items, self.epoch = items, 0

        def _ranges(self, key, size):
            for first in range(0, size, RANGE):
                last = min(size, first + RANGE) - 1
                data = client().get_object(Bucket=a.bucket, Key=key,
                                           Range="bytes=%d-%d" % (first, last))["Body"].read()
                with counters.get_lock():
                    counters[0] += 1
                    counters[1] += len(data)
                yield data

        def __iter__(self):
            info = get_worker_info()
            items = list(self.items)
            random.Random(self.epoch).shuffle(items)
            rng = random.Random(1000 * self.epoch + info.id)
            for key, size in items[info.id::info.num_workers]:
                for data in self._ranges(key, size):
                    order = list(range(len(data) // RECORD))
                    rng.shuffle(order)
                    for r in order:
                        rec = np.frombuffer(data, dtype=np.uint8, count=RECORD, offset=r * RECORD)
                        yield torch.from_numpy(rec[:1024].astype(np.float32)), int(rec[0]) % 10

    pages = client().get_paginator("list_objects_v2").paginate(Bucket=a.bucket,
                                                               Prefix=a.prefix + "/part-")
    items = [(o["Key"], o["Size"]) for page in pages for o in page.get("Contents", [])]
    dataset = RangedRecords(items)
    loader = DataLoader(dataset, batch_size=BATCH, num_workers=WORKERS)
    model = torch.nn.Linear(1024, 10)
    opt = torch.optim.SGD(model.parameters(), lr=0.001)
    steps = []
    for epoch in range(EPOCHS):
        dataset.epoch = epoch  # the workers fork at the epoch's start and see it
        n = 0
        for x, y in loader:
            train_step(model, opt, x / 255.0, y, COMPUTE)
            n += 1
        steps.append(n)
    size = sum(s for _, s in items)
    print_truth("ranged_records", objects=len(items), object_bytes=size // len(items),
                dataset_bytes=size, samples=size // RECORD, samples_per_object=RECORDS,
                sample_bytes=RECORD, range_bytes=RANGE, gets=counters[0], get_bytes=counters[1],
                gets_per_object=-(-(size // len(items)) // RANGE), batch_size=BATCH,
                workers=WORKERS, shuffle="objects each epoch, records within a range",
                epochs=EPOCHS, steps_per_epoch=steps, evals=0, compute_s=COMPUTE, checkpoints=0)


if __name__ == "__main__":
    sys.exit(main(__doc__, put, train))
