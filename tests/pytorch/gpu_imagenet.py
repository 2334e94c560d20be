#!/usr/bin/python3
"""ImageNet training the way PyTorch's examples/imagenet/main.py does it, for CPU or one GPU.

  make_gpu_datasets.py --imagenet DATA
  gpu_imagenet.py DATA --device cuda --arch resnet50 -j 8 -b 64 --epochs 2 [--amp] [--channels-last]

DATA/train/<class>/*.JPEG and DATA/val/<class>/*.JPEG, read by an ImageFolder (torchvision's when it
is installed, otherwise a hand-written one that reads the files the same way: open, PIL decode,
convert("RGB")), RandomResizedCrop + flip for training, Resize + CenterCrop for validation; a
DataLoader with pin_memory=True (when the device is CUDA) and .to(device, non_blocking=True); SGD with
momentum, optional autocast + GradScaler (--amp) and channels_last; validation after every epoch;
torch.save of checkpoint.pth.tar every epoch and a copy to model_best.pth.tar when accuracy improves.

As in real scripts the CPU synchronises only when it needs a value: loss.item() every --print-freq
steps and the accuracy at the end of a validation pass (and GradScaler.step, every step, under --amp),
so on CUDA the CPU runs ahead of the GPU. --sync-every-step adds torch.cuda.synchronize() after every
step.

Ground truth, JSON lines at exit on stderr or --log FILE (docs in tests/pytorch/README.md):
  {"event": "step", "phase": "train"|"val", "epoch", "step", "t_ready_ns", "data_wait_s", "cpu_s",
   "compute_s"}   one per step; compute_s from CUDA events on the GPU, wall time on CPU
  {"event": "epoch", ...}, {"event": "checkpoint", "path", "bytes", ...}, {"event": "summary", ...}
"""
import argparse
import math
import os
import random
import shutil
import sys
import time

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_models as gm  # noqa: E402

MEAN, STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
BILINEAR = getattr(Image, "Resampling", Image).BILINEAR  # Pillow >= 9.1 names them in enums
FLIP_LEFT_RIGHT = getattr(Image, "Transpose", Image).FLIP_LEFT_RIGHT


# --- The hand-written stand-ins for torchvision (used when it is missing or --no-torchvision) -----

def pil_loader(path):
    with open(path, "rb") as f:
        img = Image.open(f)
        return img.convert("RGB")


class ImageFolder(Dataset):
    """torchvision.datasets.ImageFolder's listing: sorted class folders, sorted files in each."""

    def __init__(self, root, transform):
        self.classes = sorted(e.name for e in os.scandir(root) if e.is_dir())
        self.samples = []
        for ci, c in enumerate(self.classes):
            for dirpath, _, names in sorted(os.walk(os.path.join(root, c), followlinks=True)):
                for name in sorted(names):
                    if name.lower().endswith((".jpg", ".jpeg", ".png")):
                        self.samples.append((os.path.join(dirpath, name), ci))
        if not self.samples:
            raise SystemExit(f"gpu_imagenet.py: no images under {root}")
        self.transform = transform

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        path, target = self.samples[i]
        return self.transform(pil_loader(path)), target


def _to_tensor_normalized(img):
    a = np.asarray(img, dtype=np.float32) / 255.0
    a = (a - np.array(MEAN, dtype=np.float32)) / np.array(STD, dtype=np.float32)
    return torch.from_numpy(np.ascontiguousarray(a.transpose(2, 0, 1)))


