#!/usr/bin/python3
"""WebDataset's pattern on S3 (issue 21): tar shards streamed by whole-object GETs over plain HTTP.

An IterableDataset whose DataLoader workers each take their own shards (shards[id::workers]), open
each with boto3's get_object and read its body lazily through `tarfile.open(fileobj=body,
mode="r|")` as they iterate: a sample is a group of adjacent members with the same key
(KEY.bin, KEY.cls), yielded as a uint8 tensor of the .bin's bytes. So one GET's body arrives in
bursts between the worker's batch handovers. Each DataLoader worker makes its own boto3 client
(clients are not fork-safe). Endpoint and credentials from the AWS_* environment, path-style
addressing (as tests/s3/s3_check.py). dlgen's S3 tests capture it, distil the job, replay it.

  s3_tar_shards.py put BUCKET PREFIX [--shards N --samples M --size BYTES]
  s3_tar_shards.py train BUCKET PREFIX [--workers W --batch-size B --epochs E --compute S]

Run with Debian's interpreter (/usr/bin/python3). `train` prints its ground truth as JSON on its
last line: shards, samples_per_shard, samples (an epoch), sample_size, batch_size, workers, epochs,
steps_per_epoch (list), steps, compute_s (the sleep of a step).
"""
import argparse
import io
import json
import sys
import tarfile
import time

from s3_dataset import client  # one boto3 client per process, from the AWS_* environment


def shard_key(prefix, s):
    return "%s/shard-%04d.tar" % (prefix, s)


def member(tf, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tf.addfile(info, io.BytesIO(data))


def put(a):
    """Shard s holds samples s*M .. s*M+M-1, each KEY.bin (--size bytes) and KEY.cls (its label)."""
    s3 = client()
    for s in range(a.shards):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tf:
            for i in range(a.samples):
                n = s * a.samples + i
                member(tf, "%06d.bin" % n, bytes((n + j) % 251 for j in range(a.size)))
                member(tf, "%06d.cls" % n, b"%d" % (n % 10))
        s3.put_object(Bucket=a.bucket, Key=shard_key(a.prefix, s), Body=buf.getvalue())


def samples_of(body):
    """(key, {extension: bytes}) per group of adjacent members with one key, read as a stream."""
    group, key = {}, None
    with tarfile.open(fileobj=body, mode="r|") as tf:
        for m in tf:
            k, ext = m.name.rsplit(".", 1)
            if key is not None and k != key:
                yield key, group
                group = {}
            key = k
            group[ext] = tf.extractfile(m).read()
    if key is not None:
        yield key, group


def train(a):
    import torch
    from torch.utils.data import DataLoader, IterableDataset, get_worker_info

    class S3TarShards(IterableDataset):
        def __iter__(self):
            wi = get_worker_info()
            for s in range(a.shards)[wi.id::wi.num_workers]:
                body = client().get_object(Bucket=a.bucket, Key=shard_key(a.prefix, s))["Body"]
                for _, g in samples_of(body):
                    yield torch.frombuffer(bytearray(g["bin"]), dtype=torch.uint8), int(g["cls"])
                body.close()

    loader = DataLoader(S3TarShards(), batch_size=a.batch_size, num_workers=a.workers)
    steps, samples, size = [], 0, 0
    for _ in range(a.epochs):
        n = 0
        for x, _ in loader:
            time.sleep(a.compute)
            n += 1
            samples += len(x)
            size = x.shape[1]
        steps.append(n)
    print(json.dumps({"shards": a.shards, "samples_per_shard": a.samples,
                      "samples": samples // a.epochs, "sample_size": size,
                      "batch_size": a.batch_size, "workers": a.workers, "epochs": a.epochs,
                      "steps_per_epoch": steps, "steps": sum(steps), "compute_s": a.compute}))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("verb", choices=["put", "train"])
    p.add_argument("bucket")
    p.add_argument("prefix")
    p.add_argument("--shards", type=int, default=8)
    p.add_argument("--samples", type=int, default=64, help="samples per shard")
    p.add_argument("--size", type=int, default=16 << 10, help="bytes of a sample's .bin")
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute", type=float, default=0.02, help="seconds of sleep a step")
    a = p.parse_args()
    (put if a.verb == "put" else train)(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
