#!/usr/bin/python3
"""A map-style Dataset over an S3 listing, as s3torchconnector's S3MapDataset.from_prefix builds
it: the main process lists the prefix (list_objects_v2, paginated) into the sample list at start,
and each sample is one whole-object get_object of a JPEG, decoded with PIL.

  map_listing.py put BUCKET PREFIX     64 training JPEGs (PREFIX/train/) of 40-72 px noise, so
                                       their sizes vary, and 16 validation JPEGs (PREFIX/val/)
  map_listing.py train BUCKET PREFIX   2 epochs: DataLoader(batch 8, shuffle, 2 workers), a tiny
                                       linear model and a 20 ms sleep a step; after each epoch a
                                       validation pass (batch 8, 2 workers, in order) and the
                                       model's state_dict torch.save'd into memory and put_object
                                       as PREFIX/ckpt/epoch_N.pt

The listing pages hold 25 keys (PaginationConfig PageSize), standing in for the 1000-key pages of
a large prefix. Prints its ground truth as one JSON line last.
"""
import sys

import numpy as np

from s3_common import (client, decode, eval_pass, jpeg, main, print_truth, put_all,
                       put_checkpoint, train_epoch)

TRAIN, VAL, BATCH, WORKERS, EPOCHS, COMPUTE, PAGE = 64, 16, 8, 2, 2, 0.02, 25


def put(a):
    rng = np.random.default_rng(1)
    put_all(a.bucket, {"%s/%s/img_%05d.jpg" % (a.prefix, split, i):
                       jpeg(rng, int(rng.integers(40, 73)))
                       for split, n in (("train", TRAIN), ("val", VAL)) for i in range(n)})


def list_prefix(bucket, prefix):
    """(key, size) of every object under prefix, and the pages it took."""
    pages = client().get_paginator("list_objects_v2").paginate(
        Bucket=bucket, Prefix=prefix, PaginationConfig={"PageSize": PAGE})
    items, n = [], 0
    for page in pages:
        n += 1
        items += [(o["Key"], o["Size"]) for o in page.get("Contents", [])]
    return items, n


def train(a):
    import torch
    from torch.utils.data import DataLoader, Dataset
    torch.set_num_threads(1)

    class S3MapDataset(Dataset):
        def __init__(self, items):
            self.keys = [k for k, _ in items]

        def __len__(self):
            return len(self.keys)

        def __getitem__(self, i):
            body = client().get_object(Bucket=a.bucket, Key=self.keys[i])["Body"].read()
            return decode(body), i % 10

    train_items, train_pages = list_prefix(a.bucket, a.prefix + "/train/")
    val_items, val_pages = list_prefix(a.bucket, a.prefix + "/val/")
    loader = DataLoader(S3MapDataset(train_items), batch_size=BATCH, shuffle=True,
                        num_workers=WORKERS)
    val_loader = DataLoader(S3MapDataset(val_items), batch_size=BATCH, num_workers=WORKERS)
    model = torch.nn.Linear(3 * 32 * 32, 10)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    steps, evals, ckpt_bytes = [], [], 0
    for epoch in range(EPOCHS):
        steps.append(train_epoch(loader, model, opt, COMPUTE))
        evals.append(eval_pass(val_loader, model))
        ckpt_bytes = put_checkpoint(a.bucket, "%s/ckpt/epoch_%d.pt" % (a.prefix, epoch), model)
    sizes = [s for _, s in train_items]
    print_truth("map_listing", objects=len(train_items), samples=len(train_items),
                val_objects=len(val_items), list_pages=train_pages + val_pages,
                dataset_bytes=sum(sizes), object_bytes_min=min(sizes),
                object_bytes_max=max(sizes), gets_per_sample=1, ranged=False,
                batch_size=BATCH, workers=WORKERS, shuffle="sample", epochs=EPOCHS,
                steps_per_epoch=steps, eval_steps_per_pass=evals, evals=len(evals),
                eval_every_epochs=1, compute_s=COMPUTE, checkpoints=EPOCHS,
                checkpoint_bytes=ckpt_bytes, checkpoint_to="s3 put_object")


if __name__ == "__main__":
    sys.exit(main(__doc__, put, train))
