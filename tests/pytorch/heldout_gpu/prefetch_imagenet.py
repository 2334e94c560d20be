#!/usr/bin/python3
"""ImageNet-style classification with NVIDIA apex's / timm's data_prefetcher (held-out program).

  make_data.py --images DATA --scale gpu
  prefetch_imagenet.py DATA --device cuda -j 8 -b 64 --epochs 2 --ckpt-every 20 --checkpoint-dir CK

DATA/images/* (JPEG and PNG in one flat folder) listed by DATA/train.csv and DATA/val.csv
(filename,label). Workers decode with PIL and crop; fast_collate stacks uint8 tensors (no float
conversion, no normalisation on the CPU); the DataLoader pins memory and keeps its workers
(persistent_workers=True, prefetch_factor=4). data_prefetcher copies the NEXT batch to the GPU on its
own torch.cuda.Stream with non_blocking=True and normalises it there, while the current batch trains;
the loop takes a batch with torch.cuda.current_stream().wait_stream(prefetch stream). On CPU the
prefetcher is plain iteration (normalisation on the CPU, no streams).

resnet18 (torchvision's when importable, else a hand-written one of the same shape), `--arch tiny` a
small ResNet for CPU runs; SGD; --amp autocast (float16 + GradScaler on CUDA, bfloat16 on CPU).
Validation over val.csv after every epoch. torch.save every --ckpt-every training steps (counted over
the whole run) to CK/checkpoint_step%06d.pth.tar, then older checkpoints beyond the last 2 are
deleted. The CPU syncs with the GPU only at loss.item() every --print-freq steps and at the end of a
validation pass.

Ground truth: JSON lines at exit to --log FILE (or stderr), README.md here.
"""
import argparse
import csv
import math
import os
import random
import sys
import time

import numpy as np
import torch
from PIL import Image
from torch import nn
from torch.utils.data import DataLoader, Dataset

# The ground-truth instrumentation (step timer, log) of the other GPU programs: measuring, not training.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import gpu_models as truth  # noqa: E402

BILINEAR = getattr(Image, "Resampling", Image).BILINEAR
FLIP = getattr(Image, "Transpose", Image).FLIP_LEFT_RIGHT


# --- Data ------------------------------------------------------------------------------------------

class CsvImages(Dataset):
    """Rows of a CSV (filename,label) naming files of one folder."""

    def __init__(self, folder, csv_path, train, size, resize):
        with open(csv_path, newline="") as f:
            self.rows = [(os.path.join(folder, r["filename"]), int(r["label"])) for r in csv.DictReader(f)]
        if not self.rows:
            raise SystemExit(f"prefetch_imagenet.py: {csv_path}: no rows")
        self.train, self.size, self.resize = train, size, resize

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        path, label = self.rows[i]
        img = Image.open(path).convert("RGB")
        img = self._random_resized_crop(img) if self.train else self._center_crop(img)
        return np.asarray(img, dtype=np.uint8), label

    def _random_resized_crop(self, img):
        w, h = img.size
        for _ in range(10):
            area = w * h * random.uniform(0.08, 1.0)
            ratio = math.exp(random.uniform(math.log(3 / 4), math.log(4 / 3)))
            cw, ch = int(round(math.sqrt(area * ratio))), int(round(math.sqrt(area / ratio)))
            if 0 < cw <= w and 0 < ch <= h:
                x, y = random.randint(0, w - cw), random.randint(0, h - ch)
                break
        else:
            cw, ch, x, y = min(w, h), min(w, h), (w - min(w, h)) // 2, (h - min(w, h)) // 2
        img = img.resize((self.size, self.size), BILINEAR, box=(x, y, x + cw, y + ch))
        return img.transpose(FLIP) if random.random() < 0.5 else img

    def _center_crop(self, img):
        w, h = img.size
        s = self.resize / min(w, h)
        img = img.resize((max(self.size, round(w * s)), max(self.size, round(h * s))), BILINEAR)
        w, h = img.size
        x, y = (w - self.size) // 2, (h - self.size) // 2
        return img.crop((x, y, x + self.size, y + self.size))


