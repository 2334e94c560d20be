#!/usr/bin/python3
"""Image + label pairs stored as two objects a sample (KEY.jpg and KEY.json), as datasets exported
from a labelling tool are: the main process reads the index object (index.csv),
and a map-style Dataset fetches a sample's two objects back to back in one worker (get_object of
the JPEG, then of its JSON label).

  pairs.py put BUCKET PREFIX     48 samples: PREFIX/samples/KEY.jpg (48-80 px noise) and
                                 PREFIX/samples/KEY.json ({"label": N, "box": [...]}), and
                                 PREFIX/index.csv (KEY,JPEG BYTES a line)
  pairs.py train BUCKET PREFIX   2 epochs: DataLoader(batch 4, shuffle, 2 workers), a linear model
                                 and a 20 ms sleep a step; at the end the model (7 MB) torch.save'd
                                 into memory (--spool: a temporary file) and uploaded with
                                 boto3's upload_fileobj as a multipart upload (5 MiB parts) to
                                 PREFIX/model/final.pt

Prints its ground truth as one JSON line last.
"""
import io
import json
import sys
import tempfile

import numpy as np

from s3_common import client, decode, jpeg, main, print_truth, put_all, train_epoch

SAMPLES, BATCH, WORKERS, EPOCHS, COMPUTE, PART = 48, 4, 2, 2, 0.02, 5 << 20


def put(a):
    rng = np.random.default_rng(2)
    objects, keys = {}, []
    for i in range(SAMPLES):
        key = "%s/samples/%06d" % (a.prefix, 1000 + 7 * i)
        objects[key + ".jpg"] = jpeg(rng, int(rng.integers(48, 81)))
        keys.append("%s,%d" % (key, len(objects[key + ".jpg"])))
        label = {"label": int(rng.integers(0, 10)), "box": rng.integers(0, 48, 4).tolist()}
        objects[key + ".json"] = json.dumps(label).encode()
    objects[a.prefix + "/index.csv"] = ("\n".join(keys) + "\n").encode()
    put_all(a.bucket, objects)


def train(a):
    import boto3.s3.transfer
    import torch
    from torch.utils.data import DataLoader, Dataset
    torch.set_num_threads(1)

    index = client().get_object(Bucket=a.bucket, Key=a.prefix + "/index.csv")["Body"].read()
    rows = [line.split(",") for line in index.decode().split()]
    keys, sizes = [k for k, _ in rows], [int(s) for _, s in rows]

    class Pairs(Dataset):
        def __len__(self):
            return len(keys)

        def __getitem__(self, i):
            img = client().get_object(Bucket=a.bucket, Key=keys[i] + ".jpg")["Body"].read()
            meta = client().get_object(Bucket=a.bucket, Key=keys[i] + ".json")["Body"].read()
            return decode(img, 48), json.loads(meta)["label"]

    loader = DataLoader(Pairs(), batch_size=BATCH, shuffle=True, num_workers=WORKERS)
    model = torch.nn.Linear(3 * 48 * 48, 256)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    steps = [train_epoch(loader, model, opt, COMPUTE) for _ in range(EPOCHS)]
    with (tempfile.TemporaryFile() if a.spool else io.BytesIO()) as f:
        torch.save(model.state_dict(), f)
        ckpt_bytes = f.tell()
        f.seek(0)
        config = boto3.s3.transfer.TransferConfig(multipart_threshold=PART,
                                                  multipart_chunksize=PART)
        client().upload_fileobj(f, a.bucket, a.prefix + "/model/final.pt", Config=config)
    print_truth("pairs", samples=len(keys), objects=2 * len(keys) + 1, files_per_sample=2,
                index_objects=1, image_bytes=sum(sizes), image_bytes_min=min(sizes),
                image_bytes_max=max(sizes), gets_per_sample=2, batch_size=BATCH,
                workers=WORKERS, shuffle="sample", epochs=EPOCHS, steps_per_epoch=steps,
                evals=0, compute_s=COMPUTE, checkpoints=1, checkpoint_bytes=ckpt_bytes,
                checkpoint_parts=-(-ckpt_bytes // PART),
                checkpoint_to="s3 multipart upload" + (" of a temporary file" if a.spool else ""))


def options(p):
    p.add_argument("--spool", action="store_true",
                   help="torch.save to a temporary file and upload that (else from memory)")


if __name__ == "__main__":
    sys.exit(main(__doc__, put, train, options))
