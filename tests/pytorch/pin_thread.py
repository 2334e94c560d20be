#!/usr/bin/python3
"""A training loop fed through an in-process hand-over thread, as PyTorch's pin_memory=True does.

On a GPU host every training script sets pin_memory=True: a `pt_data_pin` thread of the main
process receives the batches from the DataLoader workers (recvmsg on their sockets, for the shared
tensors' descriptors), pins them and hands them to the training loop through a queue.Queue. No
syscall of the training loop marks the step. Without CUDA pin_memory does nothing, so this script
builds the same structure itself: a thread named `pt_data_pin` iterates the DataLoader (workers,
batches, shuffle) and puts each batch on a queue.Queue; the main thread takes them off and spends
a known time per step (a sleep standing in for the GPU). ImageFolder-style JPEG class folders,
a validation pass after every epoch, a progress line every few steps and torch.save of the model
every epoch, as PyTorch's ImageNet example does.

  pin_thread.py --make-data DIR      # DIR/train/<class>/*.jpg and DIR/val/<class>/*.jpg (PIL)
  pin_thread.py --data DIR/train --val-data DIR/val --checkpoint-dir CKPT

The last stdout line is JSON with the ground truth (files, batches, steps per pass, step times).
"""
import argparse
import json
import os
import queue
import sys
import threading
import time

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset

SIDE = 32  # the model's input: SIDE x SIDE RGB
DONE = object()  # end of a pass on the hand-over queue


def make_data(root, classes, train_per_class, val_per_class, size, seed):
    rng = np.random.default_rng(seed)
    for split, per_class in (("train", train_per_class), ("val", val_per_class)):
        for c in range(classes):
            d = os.path.join(root, split, f"class_{c:02d}")
            os.makedirs(d, exist_ok=True)
            for i in range(per_class):
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
            raise SystemExit(f"pin_thread.py: no JPEG files under {root}")

    def __len__(self):
        return len(self.samples)

    def __getitem__(self, i):
        path, label = self.samples[i]
        with open(path, "rb") as f:
            img = Image.open(f).convert("RGB")
        img = img.resize((SIDE, SIDE))
        x = torch.from_numpy(np.asarray(img, dtype=np.float32).transpose(2, 0, 1) / 255.0)
        return x, label


def name_thread(name):
    """Sets this thread's kernel name (comm), as PyTorch names its pin-memory thread."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(15, ctypes.c_char_p(name), 0, 0, 0)  # PR_SET_NAME
    except (OSError, AttributeError):
        pass


def handed_over(loader, depth):
    """Yields the loader's batches as a training loop behind a pin-memory thread gets them: a
    thread of this process receives each batch from the workers and puts it on a queue.Queue.
    As in PyTorch, the thread ends when the loop asks for the batch after the last one, and the
    workers are shut down after it."""
    it = iter(loader)  # starts the workers
    q = queue.Queue(maxsize=depth)
    finished = threading.Event()

    # The "pinned" buffers, reused like CUDA's caching host allocator: the loop never frees the
    # workers' shared-memory tensors itself (their munmap stays on this thread, as on a GPU host).
    ring = []

    def receive():
        name_thread(b"pt_data_pin")
        try:
            for k in range(len(loader)):
                x, y = next(it)
                if len(ring) < depth + 3:
                    ring.append((torch.empty((loader.batch_size,) + tuple(x.shape[1:]), dtype=x.dtype),
                                 torch.empty((loader.batch_size,), dtype=y.dtype)))
                px, py = ring[k % (depth + 3)]
                n = x.shape[0]
                px[:n].copy_(x)
                py[:n].copy_(y)
                del x, y  # the shared-memory batch is released here
                q.put((px[:n], py[:n]))
        finally:
            q.put(DONE)
            finished.wait()

    t = threading.Thread(target=receive, name="pt_data_pin", daemon=True)
    t.start()
    while True:
        batch = q.get()
        if batch is DONE:
            break
        yield batch
    finished.set()
    t.join()
    del it  # shuts the workers down


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make-data", help="write a JPEG dataset under this directory and exit")
    p.add_argument("--classes", type=int, default=4)
    p.add_argument("--train-per-class", type=int, default=60)
    p.add_argument("--val-per-class", type=int, default=16)
    p.add_argument("--image-size", type=int, default=280)
    p.add_argument("--data", help="training folder (class subfolders)")
    p.add_argument("--val-data", help="validation folder (class subfolders)")
    p.add_argument("--workers", type=int, default=4)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--depth", type=int, default=2, help="batches the hand-over queue holds")
    p.add_argument("--compute-ms", type=float, default=30.0, help="sleep per training step")
    p.add_argument("--val-compute-ms", type=float, default=10.0, help="sleep per evaluation step")
    p.add_argument("--print-every", type=int, default=5,
                   help="print progress every N training steps (the ImageNet example's -p)")
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
    model.register_buffer("state", torch.zeros(a.state_mib << 18))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = torch.nn.CrossEntropyLoss()
    train_loader = DataLoader(train_set, batch_size=a.batch_size, shuffle=True,
                              num_workers=a.workers)
    val_loader = DataLoader(val_set, batch_size=a.batch_size, shuffle=False, num_workers=a.workers)
    os.makedirs(a.checkpoint_dir, exist_ok=True)
    steps_per_epoch, val_steps_per_pass, step_times, t0 = [], [], [], time.time()
    for epoch in range(a.epochs):
        model.train()
        steps = 0
        for x, y in handed_over(train_loader, a.depth):
            s0 = time.perf_counter()
            opt.zero_grad()
            loss_fn(model(x), y).backward()
            opt.step()
            time.sleep(a.compute_ms / 1000.0)
            step_times.append(time.perf_counter() - s0)
            if a.print_every and steps % a.print_every == 0:
                print(f"Epoch: [{epoch}][{steps}] Time {step_times[-1]:.3f}", flush=True)
            steps += 1
        steps_per_epoch.append(steps)
        model.eval()
        val_steps = 0
        with torch.no_grad():
            for x, y in handed_over(val_loader, a.depth):
                model(x)
                time.sleep(a.val_compute_ms / 1000.0)
                val_steps += 1
        val_steps_per_pass.append(val_steps)
        torch.save({"epoch": epoch, "model": model.state_dict()},
                   os.path.join(a.checkpoint_dir, "checkpoint.pt"))
    print(json.dumps({"train_files": len(train_set), "val_files": len(val_set),
                      "batch_size": a.batch_size, "workers": a.workers, "epochs": a.epochs,
                      "steps": sum(steps_per_epoch), "steps_per_epoch": steps_per_epoch,
                      "val_steps": sum(val_steps_per_pass),
                      "val_steps_per_pass": val_steps_per_pass,
                      "step_time_median_s": float(np.median(step_times)),
                      "elapsed_s": time.time() - t0}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
