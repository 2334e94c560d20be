#!/usr/bin/python3
"""WebDataset on S3: tar shards streamed by an IterableDataset. Each DataLoader worker takes its
own shards (shard list split by worker, shards reshuffled each epoch), get_object's each shard
and reads the streaming body with tarfile's "r|" mode, member after member, grouping a sample's
KEY.jpg and KEY.cls as WebDataset does; no shard is read twice in an epoch.

  tar_shards.py put BUCKET PREFIX     8 shards PREFIX/shards/train-000000.tar ..., each 24
                                      samples (a 48-80 px noise JPEG and its class as text)
  tar_shards.py train BUCKET PREFIX   2 epochs: DataLoader(batch 8, 2 workers) over the shards, a
                                      linear model and a 20 ms sleep a step; the model
                                      torch.save'd into memory and put_object as
                                      PREFIX/ckpt/latest.pt after every epoch

Prints its ground truth as one JSON line last.
"""
import io
import random
import sys
import tarfile

import numpy as np

from s3_common import (client, decode, jpeg, main, print_truth, put_all, put_checkpoint,
                       train_epoch)

SHARDS, PER_SHARD, BATCH, WORKERS, EPOCHS, COMPUTE = 8, 24, 8, 2, 2, 0.02


def shard_key(prefix, i):
    return "%s/shards/train-%06d.tar" % (prefix, i)


def put(a):
    rng = np.random.default_rng(4)
    shards = {}
    for s in range(SHARDS):
        out = io.BytesIO()
        with tarfile.open(fileobj=out, mode="w") as tar:
            for j in range(PER_SHARD):
                for ext, data in (("jpg", jpeg(rng, int(rng.integers(48, 81)))),
                                  ("cls", str(int(rng.integers(0, 10))).encode())):
                    info = tarfile.TarInfo("sample%06d.%s" % (s * PER_SHARD + j, ext))
                    info.size = len(data)
                    tar.addfile(info, io.BytesIO(data))
        shards[shard_key(a.prefix, s)] = out.getvalue()
    put_all(a.bucket, shards)


def train(a):
    import multiprocessing
    import torch
    from torch.utils.data import DataLoader, IterableDataset, get_worker_info
    torch.set_num_threads(1)
    fetched = multiprocessing.Array("q", SHARDS)  # each shard's bytes, from the forked workers

    class TarShards(IterableDataset):
        def __init__(self):
            self.epoch = 0

        def __iter__(self):
            info = get_worker_info()
            order = list(range(SHARDS))
            random.Random(self.epoch).shuffle(order)
            for s in order[info.id::info.num_workers]:
                r = client().get_object(Bucket=a.bucket, Key=shard_key(a.prefix, s))
                fetched[s] = r["ContentLength"]
                body = r["Body"]
                sample = {}
                with tarfile.open(fileobj=body, mode="r|") as tar:
                    for member in tar:
                        _, ext = member.name.rsplit(".", 1)
                        sample[ext] = tar.extractfile(member).read()
                        if len(sample) == 2:
                            yield decode(sample["jpg"], 48), int(sample["cls"])
                            sample = {}

    data = TarShards()
    loader = DataLoader(data, batch_size=BATCH, num_workers=WORKERS)
    model = torch.nn.Linear(3 * 48 * 48, 10)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    steps, ckpt_bytes = [], 0
    for epoch in range(EPOCHS):
        data.epoch = epoch
        steps.append(train_epoch(loader, model, opt, COMPUTE))
        ckpt_bytes = put_checkpoint(a.bucket, a.prefix + "/ckpt/latest.pt", model)
    sizes = list(fetched)
    print_truth("tar_shards", objects=SHARDS, shard_bytes=sum(sizes), shard_bytes_min=min(sizes),
                shard_bytes_max=max(sizes), samples=SHARDS * PER_SHARD,
                samples_per_shard=PER_SHARD, gets_per_shard=1, batch_size=BATCH,
                workers=WORKERS, shuffle="file", epochs=EPOCHS, steps_per_epoch=steps, evals=0,
                compute_s=COMPUTE, checkpoints=EPOCHS, checkpoint_bytes=ckpt_bytes,
                checkpoint_to="s3 put_object")


if __name__ == "__main__":
    sys.exit(main(__doc__, put, train))
