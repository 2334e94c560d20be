#!/usr/bin/python3
"""A CSV index of image files, split into train and validation with random_split (held-out
program, round 4).

  csv_split.py --make DIR               # DIR/train.csv (image_id,label) and DIR/train_images/<id>.jpg
  csv_split.py --data DIR --out OUT

The Kaggle-competition recipe (cassava, plant pathology, APTOS...): one folder of JPEGs named by
an id, and train.csv listing each id with its label, rows in no particular order. The csv module
reads the index in the main process (no pandas); the Dataset opens DIR/train_images/<id>.jpg with
PIL (open, convert("RGB"), resize) in 2 DataLoader workers. torch.utils.data.random_split (seeded)
cuts the one folder into 90% train and 10% validation, so both sets live side by side in the same
folder and only the split knows which file is which. Each epoch: a training pass (batch 32,
shuffle) then a validation pass (batch 32, in order, no_grad), then torch.save of the model to
OUT/last.pt (model + SGD momentum, 6 MiB). 2 epochs. Sleeps per step stand in for the accelerator.

The last stdout line is JSON: the ground truth.
"""
import argparse
import csv
import io
import json
import os
import time

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset, random_split


def make(root, n, seed):
    """n JPEGs of 96-224 px (smooth noise, 5-40 KiB) named by random 10-digit ids, and the index."""
    rng = np.random.default_rng(seed)
    os.makedirs(os.path.join(root, "train_images"), exist_ok=True)
    ids = rng.choice(9_000_000_000, size=n, replace=False) + 1_000_000_000
    rows = []
    for image_id in ids:
        side = int(rng.integers(96, 225))
        small = rng.integers(0, 256, (side // 3, side // 3, 3), dtype=np.uint8)
        img = Image.fromarray(small).resize((side, side), Image.BILINEAR)
        buf = io.BytesIO()
        img.save(buf, "JPEG", quality=int(rng.integers(80, 96)))
        with open(os.path.join(root, "train_images", f"{image_id}.jpg"), "wb") as f:
            f.write(buf.getvalue())
        rows.append((f"{image_id}.jpg", int(rng.integers(0, 5))))
    with open(os.path.join(root, "train.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["image_id", "label"])
        w.writerows(rows)


class CsvImages(Dataset):
    def __init__(self, root):
        self.dir = os.path.join(root, "train_images")
        with open(os.path.join(root, "train.csv"), newline="") as f:
            self.rows = [(r["image_id"], int(r["label"])) for r in csv.DictReader(f)]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        name, label = self.rows[i]
        img = Image.open(os.path.join(self.dir, name)).convert("RGB").resize((64, 64))
        x = torch.from_numpy(np.asarray(img, dtype=np.float32)).permute(2, 0, 1) / 255.0
        return x, label


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make")
    p.add_argument("--data")
    p.add_argument("--out")
    p.add_argument("--images", type=int, default=600)
    p.add_argument("--val-fraction", type=float, default=0.1)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--val-batch-size", type=int, default=32)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute-ms", type=float, default=20.0)
    p.add_argument("--eval-ms", type=float, default=8.0)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)  # the compute is a stand-in (a sleep); keep the host free for the loader
    if a.make:
        make(a.make, a.images, a.seed)
        return

    os.makedirs(a.out, exist_ok=True)
    full = CsvImages(a.data)
    n_val = int(len(full) * a.val_fraction)
    train_set, val_set = random_split(full, [len(full) - n_val, n_val],
                                      generator=torch.Generator().manual_seed(42))
    train = DataLoader(train_set, batch_size=a.batch_size, shuffle=True, num_workers=a.workers)
    val = DataLoader(val_set, batch_size=a.val_batch_size, shuffle=False, num_workers=a.workers)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(3 * 64 * 64, 64), torch.nn.ReLU(),
                                torch.nn.Linear(64, 5))
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    ckpt = os.path.join(a.out, "last.pt")
    steps, eval_steps, checkpoints = [], [], 0
    t0 = time.monotonic()
    for epoch in range(a.epochs):
        model.train()
        n = 0
        for x, y in train:
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            time.sleep(a.compute_ms / 1000)
            n += 1
        steps.append(n)
        model.eval()
        m, correct = 0, 0
        with torch.no_grad():
            for x, y in val:
                correct += int((model(x).argmax(1) == y).sum())
                time.sleep(a.eval_ms / 1000)
                m += 1
        eval_steps.append(m)
        torch.save({"epoch": epoch, "model": model.state_dict(), "optimizer": opt.state_dict()}, ckpt)
        checkpoints += 1
        print(f"epoch {epoch}: {n} steps, validation {m} steps, accuracy {correct / len(val_set):.3f}",
              flush=True)
    wall = time.monotonic() - t0
    sizes = [os.path.getsize(os.path.join(full.dir, name)) for name, _ in full.rows]
    val_names = {full.rows[i][0] for i in val_set.indices}
    print(json.dumps({
        "program": "csv_split", "files": len(full), "index_file": "train.csv",
        "train_files": len(train_set), "val_files": len(val_set), "same_folder": True,
        "val_bytes": sum(os.path.getsize(os.path.join(full.dir, f)) for f in val_names),
        "file_bytes_mean": float(np.mean(sizes)), "file_bytes_min": min(sizes), "file_bytes_max": max(sizes),
        "batch_size": a.batch_size, "eval_batch_size": a.val_batch_size, "workers": a.workers,
        "shuffle": "file", "epochs": a.epochs, "steps_per_epoch": steps, "evals": len(eval_steps),
        "eval_steps_per_pass": eval_steps, "eval_every_epochs": 1, "checkpoints": checkpoints,
        "checkpoint_bytes": os.path.getsize(ckpt), "checkpoint_every_epochs": 1,
        "compute_s": a.compute_ms / 1000, "eval_compute_s": a.eval_ms / 1000, "wall_s": wall}))


if __name__ == "__main__":
    main()
