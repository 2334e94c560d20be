#!/usr/bin/python3
"""A WebDataset-style classifier: an IterableDataset streaming tar shards (held-out program).

  make_data.py --wds DATA --scale gpu
  wds_shards.py DATA --device cuda --arch resnet18 -b 128 -j 8 --epochs 4 --image-size 160 --amp \
      --grad-ckpt --out OUT

What `wds.WebDataset(urls, shardshuffle=True).shuffle(1000).decode("pil").to_tuple("jpg", "cls")`
does, written out with tarfile: each epoch the shard list DATA/train/shard-*.tar is shuffled (seeded
by the epoch) and split over the DataLoader workers (worker w takes shards w, w + workers, ...; the
split_by_worker of WebDataset); a worker opens each of its shards and streams it front to back
(tarfile mode "r|": no seeking, no index), groups adjacent members by key into a sample (KEY.jpg,
KEY.cls, KEY.json), passes samples through a --shuffle-buffer sample buffer, decodes the JPEG with PIL,
random-resized-crops and flips it, and yields (uint8 CHW, label). The DataLoader batches each worker's
samples separately (batch --batch-size, the last batch of each worker short), pins memory on CUDA and
forks its workers every epoch (persistent_workers=False). resnet18 (gpu_models, hand-written) whose
four stages run under torch.utils.checkpoint (--grad-ckpt, use_reentrant=False: activations
recomputed in backward); --amp: float16 autocast + GradScaler; SGD with a cosine schedule. loss.item()
every --log-every steps. After each epoch an evaluation over DATA/val/shard-*.tar (same streaming, no
shuffle, at most as many workers as val shards) and torch.save of model + optimizer + scaler + epoch to
OUT/checkpoint.pt (overwritten). At the end the weights alone, as float16, to OUT/model_final.pt.

Ground truth: JSON lines at exit to --log FILE and the summary as the last stdout line (README.md).
"""
import glob
import io
import math
import os
import random
import sys
import tarfile
import time

import numpy as np
import torch
from PIL import Image
from torch import nn
from torch.nn import functional as F
from torch.utils.checkpoint import checkpoint
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import groundtruth  # noqa: E402
from groundtruth import truth  # noqa: E402

BILINEAR = getattr(Image, "Resampling", Image).BILINEAR
MEAN, STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)


# --- Data: streamed tar shards -----------------------------------------------------------------------

def tar_samples(path):
    """Adjacent members with one key make a sample: {"__key__": KEY, "jpg": bytes, "cls": bytes, ...}."""
    sample = None
    with open(path, "rb") as stream, tarfile.open(fileobj=stream, mode="r|") as tar:
        for member in tar:
            if not member.isfile():
                continue
            key, _, ext = member.name.partition(".")
            if sample is not None and sample["__key__"] != key:
                yield sample
                sample = None
            if sample is None:
                sample = {"__key__": key}
            sample[ext] = tar.extractfile(member).read()
    if sample is not None:
        yield sample


class ShardStream(IterableDataset):
    def __init__(self, urls, train, size, shuffle_buffer, seed):
        self.urls, self.train, self.size = urls, train, size
        self.shuffle_buffer, self.seed, self.epoch = shuffle_buffer, seed, 0

    def set_epoch(self, epoch):
        self.epoch = epoch

    def my_shards(self):
        urls = list(self.urls)
        if self.train:
            random.Random(self.seed + self.epoch).shuffle(urls)
        info = get_worker_info()
        return urls if info is None else urls[info.id::info.num_workers]

    def shuffled(self, samples):
        if not self.train or self.shuffle_buffer <= 1:
            yield from samples
            return
        rng, buf = random.Random(), []
        for s in samples:
            buf.append(s)
            if len(buf) >= self.shuffle_buffer:
                yield buf.pop(rng.randrange(len(buf)))
        rng.shuffle(buf)
        yield from buf

    def decode(self, s):
        img = Image.open(io.BytesIO(s["jpg"])).convert("RGB")
        w, h = img.size
        if self.train:  # RandomResizedCrop(size, scale=(0.35, 1)) + flip
            area = w * h * random.uniform(0.35, 1.0)
            ratio = math.exp(random.uniform(math.log(3 / 4), math.log(4 / 3)))
            cw, ch = min(w, int(math.sqrt(area * ratio))), min(h, int(math.sqrt(area / ratio)))
            x, y = random.randint(0, w - cw), random.randint(0, h - ch)
        else:  # centre crop of the short side
            cw = ch = min(w, h)
            x, y = (w - cw) // 2, (h - ch) // 2
        img = img.resize((self.size, self.size), BILINEAR, box=(x, y, x + cw, y + ch))
        arr = np.asarray(img, dtype=np.uint8)
        if self.train and random.random() < 0.5:
            arr = arr[:, ::-1]
        return torch.from_numpy(arr.copy()).permute(2, 0, 1), int(s["cls"])

    def __iter__(self):
        def samples():
            for url in self.my_shards():
                yield from tar_samples(url)
        for s in self.shuffled(samples()):
            yield self.decode(s)