class TrainTransform:
    """RandomResizedCrop(size, scale=(0.08, 1), ratio=(3/4, 4/3)) + RandomHorizontalFlip +
    ToTensor + Normalize, torchvision's algorithm."""

    def __init__(self, size):
        self.size = size

    def __call__(self, img):
        w, h = img.size
        area = w * h
        box = None
        for _ in range(10):
            target = area * random.uniform(0.08, 1.0)
            ratio = math.exp(random.uniform(math.log(3 / 4), math.log(4 / 3)))
            cw, ch = int(round(math.sqrt(target * ratio))), int(round(math.sqrt(target / ratio)))
            if 0 < cw <= w and 0 < ch <= h:
                x, y = random.randint(0, w - cw), random.randint(0, h - ch)
                box = (x, y, x + cw, y + ch)
                break
        if box is None:  # centre crop at the nearest allowed ratio
            cw, ch = (w, int(round(w / (4 / 3)))) if w / h > 4 / 3 else (w, h)
            cw, ch = min(cw, w), min(ch, h)
            box = ((w - cw) // 2, (h - ch) // 2, (w - cw) // 2 + cw, (h - ch) // 2 + ch)
        img = img.resize((self.size, self.size), BILINEAR, box=box)
        if random.random() < 0.5:
            img = img.transpose(FLIP_LEFT_RIGHT)
        return _to_tensor_normalized(img)


class ValTransform:
    """Resize(shorter side to resize) + CenterCrop(size) + ToTensor + Normalize."""

    def __init__(self, resize, size):
        self.resize, self.size = resize, size

    def __call__(self, img):
        w, h = img.size
        s = self.resize / min(w, h)
        img = img.resize((max(self.size, round(w * s)), max(self.size, round(h * s))), BILINEAR)
        w, h = img.size
        x, y = (w - self.size) // 2, (h - self.size) // 2
        return _to_tensor_normalized(img.crop((x, y, x + self.size, y + self.size)))


def datasets(root, size, resize, use_torchvision):
    if use_torchvision:
        try:
            import torchvision.datasets as tvd
            import torchvision.transforms as T
            norm = T.Normalize(MEAN, STD)
            train = tvd.ImageFolder(os.path.join(root, "train"), T.Compose([
                T.RandomResizedCrop(size), T.RandomHorizontalFlip(), T.ToTensor(), norm]))
            val = tvd.ImageFolder(os.path.join(root, "val"), T.Compose([
                T.Resize(resize), T.CenterCrop(size), T.ToTensor(), norm]))
            return train, val, "torchvision"
        except ImportError:
            pass
    return (ImageFolder(os.path.join(root, "train"), TrainTransform(size)),
            ImageFolder(os.path.join(root, "val"), ValTransform(resize, size)), "hand-written")


# --- Training ------------------------------------------------------------------------------------

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("data", help="folder with train/ and val/ class folders")
    p.add_argument("-a", "--arch", default="resnet50", choices=gm.ARCHS)
    p.add_argument("--device", default="auto", help="cuda, cuda:N, cpu or auto (cuda when there is one)")
    p.add_argument("-j", "--workers", type=int, default=8)
    p.add_argument("-b", "--batch-size", type=int, default=64)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--lr", type=float, default=0.01, help="below the example's 0.1: random pixels diverge at 0.1")
    p.add_argument("-p", "--print-freq", type=int, default=10, help="loss.item() and a line every N steps")
    p.add_argument("--image-size", type=int, default=224, help="training crop and validation crop")
    p.add_argument("--val-resize", type=int, default=256, help="validation: shorter side before the crop")
    p.add_argument("--amp", action="store_true", help="torch.autocast + GradScaler")
    p.add_argument("--channels-last", action="store_true")
    p.add_argument("--sync-every-step", action="store_true", help="torch.cuda.synchronize() after each step")
    p.add_argument("--no-pin-memory", dest="pin_memory", action="store_false")
    p.add_argument("--no-torchvision", dest="torchvision", action="store_false",
                   help="use the hand-written ImageFolder, transforms and ResNet even if torchvision is here")
    p.add_argument("--checkpoint-dir", default=".")
    p.add_argument("--log", help="write the ground truth here (JSON lines) instead of stderr")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()

    t_origin = time.monotonic()
    log = gm.Log(a.log)
    device = gm.pick_device(a.device)
    random.seed(a.seed)
    torch.manual_seed(a.seed)
    cuda = device.type == "cuda"
    if cuda:
        torch.cuda.set_device(device)
        torch.backends.cudnn.benchmark = True
    train_set, val_set, data_source = datasets(a.data, a.image_size, a.val_resize, a.torchvision)
    model, model_source = gm.resnet(a.arch, len(train_set.classes), a.torchvision)
    memory_format = torch.channels_last if a.channels_last else torch.contiguous_format
    model = model.to(device, memory_format=memory_format)
    criterion = torch.nn.CrossEntropyLoss().to(device)
    optimizer = torch.optim.SGD(model.parameters(), a.lr, momentum=0.9, weight_decay=1e-4)
    scaler = gm.grad_scaler(device, a.amp)
    pin = a.pin_memory and cuda  # pinning needs CUDA; on CPU the DataLoader would only warn
    train_loader = DataLoader(train_set, batch_size=a.batch_size, shuffle=True, num_workers=a.workers,
                              pin_memory=pin, persistent_workers=False)
    val_loader = DataLoader(val_set, batch_size=a.batch_size, shuffle=False, num_workers=a.workers,
                            pin_memory=pin)
    os.makedirs(a.checkpoint_dir, exist_ok=True)
    timer = gm.StepTimer(device)
    steps, best_acc = [], -1.0
    train_compute, val_compute, waits = [], [], []

    def run_pass(epoch, phase, loader):
        is_train = phase == "train"
        model.train(is_train)
        recs, correct = [], torch.zeros((), dtype=torch.long, device=device)
        t_pass = time.monotonic()
        it = iter(loader)
        i = 0
        with torch.set_grad_enabled(is_train):
            while True:
                t0 = time.monotonic()
                try:
                    images, target = next(it)
                except StopIteration:
                    break
                t1 = time.monotonic()
                timer.start()
                images = images.to(device, non_blocking=True, memory_format=memory_format)
                target = target.to(device, non_blocking=True)
                with gm.autocast(device, a.amp):
                    output = model(images)
                    loss = criterion(output, target)
                if is_train:
                    optimizer.zero_grad(set_to_none=True)
                    scaler.scale(loss).backward()
                    scaler.step(optimizer)
                    scaler.update()
                else:
                    correct += (output.argmax(1) == target).sum()
                timer.stop()
                if a.sync_every_step and cuda:
                    torch.cuda.synchronize()
                if i % a.print_freq == 0:
                    print(f"{phase} epoch [{epoch}][{i:4d}/{len(loader)}] loss {loss.item():.4f} "
                          f"data {t1 - t0:.3f}", flush=True)
                t2 = time.monotonic()
                recs.append({"epoch": epoch, "phase": phase, "step": i, "t_ready_ns": int(t1 * 1e9),
                             "data_wait_s": t1 - t0, "cpu_s": t2 - t1})
                i += 1
        acc = correct.item() / len(loader.dataset)  # the pass's last synchronisation
        for r, c in zip(recs, timer.resolve()):
            r["compute_s"] = c
            (train_compute if is_train else val_compute).append(c)
            if is_train:
                waits.append(r["data_wait_s"])
            log.add("step", **r)
        steps.append((phase, len(recs)))
        log.add("epoch", epoch=epoch, phase=phase, steps=len(recs), seconds=time.monotonic() - t_pass,
                accuracy=acc if not is_train else None)
        return acc

    checkpoints = []
    for epoch in range(a.epochs):
        run_pass(epoch, "train", train_loader)
        acc = run_pass(epoch, "val", val_loader)
        path = os.path.join(a.checkpoint_dir, "checkpoint.pth.tar")
        first = len(checkpoints)
        t0 = time.monotonic()
        torch.save({"epoch": epoch + 1, "arch": a.arch, "state_dict": model.state_dict(),
                    "best_acc1": max(best_acc, acc), "optimizer": optimizer.state_dict(),
                    "scaler": scaler.state_dict()}, path)
        checkpoints.append({"epoch": epoch, "path": path, "bytes": os.path.getsize(path),
                            "seconds": time.monotonic() - t0, "kind": "torch.save"})
        if acc > best_acc:
            best_acc = acc
            best = os.path.join(a.checkpoint_dir, "model_best.pth.tar")
            shutil.copyfile(path, best)
            checkpoints.append({"epoch": epoch, "path": best, "bytes": os.path.getsize(best),
                                "kind": "copyfile"})
        for c in checkpoints[first:]:
            log.add("checkpoint", **c)
    train_steps = [n for ph, n in steps if ph == "train"]
    val_steps = [n for ph, n in steps if ph == "val"]
    log.add("summary", program="gpu_imagenet", arch=a.arch, model_source=model_source,
            data_source=data_source, amp=a.amp, channels_last=a.channels_last, pin_memory=pin,
            sync_every_step=a.sync_every_step, batch_size=a.batch_size, workers=a.workers,
            epochs=a.epochs, train_samples=len(train_set), val_samples=len(val_set),
            steps_per_epoch=train_steps, val_steps_per_pass=val_steps, steps=sum(train_steps),
            val_steps=sum(val_steps), drop_last=False,
            checkpoint_bytes=sum(c["bytes"] for c in checkpoints), checkpoints=len(checkpoints),
            compute_median_s=gm.median(train_compute), val_compute_median_s=gm.median(val_compute),
            data_wait_median_s=gm.median(waits), wall_s=time.monotonic() - t_origin,
            **gm.device_info(device))
    log.write()


if __name__ == "__main__":
    main()
