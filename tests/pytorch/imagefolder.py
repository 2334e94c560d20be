#!/usr/bin/python3
"""An ImageFolder-style PyTorch training script, written the way such scripts usually are.

Class folders of JPEGs (root/<class>/<name>.jpg) for training and for validation, decoded with
PIL in 2 DataLoader worker processes, batches of 16, a new shuffle every epoch, a validation pass
after every epoch, torch.save of the model each epoch and shutil.copyfile of the best one to
model_best.pt. torchvision is not needed: the dataset class below does what its ImageFolder does
(sorted classes, sorted files, PIL open + convert("RGB") per sample).

  imagefolder.py --make-data DIR      # DIR/train/<class>/*.jpg and DIR/val/<class>/*.jpg (PIL)
  imagefolder.py --data DIR/train --val-data DIR/val --checkpoint-dir CKPT

Compute per step is a small model's forward (and backward when training) plus a sleep standing in
for an accelerator, so that steps take a known time on a loaded CI machine. The last stdout line is
JSON with the ground truth (files, batches, passes) for the tests.
"""
import argparse
import json
import os
import shutil
import sys
import time

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset

SIDE = 32  # the model's input: SIDE x SIDE RGB


def make_data(root, classes, train_per_class, val_per_class, size, seed):
    rng = np.random.default_rng(seed)
    for split, per_class in (("train", train_per_class), ("val", val_per_class)):
        for c in range(classes):
            d = os.path.join(root, split, f"class_{c:02d}")
            os.makedirs(d, exist_ok=True)
            for i in range(per_class):
                # Smooth noise compresses to a few tens of KiB at this size, like small photos.
                small = rng.integers(0, 256, (size // 2, size // 2, 3), dtype=np.uint8)
                img = Image.fromarray(small).resize((size, size), Image.BILINEAR)
                img.save(os.path.join(d, f"img_{i:04d}.jpg"), quality=90)


class ImageFolder(Dataset):
    def __init__(self, root):
        self.classes = sorted(e.name for e in os.scandir(root) if e.is_dir())
        self.samples = []
        for ci, c in enumerate(self.classes):
            d = os.path.join(root, c)
            for name in sorted(os.listdir(d)):
                if name.lower().endswith((".jpg", ".jpeg")):
                    self.samples.append((os.path.join(d, name), ci))
        if not self.samples:
            raise SystemExit(f"imagefolder.py: no JPEG files under {root}")

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        path, label = self.samples[i]
        with open(path, "rb") as f:
            img = Image.open(f).convert("RGB")
        img = img.resize((SIDE, SIDE))
        x = torch.from_numpy(np.asarray(img, dtype=np.float32).transpose(2, 0, 1) / 255.0)
        return x, label


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make-data", help="write a JPEG dataset under this directory and exit")
    p.add_argument("--classes", type=int, default=4)
    p.add_argument("--train-per-class", type=int, default=60)
    p.add_argument("--val-per-class", type=int, default=12)
    p.add_argument("--image-size", type=int, default=280)
    p.add_argument("--data", help="training folder (class subfolders)")
    p.add_argument("--val-data", help="validation folder (class subfolders)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute-ms", type=float, default=30.0, help="sleep per training step")
    p.add_argument("--val-compute-ms", type=float, default=10.0, help="sleep per evaluation step")
    p.add_argument("--checkpoint-dir", default="checkpoints")
    p.add_argument("--state-mib", type=int, default=4, help="extra model state saved (MiB)")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    if a.make_data:
        make_data(a.make_data, a.classes, a.train_per_class, a.val_per_class, a.image_size, a.seed)
        return
    if not a.data or not a.val_data:
        p.error("--data and --val-data are required")

    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    train_set, val_set = ImageFolder(a.data), ImageFolder(a.val_data)
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 8, 3, stride=2), torch.nn.ReLU(), torch.nn.Flatten(),
        torch.nn.Linear(8 * 15 * 15, len(train_set.classes)))
    # Stands in for the weights of a real network: checkpoints of a realistic size.
    model.register_buffer("state", torch.zeros(a.state_mib << 18))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = torch.nn.CrossEntropyLoss()
    train_loader = DataLoader(train_set, batch_size=a.batch_size, shuffle=True,
                              num_workers=a.workers)
    val_loader = DataLoader(val_set, batch_size=a.batch_size, shuffle=False, num_workers=a.workers)
    os.makedirs(a.checkpoint_dir, exist_ok=True)
    best, steps, val_steps, t0 = -1.0, 0, 0, time.time()
    for epoch in range(a.epochs):
        model.train()
        for x, y in train_loader:
            opt.zero_grad()
            loss_fn(model(x), y).backward()
            opt.step()
            time.sleep(a.compute_ms / 1000.0)
            steps += 1
        model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in val_loader:
                correct += int((model(x).argmax(1) == y).sum())
                time.sleep(a.val_compute_ms / 1000.0)
                val_steps += 1
        acc = correct / len(val_set)
        path = os.path.join(a.checkpoint_dir, "checkpoint.pt")
        torch.save({"epoch": epoch, "model": model.state_dict(), "acc": acc}, path)
        if acc > best:
            best = acc
            shutil.copyfile(path, os.path.join(a.checkpoint_dir, "model_best.pt"))
    print(json.dumps({"train_files": len(train_set), "val_files": len(val_set),
                      "batch_size": a.batch_size, "workers": a.workers, "epochs": a.epochs,
                      "steps": steps, "val_steps": val_steps, "elapsed_s": time.time() - t0}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
