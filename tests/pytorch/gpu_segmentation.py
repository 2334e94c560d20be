#!/usr/bin/python3
"""3D segmentation training shaped like MLPerf's UNet3D / KiTS19 reference, for CPU or one GPU.

  make_gpu_datasets.py --kits DATA
  gpu_segmentation.py DATA --device cuda -b 2 -j 4 --epochs 4 --patch 128 [--amp]

DATA holds case_XXXXX_x.npy (image, float32 1 x D x H x W) and case_XXXXX_y.npy (label, uint8) side by
side in ONE folder, as the reference's preprocessing leaves them. DATA/evaluation_cases.txt (or
--val-list) names the validation cases by number; every other case trains. A sample is two files: one
DataLoader worker np.loads the image and then its label, back to back, and cuts a random --patch cube
(with a random flip) out of both. Batches of 2 (drop_last, reshuffled every epoch), pin_memory=True on
CUDA, .to(device, non_blocking=True); the reference's U-Net (filters 32, 64, 128, 256, 320; smaller with
--filters), Dice + cross-entropy loss, SGD with momentum, optional autocast + GradScaler (--amp). After
every --eval-every epochs an evaluation pass over the validation cases (the centre patch of each, batch
1; the reference slides a window over the whole case), and one torch.save checkpoint at the end.
loss.item() only every --print-freq steps: on CUDA the CPU runs ahead of the GPU in between.

Ground truth: JSON lines at exit on stderr or --log FILE, the records gpu_imagenet.py writes
("step", "epoch", "checkpoint", "summary"; tests/pytorch/README.md).
"""
import argparse
import glob
import os
import sys
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_models as gm  # noqa: E402

N_CLASS = 3


def split_cases(data, val_list):
    """(train pairs, val pairs) of (image path, label path); the list file holds case numbers."""
    with open(val_list) as f:
        val_ids = {line.strip() for line in f if line.strip()}
    images = sorted(glob.glob(os.path.join(data, "*_x.npy")))
    labels = sorted(glob.glob(os.path.join(data, "*_y.npy")))
    if not images or len(images) != len(labels):
        raise SystemExit(f"gpu_segmentation.py: {data}: {len(images)} *_x.npy and {len(labels)} *_y.npy")
    train, val = [], []
    for x, y in zip(images, labels):
        case = os.path.basename(x).split("_")[-2]
        (val if case in val_ids else train).append((x, y))
    return train, val