def fast_collate(batch):
    """apex's fast_collate: uint8 NCHW, the float conversion and normalisation happen on the device."""
    images = torch.from_numpy(np.stack([b[0] for b in batch])).permute(0, 3, 1, 2).contiguous()
    return images, torch.tensor([b[1] for b in batch], dtype=torch.int64)


class data_prefetcher:  # noqa: N801 -- apex's name
    """Wraps a DataLoader: while step i trains, batch i+1 is already being copied and normalised on a
    side stream. next() returns (None, None) at the end of the pass. t_loaded records when the
    DataLoader handed each batch over (for the ground truth)."""

    def __init__(self, loader, device):
        self.loader = iter(loader)
        self.device = device
        self.cuda = device.type == "cuda"
        self.mean = torch.tensor([0.485 * 255, 0.456 * 255, 0.406 * 255], device=device).view(1, 3, 1, 1)
        self.std = torch.tensor([0.229 * 255, 0.224 * 255, 0.225 * 255], device=device).view(1, 3, 1, 1)
        self.stream = torch.cuda.Stream(device) if self.cuda else None
        if self.cuda:  # mean and std were written on the current stream
            self.stream.wait_stream(torch.cuda.current_stream())
        self.t_loaded = []
        self.preload()

    def preload(self):
        try:
            inp, target = next(self.loader)
        except StopIteration:
            self.next_input = self.next_target = None
            return
        self.t_loaded.append(time.monotonic())
        if not self.cuda:
            self.next_input = inp.float().sub_(self.mean).div_(self.std)
            self.next_target = target
            return
        with torch.cuda.stream(self.stream):
            self.next_input = inp.to(self.device, non_blocking=True)
            self.next_target = target.to(self.device, non_blocking=True)
            self.next_input = self.next_input.float().sub_(self.mean).div_(self.std)

    def next(self):
        if self.cuda:
            torch.cuda.current_stream().wait_stream(self.stream)
        inp, target = self.next_input, self.next_target
        if self.cuda and inp is not None:
            inp.record_stream(torch.cuda.current_stream())
            target.record_stream(torch.cuda.current_stream())
        if inp is not None:  # not past the end: an exhausted DataLoader iterator is not asked again
            self.preload()
        return inp, target


# --- Model -----------------------------------------------------------------------------------------

class Block(nn.Module):
    def __init__(self, inp, out, stride):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(inp, out, 3, stride, 1, bias=False), nn.BatchNorm2d(out),
                                  nn.ReLU(inplace=True), nn.Conv2d(out, out, 3, 1, 1, bias=False),
                                  nn.BatchNorm2d(out))
        self.skip = nn.Identity() if stride == 1 and inp == out else nn.Sequential(
            nn.Conv2d(inp, out, 1, stride, bias=False), nn.BatchNorm2d(out))

    def forward(self, x):
        return torch.relu(self.body(x) + self.skip(x))


def small_resnet(widths, blocks, classes):
    """resnet18 is widths (64, 128, 256, 512), blocks 2 each."""
    layers = [nn.Conv2d(3, widths[0], 7, 2, 3, bias=False), nn.BatchNorm2d(widths[0]), nn.ReLU(inplace=True),
              nn.MaxPool2d(3, 2, 1)]
    inp = widths[0]
    for i, w in enumerate(widths):
        for j in range(blocks):
            layers.append(Block(inp, w, 2 if i > 0 and j == 0 else 1))
            inp = w
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(inp, classes)]
    return nn.Sequential(*layers)


def build_model(arch, classes):
    if arch == "tiny":
        return small_resnet((8, 16), 1, classes), "hand-written"
    try:
        import torchvision
        return torchvision.models.resnet18(num_classes=classes), "torchvision"
    except ImportError:
        return small_resnet((64, 128, 256, 512), 2, classes), "hand-written"


# --- Training --------------------------------------------------------------------------------------

