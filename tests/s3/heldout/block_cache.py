#!/usr/bin/python3
"""A big object of fixed-size records read at random through an fsspec/s3fs-style buffered file:
opening it asks for its size (head_object, as s3fs's info()), and every read goes through a block
cache (fsspec's BlockCache: aligned blocks of 1 MiB fetched with one ranged get_object each, kept
LRU up to 32 blocks), so a block serves the many records it holds.

  block_cache.py put BUCKET PREFIX             PREFIX/records.bin: 1,024 records of 8 KiB (8 MiB)
  block_cache.py train BUCKET PREFIX --out DIR 2 epochs: DataLoader(batch 32, shuffle, 2 workers)
                                               over the records, each worker opening the object
                                               itself on its first record (the file object is
                                               per worker and not persistent: each epoch's workers
                                               start with an empty cache), a 15 ms sleep a step,
                                               the model torch.save'd to DIR/model.pt every epoch

Prints its ground truth as one JSON line last, with the GETs and bytes the caches fetched.
"""
import collections
import os
import sys
import time

from s3_common import client, main, print_truth

RECORD, RECORDS, BLOCK, MAXBLOCKS = 8 << 10, 1024, 1 << 20, 32
BATCH, WORKERS, EPOCHS, COMPUTE = 32, 2, 2, 0.015


def put(a):
    body = bytes(i % 251 for i in range(RECORD)) * RECORDS
    client().put_object(Bucket=a.bucket, Key=a.prefix + "/records.bin", Body=body)


class S3File:
    """A read-only file of one object: seek/read through an LRU cache of aligned blocks."""

    def __init__(self, bucket, key, counters):
        self.bucket, self.key, self.counters = bucket, key, counters
        self.size = client().head_object(Bucket=bucket, Key=key)["ContentLength"]
        self.blocks = collections.OrderedDict()
        self.pos = 0

    def seek(self, pos):
        self.pos = pos

    def _block(self, n):
        if n in self.blocks:
            self.blocks.move_to_end(n)
            return self.blocks[n]
        first, last = n * BLOCK, min(self.size, (n + 1) * BLOCK) - 1
        data = client().get_object(Bucket=self.bucket, Key=self.key,
                                   Range="bytes=%d-%d" % (first, last))["Body"].read()
        with self.counters.get_lock():
            self.counters[0] += 1
            self.counters[1] += len(data)
        self.blocks[n] = data
        if len(self.blocks) > MAXBLOCKS:
            self.blocks.popitem(last=False)
        return data

    def read(self, n):
        out = b""
        while n > 0 and self.pos < self.size:
            block = self._block(self.pos // BLOCK)
            piece = block[self.pos % BLOCK:self.pos % BLOCK + n]
            out += piece
            self.pos += len(piece)
            n -= len(piece)
        return out


def train(a):
    import multiprocessing
    import torch
    from torch.utils.data import DataLoader, Dataset
    torch.set_num_threads(1)
    counters = multiprocessing.Array("q", 2)  # GETs, bytes: shared with the forked workers

    class Records(Dataset):
        file = None

        def __len__(self):
            return RECORDS

        def __getitem__(self, i):
            if self.file is None:
                self.file = S3File(a.bucket, a.prefix + "/records.bin", counters)
            self.file.seek(i * RECORD)
            return torch.frombuffer(bytearray(self.file.read(RECORD)), dtype=torch.uint8)

    loader = DataLoader(Records(), batch_size=BATCH, shuffle=True, num_workers=WORKERS)
    model = torch.nn.Linear(RECORD, 4)
    os.makedirs(a.out, exist_ok=True)
    steps = []
    for _ in range(EPOCHS):
        n = 0
        for x in loader:
            model(x.float())
            time.sleep(COMPUTE)
            n += 1
        steps.append(n)
        torch.save(model.state_dict(), os.path.join(a.out, "model.pt"))
    print_truth("block_cache", objects=1, object_bytes=RECORD * RECORDS, samples=RECORDS,
                sample_bytes=RECORD, block_bytes=BLOCK, samples_per_block=BLOCK // RECORD,
                gets=counters[0], get_bytes=counters[1], heads=WORKERS * EPOCHS,
                batch_size=BATCH, workers=WORKERS, shuffle="sample", epochs=EPOCHS,
                steps_per_epoch=steps, evals=0, compute_s=COMPUTE, checkpoints=EPOCHS,
                checkpoint_bytes=os.path.getsize(os.path.join(a.out, "model.pt")),
                checkpoint_to="local file torch.save")


if __name__ == "__main__":
    sys.exit(main(__doc__, put, train, lambda p: p.add_argument("--out", default="out")))