class Cases(Dataset):
    def __init__(self, pairs, patch, train, seed):
        self.pairs, self.patch, self.train, self.seed = pairs, patch, train, seed
        self.rng = None

    def __len__(self):
        return len(self.pairs)

    def __getitem__(self, i):
        if self.rng is None:  # one generator per worker process, seeded from torch's per-worker seed
            self.rng = np.random.default_rng(torch.initial_seed() % (1 << 32))
        xp, yp = self.pairs[i]
        image, label = np.load(xp), np.load(yp)
        p = self.patch
        shape = image.shape[1:]
        if self.train:
            corner = [int(self.rng.integers(0, s - p + 1)) for s in shape]
        else:
            corner = [(s - p) // 2 for s in shape]
        sl = (slice(None),) + tuple(slice(c, c + p) for c in corner)
        image, label = image[sl], label[sl]
        if self.train:
            for axis in (1, 2, 3):
                if self.rng.random() < 0.5:
                    image, label = np.flip(image, axis), np.flip(label, axis)
        return (torch.from_numpy(np.ascontiguousarray(image)),
                torch.from_numpy(np.ascontiguousarray(label[0]).astype(np.int64)))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("data", help="folder with case_XXXXX_x.npy and case_XXXXX_y.npy")
    p.add_argument("--val-list", help="validation case numbers (default DATA/evaluation_cases.txt)")
    p.add_argument("--device", default="auto", help="cuda, cuda:N, cpu or auto (cuda when there is one)")
    p.add_argument("-j", "--workers", type=int, default=4)
    p.add_argument("-b", "--batch-size", type=int, default=2)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--eval-every", type=int, default=1, help="evaluation pass every N epochs")
    p.add_argument("--patch", type=int, default=128, help="side of the training cube")
    p.add_argument("--filters", default="32,64,128,256,320", help="U-Net widths per level")
    p.add_argument("--lr", type=float, default=0.01)
    p.add_argument("-p", "--print-freq", type=int, default=5, help="loss.item() and a line every N steps")
    p.add_argument("--amp", action="store_true", help="torch.autocast + GradScaler")
    p.add_argument("--sync-every-step", action="store_true", help="torch.cuda.synchronize() after each step")
    p.add_argument("--no-pin-memory", dest="pin_memory", action="store_false")
    p.add_argument("--checkpoint", default="unet3d_final.pt", help="torch.save at the end to this file")
    p.add_argument("--log", help="write the ground truth here (JSON lines) instead of stderr")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()

    t_origin = time.monotonic()
    log = gm.Log(a.log)
    device = gm.pick_device(a.device)
    cuda = device.type == "cuda"
    torch.manual_seed(a.seed)
    if cuda:
        torch.cuda.set_device(device)
        torch.backends.cudnn.benchmark = True
    filters = [int(f) for f in a.filters.split(",")]
    if a.patch % (2 ** len(filters)) or a.patch < 2 ** (len(filters) + 1):
        p.error(f"--patch {a.patch}: must be a multiple of 2**{len(filters)} (one halving per level) "
                f"and at least {2 ** (len(filters) + 1)} (instance norm needs 2 voxels a side)")
    train_pairs, val_pairs = split_cases(a.data, a.val_list or os.path.join(a.data, "evaluation_cases.txt"))
    model = gm.UNet3D(filters, 1, N_CLASS).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=a.lr, momentum=0.9, nesterov=True)
    scaler = gm.grad_scaler(device, a.amp)
    pin = a.pin_memory and cuda
    train_loader = DataLoader(Cases(train_pairs, a.patch, True, a.seed), batch_size=a.batch_size,
                              shuffle=True, drop_last=True, num_workers=a.workers, pin_memory=pin)
    val_loader = DataLoader(Cases(val_pairs, a.patch, False, a.seed), batch_size=1, shuffle=False,
                            num_workers=a.workers, pin_memory=pin)
    timer = gm.StepTimer(device)
    steps, train_compute, val_compute, waits = [], [], [], []

    def run_pass(epoch, phase, loader):
        is_train = phase == "train"
        model.train(is_train)
        recs, score = [], torch.zeros((), device=device)
        t_pass = time.monotonic()
        it = iter(loader)
        i = 0
        with torch.set_grad_enabled(is_train):
            while True:
                t0 = time.monotonic()
                try:
                    image, label = next(it)
                except StopIteration:
                    break
                t1 = time.monotonic()
                timer.start()
                image = image.to(device, non_blocking=True)
                label = label.to(device, non_blocking=True)
                with gm.autocast(device, a.amp):
                    output = model(image)
                    loss = gm.dice_ce_loss(output, label, N_CLASS)
                if is_train:
                    optimizer.zero_grad(set_to_none=True)
                    scaler.scale(loss).backward()
                    scaler.step(optimizer)
                    scaler.update()
                else:
                    score += 1 - loss.detach().float()
                timer.stop()
                if a.sync_every_step and cuda:
                    torch.cuda.synchronize()
                if is_train and i % a.print_freq == 0:
                    print(f"epoch {epoch} step {i}/{len(loader)} loss {loss.item():.4f}", flush=True)
                t2 = time.monotonic()
                recs.append({"epoch": epoch, "phase": phase, "step": i, "t_ready_ns": int(t1 * 1e9),
                             "data_wait_s": t1 - t0, "cpu_s": t2 - t1})
                i += 1
        value = score.item() / max(1, len(recs))  # the pass's last synchronisation
        for r, c in zip(recs, timer.resolve()):
            r["compute_s"] = c
            (train_compute if is_train else val_compute).append(c)
            if is_train:
                waits.append(r["data_wait_s"])
            log.add("step", **r)
        steps.append((phase, len(recs)))
        log.add("epoch", epoch=epoch, phase=phase, steps=len(recs), seconds=time.monotonic() - t_pass,
                score=None if is_train else value)
        if not is_train:
            print(f"eval epoch {epoch}: score {value:.4f}", flush=True)

    for epoch in range(a.epochs):
        run_pass(epoch, "train", train_loader)
        if (epoch + 1) % a.eval_every == 0:
            run_pass(epoch, "val", val_loader)
    d = os.path.dirname(a.checkpoint)
    if d:
        os.makedirs(d, exist_ok=True)
    t0 = time.monotonic()
    torch.save({"epoch": a.epochs, "model": model.state_dict(), "optimizer": optimizer.state_dict(),
                "scaler": scaler.state_dict()}, a.checkpoint)
    ckpt = {"epoch": a.epochs - 1, "path": a.checkpoint, "bytes": os.path.getsize(a.checkpoint),
            "seconds": time.monotonic() - t0, "kind": "torch.save"}
    log.add("checkpoint", **ckpt)
    train_steps = [n for ph, n in steps if ph == "train"]
    val_steps = [n for ph, n in steps if ph == "val"]
    log.add("summary", program="gpu_segmentation", model="unet3d", filters=filters, patch=a.patch,
            amp=a.amp, pin_memory=pin, sync_every_step=a.sync_every_step, batch_size=a.batch_size,
            val_batch_size=1, workers=a.workers, epochs=a.epochs, eval_every=a.eval_every,
            train_samples=len(train_pairs), val_samples=len(val_pairs), files_per_sample=2,
            train_files=2 * len(train_pairs), val_files=2 * len(val_pairs), drop_last=True,
            steps_per_epoch=train_steps, val_steps_per_pass=val_steps, steps=sum(train_steps),
            val_steps=sum(val_steps), checkpoint_bytes=ckpt["bytes"], checkpoints=1,
            compute_median_s=gm.median(train_compute), val_compute_median_s=gm.median(val_compute),
            data_wait_median_s=gm.median(waits), wall_s=time.monotonic() - t_origin,
            **gm.device_info(device))
    log.write()


if __name__ == "__main__":
    main()