def parse_args():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("data", help="folder with images/, train.csv and val.csv")
    p.add_argument("--arch", default="resnet18", choices=("resnet18", "tiny"))
    p.add_argument("--device", default="auto")
    p.add_argument("-j", "--workers", type=int, default=8)
    p.add_argument("-b", "--batch-size", type=int, default=64)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--lr", type=float, default=0.05)
    p.add_argument("--image-size", type=int, default=224)
    p.add_argument("--val-resize", type=int, default=256)
    p.add_argument("--amp", action="store_true")
    p.add_argument("-p", "--print-freq", type=int, default=10)
    p.add_argument("--ckpt-every", type=int, default=20, help="torch.save every N training steps")
    p.add_argument("--keep", type=int, default=2, help="checkpoints kept; older ones are deleted")
    p.add_argument("--checkpoint-dir", default="checkpoints")
    p.add_argument("--log")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    if a.workers < 1:
        p.error("--workers: persistent_workers and prefetch_factor need at least 1 worker")
    return a


class Trainer:
    def __init__(self, a):
        self.a = a
        self.log = truth.Log(a.log)
        self.device = truth.pick_device(a.device)
        self.cuda = self.device.type == "cuda"
        random.seed(a.seed)
        torch.manual_seed(a.seed)
        if self.cuda:
            torch.cuda.set_device(self.device)
            torch.backends.cudnn.benchmark = True
        folder = os.path.join(a.data, "images")
        self.train_set = CsvImages(folder, os.path.join(a.data, "train.csv"), True, a.image_size, a.val_resize)
        self.val_set = CsvImages(folder, os.path.join(a.data, "val.csv"), False, a.image_size, a.val_resize)
        classes = 1 + max(label for _, label in self.train_set.rows + self.val_set.rows)
        model, self.model_source = build_model(a.arch, classes)
        self.model = model.to(self.device, memory_format=torch.channels_last)
        self.criterion = nn.CrossEntropyLoss().to(self.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), a.lr, momentum=0.9, weight_decay=5e-5)
        self.scaler = truth.grad_scaler(self.device, a.amp)
        self.amp_dtype = torch.float16 if self.cuda else torch.bfloat16
        loader = dict(batch_size=a.batch_size, num_workers=a.workers, pin_memory=self.cuda,
                      persistent_workers=True, prefetch_factor=4, collate_fn=fast_collate)
        self.train_loader = DataLoader(self.train_set, shuffle=True, **loader)
        self.val_loader = DataLoader(self.val_set, shuffle=False, **loader)
        self.timer = truth.StepTimer(self.device)
        self.global_step = 0
        self.passes = []  # (phase, steps)
        self.compute = {"train": [], "val": []}
        self.waits = []
        self.saved, self.removed = [], []

    def run_pass(self, epoch, phase):
        train = phase == "train"
        self.model.train(train)
        loader = self.train_loader if train else self.val_loader
        t_pass = time.monotonic()
        prefetcher = data_prefetcher(loader, self.device)
        recs, i = [], 0
        correct = torch.zeros((), dtype=torch.long, device=self.device)
        with torch.set_grad_enabled(train):
            while True:
                t0 = time.monotonic()
                images, target = prefetcher.next()
                t1 = time.monotonic()
                if images is None:
                    break
                self.timer.start()
                images = images.contiguous(memory_format=torch.channels_last)
                with torch.autocast(self.device.type, dtype=self.amp_dtype, enabled=self.a.amp):
                    output = self.model(images)
                    loss = self.criterion(output, target)
                if train:
                    self.optimizer.zero_grad(set_to_none=True)
                    self.scaler.scale(loss).backward()
                    self.scaler.step(self.optimizer)
                    self.scaler.update()
                else:
                    correct += (output.argmax(1) == target).sum()
                self.timer.stop()
                if train and i % self.a.print_freq == 0:
                    print(f"train epoch {epoch} [{i}/{len(loader)}] loss {loss.item():.4f}", flush=True)
                t2 = time.monotonic()
                recs.append({"epoch": epoch, "phase": phase, "step": i, "t_ready_ns": int(t1 * 1e9),
                             "t_loaded_ns": int(prefetcher.t_loaded[i] * 1e9), "data_wait_s": t1 - t0,
                             "cpu_s": t2 - t1})
                i += 1
                if train:
                    self.global_step += 1
                    if self.global_step % self.a.ckpt_every == 0:
                        self.checkpoint(epoch)
        acc = correct.item() / len(loader.dataset) if not train else None  # syncs at the pass's end
        self.finish_pass(recs, epoch, phase, t_pass, acc)

    def finish_pass(self, recs, epoch, phase, t_pass, acc):
        for r, c in zip(recs, self.timer.resolve()):
            r["compute_s"] = c
            self.compute[phase].append(c)
            if phase == "train":
                self.waits.append(r["data_wait_s"])
            self.log.add("step", **r)
        self.passes.append((phase, len(recs)))
        self.log.add("epoch", epoch=epoch, phase=phase, steps=len(recs), seconds=time.monotonic() - t_pass,
                     accuracy=acc)
        if acc is not None:
            print(f"val epoch {epoch} accuracy {acc:.4f}", flush=True)

    def checkpoint(self, epoch):
        """Save, then delete all but the newest --keep (the save may queue behind the GPU: state_dict
        tensors are copied to the CPU, which waits for the step that wrote them)."""
        os.makedirs(self.a.checkpoint_dir, exist_ok=True)
        path = os.path.join(self.a.checkpoint_dir, f"checkpoint_step{self.global_step:06d}.pth.tar")
        t0 = time.monotonic()
        torch.save({"step": self.global_step, "epoch": epoch, "arch": self.a.arch,
                    "state_dict": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                    "scaler": self.scaler.state_dict()}, path)
        rec = {"epoch": epoch, "step": self.global_step, "path": path, "bytes": os.path.getsize(path),
               "seconds": time.monotonic() - t0, "kind": "torch.save"}
        self.saved.append(rec)
        self.log.add("checkpoint", **rec)
        for old in self.saved[:-self.a.keep]:
            if os.path.exists(old["path"]):
                os.remove(old["path"])
                self.removed.append(old["path"])
                self.log.add("checkpoint_removed", step=self.global_step, path=old["path"])

    def summary(self, t_origin):
        a = self.a
        train_steps = [n for ph, n in self.passes if ph == "train"]
        val_steps = [n for ph, n in self.passes if ph == "val"]
        self.log.add(
            "summary", program="prefetch_imagenet", arch=a.arch, model_source=self.model_source,
            data_source="csv", amp=a.amp, channels_last=True, pin_memory=self.cuda, sync_every_step=False,
            prefetcher="cuda-stream" if self.cuda else "plain", persistent_workers=True, prefetch_factor=4,
            batch_size=a.batch_size, workers=a.workers, epochs=a.epochs, train_samples=len(self.train_set),
            val_samples=len(self.val_set), steps_per_epoch=train_steps, val_steps_per_pass=val_steps,
            steps=sum(train_steps), val_steps=sum(val_steps), drop_last=False, ckpt_every=a.ckpt_every,
            keep=a.keep, checkpoint_bytes=sum(c["bytes"] for c in self.saved), checkpoints=len(self.saved),
            checkpoints_removed=len(self.removed), checkpoints_kept=[c["path"] for c in self.saved[-a.keep:]],
            compute_median_s=truth.median(self.compute["train"]),
            val_compute_median_s=truth.median(self.compute["val"]),
            data_wait_median_s=truth.median(self.waits), wall_s=time.monotonic() - t_origin,
            **truth.device_info(self.device))


def main():
    t_origin = time.monotonic()
    a = parse_args()
    t = Trainer(a)
    for epoch in range(a.epochs):
        t.run_pass(epoch, "train")
        t.run_pass(epoch, "val")
    t.summary(t_origin)
    t.log.write()


if __name__ == "__main__":
    main()