# --- Model ------------------------------------------------------------------------------------------

class CheckpointedResNet(nn.Module):
    def __init__(self, arch, classes, grad_ckpt):
        super().__init__()
        widths = (8, 16, 32, 64) if arch == "tiny" else (64, 128, 256, 512)
        blocks = (1, 1, 1, 1) if arch == "tiny" else (2, 2, 2, 2)
        self.net = truth.ResNet(truth.BasicBlock, blocks, widths=widths, num_classes=classes)
        self.grad_ckpt = grad_ckpt
        self.register_buffer("mean", torch.tensor(MEAN).view(1, 3, 1, 1) * 255)
        self.register_buffer("std", torch.tensor(STD).view(1, 3, 1, 1) * 255)

    def forward(self, x):
        n = self.net
        x = (x.float() - self.mean) / self.std
        x = n.maxpool(n.relu(n.bn1(n.conv1(x))))
        for stage in n.layers:
            x = checkpoint(stage, x, use_reentrant=False) if self.grad_ckpt and self.training else stage(x)
        return n.fc(torch.flatten(n.avgpool(x), 1))


# --- Training -------------------------------------------------------------------------------------------

def parse_args(argv=None):
    p = groundtruth.parser(__doc__, "folder with train/shard-*.tar and val/shard-*.tar", 5)
    p.add_argument("--arch", default="resnet18", choices=("resnet18", "tiny"))
    p.add_argument("-b", "--batch-size", type=int, default=128)
    p.add_argument("-j", "--workers", type=int, default=8)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--image-size", type=int, default=160)
    p.add_argument("--shuffle-buffer", type=int, default=1000)
    p.add_argument("--classes", type=int, default=100)
    p.add_argument("--amp", action="store_true")
    p.add_argument("--grad-ckpt", action="store_true", help="torch.utils.checkpoint on each stage")
    p.add_argument("--lr", type=float, default=0.1)
    p.add_argument("--log-every", type=int, default=10)
    p.add_argument("--out", default="out")
    return groundtruth.args_or_make(p, argv, "wds")


