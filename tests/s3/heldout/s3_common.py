"""What the held-out S3 programs share: one boto3 client per process (DataLoader workers are
forked, and boto3 clients are not fork-safe), endpoint and credentials from the AWS_* environment,
path-style addressing as tests/s3/s3_check.py; JPEG bytes of noise; the ground-truth line."""
import io
import json
import os

import boto3
import botocore.config

_clients = {}


def client():
    pid = os.getpid()
    if pid not in _clients:
        _clients[pid] = boto3.client(
            "s3", endpoint_url=os.environ["AWS_ENDPOINT_URL"],
            region_name=os.environ.get("AWS_REGION", "us-east-1"),
            config=botocore.config.Config(s3={"addressing_style": "path"}))
    return _clients[pid]


def jpeg(rng, side):
    """A JPEG of side x side RGB noise (its size grows with the side, as photos' sizes vary)."""
    import numpy as np
    from PIL import Image
    pixels = rng.integers(0, 256, size=(side, side, 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format="JPEG", quality=85)
    return out.getvalue()


def decode(data, side=32):
    """JPEG bytes to a float tensor of 3 x side x side, as a torchvision transform would."""
    import numpy as np
    import torch
    from PIL import Image
    img = Image.open(io.BytesIO(data)).convert("RGB").resize((side, side))
    return torch.from_numpy(np.asarray(img, dtype=np.float32).copy()).permute(2, 0, 1) / 255.0


def print_truth(program, **truth):
    """The ground truth, one JSON line, last on stdout ("program" first: the tests look for it)."""
    print(json.dumps(dict(program=program, **truth)), flush=True)


def put_all(bucket, objects):
    """put_object of every {key: bytes}, 8 at a time (the dataset's upload, before training)."""
    from concurrent.futures import ThreadPoolExecutor
    c = client()
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda kv: c.put_object(Bucket=bucket, Key=kv[0], Body=kv[1]),
                      objects.items()))


def train_step(model, opt, x, y, compute):
    """One step of a classifier on a batch (x flattened): forward, loss, backward, step, then
    `compute` seconds of sleep standing in for the accelerator."""
    import time
    import torch
    loss = torch.nn.functional.cross_entropy(model(x.flatten(1)), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    time.sleep(compute)


def train_epoch(loader, model, opt, compute):
    """One epoch of train_step over (images, labels) batches. Returns the steps it took."""
    steps = 0
    for x, y in loader:
        train_step(model, opt, x, y, compute)
        steps += 1
    return steps


def eval_pass(loader, model):
    """A validation pass: the model's forward over every batch, no gradients. Returns its steps."""
    import torch
    steps = 0
    with torch.no_grad():
        for x, _ in loader:
            model(x.flatten(1))
            steps += 1
    return steps


def main(doc, put, train, add_options=None):
    """`PROGRAM put|train BUCKET PREFIX [options]`: the programs' command line."""
    import argparse
    p = argparse.ArgumentParser(description=doc.split("\n")[0])
    p.add_argument("verb", choices=["put", "train"])
    p.add_argument("bucket")
    p.add_argument("prefix")
    if add_options:
        add_options(p)
    a = p.parse_args()
    (put if a.verb == "put" else train)(a)
    return 0


def put_checkpoint(bucket, key, model):
    """The model's state_dict torch.save'd into memory and put_object as KEY; its bytes."""
    import torch
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)
    client().put_object(Bucket=bucket, Key=key, Body=buf.getvalue())
    return len(buf.getvalue())
