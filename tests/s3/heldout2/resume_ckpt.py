#!/usr/bin/python3
"""A training job that resumes from its latest checkpoint on the store and keeps checkpointing
there every N steps, as preemptible (spot) training jobs do: at start the main process lists the
checkpoint prefix, picks the newest, and downloads it with boto3's download_fileobj (head_object,
then ranged GETs of 2 MiB on 4 threads); it trains on torch.save'd samples (one whole-object
get_object each) and every 5 global steps uploads model + optimizer state with upload_fileobj
(a multipart upload of 5 MiB parts on 4 threads).

  resume_ckpt.py put BUCKET PREFIX     64 samples (PREFIX/train/NNNNN.pt: torch.save of a
                                       3 x 32 x 32 uint8 image and its label) and the checkpoint
                                       an earlier run left at global step 40, epoch 5
                                       (PREFIX/ckpt/step-00000040.pt: a linear model's and its SGD
                                       momentum's state, ~7.9 MB)
  resume_ckpt.py train BUCKET PREFIX   resume, then 2 epochs: DataLoader(batch 8, shuffle,
                                       2 workers), a 20 ms sleep a step, a checkpoint after every
                                       5th global step (45, 50, 55) as PREFIX/ckpt/step-NNNNNNNN.pt

Prints its ground truth as one JSON line last.
"""
import io
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "heldout"))
from s3_common import client, main, print_truth, put_all, train_step  # noqa: E402

SAMPLES, BATCH, WORKERS, EPOCHS, COMPUTE, EVERY = 64, 8, 2, 2, 0.02, 5
GET_CHUNK, PART, THREADS, START_STEP, START_EPOCH = 2 << 20, 5 << 20, 4, 40, 5
MiB = 1 << 20


def model_and_opt():
    import torch
    model = torch.nn.Linear(3 * 32 * 32, 320)
    return model, torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)


def state_bytes(model, opt, step, epoch):
    import torch
    buf = io.BytesIO()
    torch.save({"model": model.state_dict(), "optim": opt.state_dict(), "step": step,
                "epoch": epoch}, buf)
    return buf


def put(a):
    import torch
    torch.manual_seed(13)
    samples = {}
    for i in range(SAMPLES):
        buf = io.BytesIO()
        torch.save({"image": torch.randint(0, 256, (3, 32, 32), dtype=torch.uint8),
                    "label": i % 10}, buf)
        samples["%s/train/%05d.pt" % (a.prefix, i)] = buf.getvalue()
    put_all(a.bucket, samples)
    model, opt = model_and_opt()
    model(torch.zeros(1, 3 * 32 * 32)).sum().backward()
    opt.step()  # the momentum buffers exist, as in a checkpoint of a run under way
    client().put_object(Bucket=a.bucket, Key="%s/ckpt/step-%08d.pt" % (a.prefix, START_STEP),
                        Body=state_bytes(model, opt, START_STEP, START_EPOCH).getvalue())


def latest_checkpoint(bucket, prefix):
    pages = client().get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
    found = [(o["Key"], o["Size"]) for page in pages for o in page.get("Contents", [])]
    return max(found) if found else (None, 0)


def train(a):
    import boto3.s3.transfer
    import torch
    from torch.utils.data import DataLoader, Dataset
    torch.set_num_threads(1)
    get_config = boto3.s3.transfer.TransferConfig(multipart_threshold=GET_CHUNK,
                                                  multipart_chunksize=GET_CHUNK,
                                                  max_concurrency=THREADS)
    put_config = boto3.s3.transfer.TransferConfig(multipart_threshold=PART,
                                                  multipart_chunksize=PART,
                                                  max_concurrency=THREADS)
    model, opt = model_and_opt()
    key, restored_bytes = latest_checkpoint(a.bucket, a.prefix + "/ckpt/")
    buf = io.BytesIO()
    client().download_fileobj(a.bucket, key, buf, Config=get_config)
    buf.seek(0)
    state = torch.load(buf)
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["optim"])
    step, first_epoch = state["step"], state["epoch"]

    class Samples(Dataset):
        keys = ["%s/train/%05d.pt" % (a.prefix, i) for i in range(SAMPLES)]

        def __len__(self):
            return len(self.keys)

        def __getitem__(self, i):
            body = client().get_object(Bucket=a.bucket, Key=self.keys[i])["Body"].read()
            s = torch.load(io.BytesIO(body))
            return s["image"].float().flatten() / 255.0, s["label"]

    loader = DataLoader(Samples(), batch_size=BATCH, shuffle=True, num_workers=WORKERS)
    steps, saved, saved_bytes, saved_at = [], [], 0, []
    for epoch in range(first_epoch, first_epoch + EPOCHS):
        n = 0
        for x, y in loader:
            train_step(model, opt, x, y, COMPUTE)
            n += 1
            step += 1
            if step % EVERY == 0:
                out = state_bytes(model, opt, step, epoch)
                saved_bytes = out.tell()
                out.seek(0)
                client().upload_fileobj(out, a.bucket, "%s/ckpt/step-%08d.pt" % (a.prefix, step),
                                        Config=put_config)
                saved.append(step)
                saved_at.append(sum(steps) + n)
        steps.append(n)
    print_truth("resume_ckpt", objects=SAMPLES, samples=SAMPLES, gets_per_sample=1,
                batch_size=BATCH, workers=WORKERS, shuffle="sample", epochs=EPOCHS,
                steps_per_epoch=steps, evals=0, compute_s=COMPUTE, restores=1,
                restore_bytes=restored_bytes, restore_gets=-(-restored_bytes // GET_CHUNK),
                restore_heads=1, checkpoints=len(saved), checkpoint_bytes=saved_bytes,
                checkpoint_every_steps=EVERY, checkpoint_after_run_steps=saved_at,
                checkpoint_global_steps=saved, checkpoint_parts=-(-saved_bytes // PART),
                checkpoint_to="s3 multipart upload (upload_fileobj)")


if __name__ == "__main__":
    sys.exit(main(__doc__, put, train))