class Trainer(groundtruth.Program):
    def __init__(self, a):
        super().__init__(a)
        if self.cuda:
            torch.backends.cudnn.benchmark = True
        self.train_urls = sorted(glob.glob(os.path.join(a.data, "train", "shard-*.tar")))
        self.val_urls = sorted(glob.glob(os.path.join(a.data, "val", "shard-*.tar")))
        if not self.train_urls or not self.val_urls:
            raise SystemExit(f"wds_shards.py: no train/ or val/ shard-*.tar in {a.data}")
        self.train_set = ShardStream(self.train_urls, True, a.image_size, a.shuffle_buffer, a.seed)
        self.val_set = ShardStream(self.val_urls, False, a.image_size, 0, a.seed)
        self.val_workers = min(a.workers, len(self.val_urls))
        self.model = CheckpointedResNet(a.arch, a.classes, a.grad_ckpt).to(self.device)
        if self.cuda:
            self.model = self.model.to(memory_format=torch.channels_last)
        self.params = sum(p.numel() for p in self.model.parameters())
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=a.lr, momentum=0.9, weight_decay=5e-5,
                                         nesterov=True)
        self.scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(self.optimizer, a.epochs)
        self.scaler = truth.grad_scaler(self.device, a.amp)
        self.samples = {"train": 0, "val": 0}
        self.batch_sizes = []

    def loader(self, train):
        return DataLoader(self.train_set if train else self.val_set, batch_size=self.a.batch_size,
                          num_workers=self.a.workers if train else self.val_workers, pin_memory=self.cuda)

    def to_device(self, x, y):
        return x.to(self.device, non_blocking=True), y.to(self.device, non_blocking=True)

    def train_epoch(self, epoch):
        self.model.train()
        self.train_set.set_epoch(epoch)
        t_pass, i = time.monotonic(), 0
        for (x, y), t0, t1 in groundtruth.timed(self.loader(True)):
            self.T.start()
            x, y = self.to_device(x, y)
            with truth.autocast(self.device, self.a.amp):
                loss = F.cross_entropy(self.model(x), y)
            self.optimizer.zero_grad(set_to_none=True)
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
            if i % self.a.log_every == 0:
                print(f"epoch {epoch} step {i} loss {loss.item():.4f}", flush=True)
            self.T.stop(epoch, "train", i, t0, t1, samples=int(x.shape[0]))
            self.samples["train"] += int(x.shape[0])
            self.batch_sizes.append(int(x.shape[0]))
            i += 1
        self.T.end_pass(epoch, "train", i, t_pass)
        self.scheduler.step()

    @torch.no_grad()
    def evaluate(self, epoch):
        self.model.eval()
        t_pass, i, correct = time.monotonic(), 0, []
        for (x, y), t0, t1 in groundtruth.timed(self.loader(False)):
            self.T.start()
            x, y = self.to_device(x, y)
            with truth.autocast(self.device, self.a.amp):
                correct.append((self.model(x).argmax(1) == y).sum())
            self.T.stop(epoch, "val", i, t0, t1, samples=int(x.shape[0]))
            self.samples["val"] += int(x.shape[0])
            i += 1
        acc = torch.stack(correct).sum().item()  # the pass's synchronisation
        self.T.end_pass(epoch, "val", i, t_pass, correct=acc)

    def save(self, epoch, final=False):
        self.T.flush()
        os.makedirs(self.a.out, exist_ok=True)
        t0 = time.monotonic()
        if final:
            path = os.path.join(self.a.out, "model_final.pt")
            torch.save({k: v.half() if v.is_floating_point() else v for k, v in self.model.state_dict().items()}, path)
        else:
            path = os.path.join(self.a.out, "checkpoint.pt")
            torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                        "scaler": self.scaler.state_dict(), "epoch": epoch}, path)
        self.T.checkpoint(epoch=epoch, path=path, bytes=os.path.getsize(path), seconds=time.monotonic() - t0,
                          kind="torch.save (float16 weights)" if final else "torch.save")

    def finish(self):
        a, T = self.a, self.T
        T.finish(
            "wds_shards", arch=a.arch, params=self.params, batch_size=a.batch_size, workers=a.workers,
            val_workers=self.val_workers, epochs=a.epochs, train_files=len(self.train_urls),
            val_files=len(self.val_urls), files=len(self.train_urls) + len(self.val_urls),
            file_bytes=sum(os.path.getsize(u) for u in self.train_urls + self.val_urls),
            train_samples=self.samples["train"] // a.epochs, val_samples=self.samples["val"] // a.epochs,
            batch_size_min=min(self.batch_sizes),
            batch_size_max=max(self.batch_sizes), read="stream (tarfile r|, each shard by one worker)",
            shuffle="shards per epoch + sample buffer", shuffle_buffer=a.shuffle_buffer, drop_last=False,
            pin_memory=self.cuda, persistent_workers=False, amp=a.amp, grad_ckpt=a.grad_ckpt,
            sync_every_step=False, image_size=a.image_size, eval_every_epochs=1, checkpoint_every_epochs=1)


def main():
    a = parse_args()
    t = Trainer(a)
    for epoch in range(a.epochs):
        t.train_epoch(epoch)
        t.evaluate(epoch)
        t.save(epoch)
    t.save(a.epochs - 1, final=True)
    t.finish()


if __name__ == "__main__":
    main()
