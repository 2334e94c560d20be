#!/usr/bin/python3
"""A PyTorch DataLoader whose Dataset reads its samples from an S3 store over plain HTTP (boto3).

Sample i is one ranged GET (Range: bytes=A-B) of object i % objects: bytes [(i // objects) *
range, ... + range) of it, so an object of `size` bytes holds size // range samples, each read
once an epoch. With --chunks K a sample is read as K ranged GETs of range / K bytes each, one
after the other (a reader that fetches a sample in pieces). DataLoader with --workers workers (each makes its own boto3 client: clients are not
fork-safe), --batch-size, a sleep of --compute seconds per step, --epochs epochs, samples in index
order. Endpoint and credentials from the AWS_* environment, path-style addressing (as
tests/s3/s3_check.py). dlgen's S3 capture test captures it, distils the job, replays it.

  s3_dataset.py put BUCKET PREFIX --objects N --size BYTES    write the objects first
  s3_dataset.py train BUCKET PREFIX [options]                  the training loop

Run with Debian's interpreter (/usr/bin/python3). `train` prints its ground truth as JSON on its
last line.
"""
import argparse
import json
import os
import sys
import time

import boto3
import botocore.config

_clients = {}


def client():
    """One boto3 client per process (a DataLoader worker is a forked process)."""
    pid = os.getpid()
    if pid not in _clients:
        _clients[pid] = boto3.client(
            "s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"],
            region_name=os.environ.get("AWS_REGION", "us-east-1"),
            config=botocore.config.Config(s3={"addressing_style": "path"}))
    return _clients[pid]


def key(prefix, i):
    return "%s/%05d.bin" % (prefix, i)


def put(a):
    s3 = client()
    body = bytes(i % 251 for i in range(a.size))
    for i in range(a.objects):
        s3.put_object(Bucket=a.bucket, Key=key(a.prefix, i), Body=body)


def train(a):
    import torch
    from torch.utils.data import DataLoader, Dataset

    per_object = a.size // a.range

    class S3Ranges(Dataset):
        def __len__(self):
            return a.objects * per_object

        def __getitem__(self, i):
            first = (i // a.objects) * a.range
            piece = a.range // a.chunks
            body = b""
            for c in range(a.chunks):
                at = first + c * piece
                r = client().get_object(Bucket=a.bucket, Key=key(a.prefix, i % a.objects),
                                        Range="bytes=%d-%d" % (at, at + piece - 1))
                body += r["Body"].read()
            return torch.frombuffer(bytearray(body), dtype=torch.uint8)

    loader = DataLoader(S3Ranges(), batch_size=a.batch_size, num_workers=a.workers,
                        shuffle=False)
    steps = 0
    for _ in range(a.epochs):
        for batch in loader:
            assert batch.shape == (a.batch_size, a.range), batch.shape
            time.sleep(a.compute)
            steps += 1
    print(json.dumps({"objects": a.objects, "object_size": a.size, "range": a.range,
                      "samples": a.objects * per_object, "batch_size": a.batch_size,
                      "workers": a.workers, "epochs": a.epochs, "steps": steps,
                      "chunks": a.chunks,
                      "compute_s": a.compute}))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("verb", choices=["put", "train"])
    p.add_argument("bucket")
    p.add_argument("prefix")
    p.add_argument("--objects", type=int, default=16)
    p.add_argument("--size", type=int, default=64 << 10)
    p.add_argument("--range", type=int, default=16 << 10)
    p.add_argument("--chunks", type=int, default=1)
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute", type=float, default=0.02)
    a = p.parse_args()
    (put if a.verb == "put" else train)(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
