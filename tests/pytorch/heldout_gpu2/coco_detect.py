#!/usr/bin/python3
"""A torchvision-references-style object detector over a COCO-layout folder (held-out program).

  make_data.py --coco DATA --scale gpu
  coco_detect.py DATA --device cuda -b 8 -j 8 --epochs 3 --min-size 512 --max-size 853 --amp --output-dir OUT

What references/detection/train.py does, written out without torchvision: the main process json.loads
DATA/annotations/instances_train2017.json (and the val one) at start; training drops images without
annotations (_coco_remove_images_without_annotations). A worker opens an image with PIL, converts to
RGB, flips it and its boxes with probability 0.5 (train) and returns a uint8 CHW tensor plus a target
dict (boxes xyxy, labels, image_id, area, iscrowd). Batches are grouped by aspect ratio
(create_aspect_ratio_groups with --aspect-ratio-group-factor 3 from the annotation file's width and
height, GroupedBatchSampler over a RandomSampler: a batch holds images of one group; the epoch's
leftovers are completed with repeated images of their group, so an epoch has floor(images / batch)
batches); collate_fn returns tuples of lists. Images and targets go to the device one by one with
non_blocking=True (pinned on CUDA); the model's transform normalises, resizes each image so its short
side is --min-size (long side at most --max-size) and pads the batch to a multiple of 32 on the device.
A resnet18 backbone (gpu_models, hand-written) with an FCOS-like head on strides 16 and 32 (class and
box losses). SGD, linear warm-up in epoch 0, MultiStepLR; --amp: float16 autocast + GradScaler.
Every training step calls loss.item() (the reference's MetricLogger: a synchronisation a step).
After each epoch: a checkpoint dict (model, optimizer, lr_scheduler, scaler, args, epoch) saved twice,
OUT/model_EPOCH.pth and OUT/checkpoint.pth, then evaluation over val2017 at batch 1 (the reference's
test loader) whose outputs go to the CPU every step (the COCO evaluator's .to(cpu)).

Ground truth: JSON lines at exit to --log FILE and the summary as the last stdout line (README.md).
"""
import bisect
import json
import math
import os
import random
import sys
import time
from collections import defaultdict

import numpy as np
import torch
from PIL import Image
from torch import nn
from torch.nn import functional as F
from torch.utils.data import DataLoader, Dataset, RandomSampler, Sampler, SequentialSampler

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import groundtruth  # noqa: E402
from groundtruth import truth  # noqa: E402

MEAN, STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)


# --- Data -----------------------------------------------------------------------------------------------

class CocoDetection(Dataset):
    def __init__(self, root, split, train):
        with open(os.path.join(root, "annotations", f"instances_{split}2017.json")) as f:
            coco = json.load(f)
        self.folder, self.train = os.path.join(root, f"{split}2017"), train
        self.anns = defaultdict(list)
        for a in coco["annotations"]:
            self.anns[a["image_id"]].append(a)
        self.images = sorted(coco["images"], key=lambda im: im["id"])
        self.on_disk = len(self.images)
        if train:  # _coco_remove_images_without_annotations
            self.images = [im for im in self.images if self.anns[im["id"]]]
        self.num_classes = 1 + max(c["id"] for c in coco["categories"])

    def __len__(self):
        return len(self.images)

    def aspect_ratio(self, i):
        return self.images[i]["width"] / self.images[i]["height"]

    def __getitem__(self, i):
        im = self.images[i]
        img = Image.open(os.path.join(self.folder, im["file_name"])).convert("RGB")
        anns = self.anns[im["id"]]
        boxes = torch.tensor([[a["bbox"][0], a["bbox"][1], a["bbox"][0] + a["bbox"][2], a["bbox"][1] + a["bbox"][3]]
                              for a in anns], dtype=torch.float32).reshape(-1, 4)
        image = torch.from_numpy(np.asarray(img, dtype=np.uint8).copy()).permute(2, 0, 1)
        if self.train and random.random() < 0.5:  # RandomHorizontalFlip
            image = image.flip(-1)
            boxes = torch.stack([im["width"] - boxes[:, 2], boxes[:, 1], im["width"] - boxes[:, 0], boxes[:, 3]], 1)
        target = {"boxes": boxes, "labels": torch.tensor([a["category_id"] for a in anns], dtype=torch.int64),
                  "image_id": torch.tensor(im["id"]), "area": torch.tensor([float(a["area"]) for a in anns]),
                  "iscrowd": torch.tensor([a["iscrowd"] for a in anns], dtype=torch.int64)}
        return image.contiguous(), target


def aspect_ratio_groups(dataset, k):
    """create_aspect_ratio_groups: bins 2**linspace(-1, 1, 2k + 1) of width / height."""
    bins = (2 ** np.linspace(-1, 1, 2 * k + 1)).tolist() if k > 0 else [1.0]
    return [bisect.bisect_right(bins, dataset.aspect_ratio(i)) for i in range(len(dataset))]


class GroupedBatchSampler(Sampler):
    """Batches of one aspect-ratio group from the sampler's order; floor(len / batch) an epoch, the
    last ones completed from the groups' leftovers with repeats of the group's images."""

    def __init__(self, sampler, group_ids, batch_size):
        self.sampler, self.group_ids, self.batch_size = sampler, group_ids, batch_size

    def __iter__(self):
        buffers, seen, made = defaultdict(list), defaultdict(list), 0
        for idx in self.sampler:
            g = self.group_ids[idx]
            buffers[g].append(idx)
            seen[g].append(idx)
            if len(buffers[g]) == self.batch_size:
                yield buffers[g]
                made += 1
                buffers[g] = []
        need = len(self) - made
        for g in sorted(buffers, key=lambda g: -len(buffers[g])):
            if need <= 0:
                break
            if buffers[g]:
                pool = seen[g]
                batch = buffers[g] + [pool[j % len(pool)] for j in range(self.batch_size - len(buffers[g]))]
                yield batch
                need -= 1

    def __len__(self):
        return len(self.sampler) // self.batch_size


def collate_fn(batch):
    return tuple(zip(*batch))


# --- Model ------------------------------------------------------------------------------------------------

class Detector(nn.Module):
    def __init__(self, arch, num_classes, min_size, max_size):
        super().__init__()
        widths = (8, 16, 32, 64) if arch == "tiny" else (64, 128, 256, 512)
        blocks = (1, 1, 1, 1) if arch == "tiny" else (2, 2, 2, 2) if arch == "resnet18" else (3, 4, 6, 3)
        net = truth.ResNet(truth.BasicBlock, blocks, widths=widths)  # resnet18/34's shape, hand-written
        self.stem = nn.Sequential(net.conv1, net.bn1, net.relu, net.maxpool)
        self.c2, self.c3, self.c4, self.c5 = net.layers
        width = 64 if arch == "tiny" else 256
        self.lateral = nn.ModuleList(nn.Conv2d(c, width, 1) for c in widths[2:])
        self.tower = nn.Sequential(*(m for _ in range(2) for m in (nn.Conv2d(width, width, 3, padding=1),
                                                                    nn.GroupNorm(16, width), nn.ReLU(inplace=True))))
        self.cls, self.box = nn.Conv2d(width, num_classes, 3, padding=1), nn.Conv2d(width, 4, 3, padding=1)
        self.num_classes, self.min_size, self.max_size = num_classes, min_size, max_size
        self.register_buffer("mean", torch.tensor(MEAN).view(3, 1, 1))
        self.register_buffer("std", torch.tensor(STD).view(3, 1, 1))

    def transform(self, images, targets):
        """GeneralizedRCNNTransform: normalise, resize (boxes too), pad into one batch tensor."""
        out, scaled = [], []
        for i, img in enumerate(images):
            h, w = img.shape[-2:]
            s = min(self.min_size / min(h, w), self.max_size / max(h, w))
            x = (img.float() / 255 - self.mean) / self.std
            x = F.interpolate(x[None], scale_factor=s, mode="bilinear", recompute_scale_factor=True,
                              align_corners=False)[0]
            out.append(x)
            if targets is not None:
                scaled.append(dict(targets[i], boxes=targets[i]["boxes"] * s))
        hh = max(x.shape[-2] for x in out) + 31 & ~31
        ww = max(x.shape[-1] for x in out) + 31 & ~31
        batch = out[0].new_zeros((len(out), 3, hh, ww))
        for i, x in enumerate(out):
            batch[i, :, : x.shape[-2], : x.shape[-1]].copy_(x)
        return batch, (scaled if targets is not None else None)

    def forward(self, images, targets=None):
        x, targets = self.transform(images, targets)
        c4 = self.c4(self.c3(self.c2(self.stem(x))))
        c5 = self.c5(c4)
        levels = [(self.tower(lat(c)), 2 ** (4 + k)) for k, (lat, c) in enumerate(zip(self.lateral, (c4, c5)))]
        heads = [(self.cls(f), self.box(f), stride) for f, stride in levels]
        if targets is None:
            return [torch.cat([c.flatten(2) for c, _, _ in heads], 2).sigmoid().amax(1),
                    torch.cat([b.flatten(2) for _, b, _ in heads], 2)]
        return self.loss(heads, targets)

    def loss(self, heads, targets):
        cls_loss = box_loss = 0.0
        for cls, box, stride in heads:
            h, w = cls.shape[-2:]
            dev = cls.device
            ys, xs = torch.meshgrid(torch.arange(h, device=dev), torch.arange(w, device=dev), indexing="ij")
            cx, cy = (xs.flatten() + 0.5) * stride, (ys.flatten() + 0.5) * stride
            for i, t in enumerate(targets):
                b = t["boxes"]
                inside = ((cx[None] > b[:, 0:1]) & (cx[None] < b[:, 2:3]) &
                          (cy[None] > b[:, 1:2]) & (cy[None] < b[:, 3:4]))
                box_area = ((b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]))[:, None]
                area = torch.where(inside, box_area, torch.full_like(cx[None], 1e12))
                best = area.argmin(0)
                pos = inside.any(0)
                onehot = torch.zeros((self.num_classes, h * w), device=cls.device)
                onehot[t["labels"][best][pos], pos.nonzero().flatten()] = 1.0
                cls_loss = cls_loss + F.binary_cross_entropy_with_logits(cls[i].flatten(1).float(), onehot)
                ltrb = torch.stack([cx - b[best, 0], cy - b[best, 1], b[best, 2] - cx, b[best, 3] - cy]) / stride
                box_loss = box_loss + (F.smooth_l1_loss(box[i].flatten(1).float(), ltrb, reduction="none")
                                       * pos).sum() / (4 * pos.sum().clamp(min=1))
        n = float(len(targets))
        return {"loss_classifier": 10 * cls_loss / n, "loss_box_reg": box_loss / n}


# --- Training -----------------------------------------------------------------------------------------------

def parse_args(argv=None):
    p = groundtruth.parser(__doc__, "COCO-layout folder: train2017/, val2017/, annotations/", 3)
    p.add_argument("--arch", default="resnet18", choices=("resnet18", "resnet34", "tiny"))
    p.add_argument("-b", "--batch-size", type=int, default=8, help="images per training step")
    p.add_argument("-j", "--workers", type=int, default=4)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--min-size", type=int, default=512)
    p.add_argument("--max-size", type=int, default=853)
    p.add_argument("--aspect-ratio-group-factor", type=int, default=3)
    p.add_argument("--lr", type=float, default=0.02)
    p.add_argument("--amp", action="store_true")
    p.add_argument("--print-freq", type=int, default=20)
    p.add_argument("--output-dir", default="out")
    return groundtruth.args_or_make(p, argv, "coco")


class Trainer(groundtruth.Program):
    def __init__(self, a):
        super().__init__(a)
        if self.cuda:
            torch.backends.cudnn.benchmark = False  # image sizes change every step
        self.train_set = CocoDetection(a.data, "train", True)
        self.val_set = CocoDetection(a.data, "val", False)
        groups = aspect_ratio_groups(self.train_set, a.aspect_ratio_group_factor)
        self.groups = len(set(groups))
        sampler = GroupedBatchSampler(RandomSampler(self.train_set, generator=torch.Generator().manual_seed(a.seed)),
                                      groups, a.batch_size)
        self.train_loader = DataLoader(self.train_set, batch_sampler=sampler, num_workers=a.workers,
                                       collate_fn=collate_fn, pin_memory=self.cuda)
        self.val_loader = DataLoader(self.val_set, batch_size=1, sampler=SequentialSampler(self.val_set),
                                     num_workers=a.workers, collate_fn=collate_fn, pin_memory=self.cuda)
        self.model = Detector(a.arch, self.train_set.num_classes, a.min_size, a.max_size).to(self.device)
        self.params = sum(p.numel() for p in self.model.parameters())
        params = [p for p in self.model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.SGD(params, lr=a.lr * a.batch_size / 16, momentum=0.9, weight_decay=1e-4)
        self.lr_scheduler = torch.optim.lr_scheduler.MultiStepLR(self.optimizer, milestones=[16, 22], gamma=0.1)
        self.amp = a.amp and self.cuda  # CPU autocast (bfloat16) has no GroupNorm in torch 1.13
        self.scaler = truth.grad_scaler(self.device, self.amp)
        self.batch_sizes = []

    def to_device(self, images, targets):
        images = [img.to(self.device, non_blocking=True) for img in images]
        targets = [{k: v.to(self.device, non_blocking=True) for k, v in t.items()} for t in targets]
        return images, targets

    def train_one_epoch(self, epoch):
        self.model.train()
        warmup = None
        if epoch == 0:  # the reference's linear warm-up over the first epoch's first 1000 iterations
            iters = min(1000, len(self.train_loader) - 1) or 1
            warmup = torch.optim.lr_scheduler.LambdaLR(
                self.optimizer, lambda s: 0.001 + (1 - 0.001) * min(1.0, s / iters))
        t_pass, i = time.monotonic(), 0
        for (images, targets), t0, t1 in groundtruth.timed(self.train_loader):
            self.T.start()
            images, targets = self.to_device(images, targets)
            with truth.autocast(self.device, self.amp):
                losses = sum(self.model(images, targets).values())
            loss_value = losses.item()  # MetricLogger: every step
            if not math.isfinite(loss_value):
                raise SystemExit(f"Loss is {loss_value}, stopping training")
            self.optimizer.zero_grad()
            self.scaler.scale(losses).backward()
            self.scaler.step(self.optimizer)
            self.scaler.update()
            if warmup is not None:
                warmup.step()
            self.T.stop(epoch, "train", i, t0, t1, images=len(images),
                        pixels=int(sum(img.shape[-1] * img.shape[-2] for img in images)))
            self.batch_sizes.append(len(images))
            if i % self.a.print_freq == 0:
                print(f"Epoch: [{epoch}] [{i}/{len(self.train_loader)}] loss: {loss_value:.4f}", flush=True)
            i += 1
        self.T.end_pass(epoch, "train", i, t_pass)
        self.lr_scheduler.step()

    def save(self, epoch):
        self.T.flush()
        os.makedirs(self.a.output_dir, exist_ok=True)
        checkpoint = {"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict(),
                      "lr_scheduler": self.lr_scheduler.state_dict(), "args": vars(self.a), "epoch": epoch,
                      "scaler": self.scaler.state_dict()}
        for name in (f"model_{epoch}.pth", "checkpoint.pth"):  # utils.save_on_master twice
            path = os.path.join(self.a.output_dir, name)
            t0 = time.monotonic()
            torch.save(checkpoint, path)
            self.T.checkpoint(epoch=epoch, path=path, bytes=os.path.getsize(path), kind="torch.save",
                              seconds=time.monotonic() - t0)

    @torch.inference_mode()
    def evaluate(self, epoch):
        self.model.eval()
        t_pass, i, scores = time.monotonic(), 0, []
        for (images, targets), t0, t1 in groundtruth.timed(self.val_loader):
            self.T.start()
            images, _ = self.to_device(images, targets)
            with truth.autocast(self.device, self.amp):
                outputs = self.model(images)
            outputs = [o.to("cpu") for o in outputs]  # the evaluator's .to(cpu_device): a synchronisation
            scores.append(float(outputs[0].max()))
            self.T.stop(epoch, "val", i, t0, t1)
            i += 1
        self.T.end_pass(epoch, "val", i, t_pass, mean_max_score=sum(scores) / max(1, len(scores)))

    def finish(self):
        a, T = self.a, self.T
        bs = self.batch_sizes
        T.finish(
            "coco_detect", arch=a.arch, params=self.params, batch_size=a.batch_size, eval_batch_size=1,
            workers=a.workers, epochs=a.epochs, train_files=len(self.train_set), val_files=len(self.val_set),
            train_images_on_disk=self.train_set.on_disk, files=len(self.train_set) + len(self.val_set),
            annotation_files=2, train_samples=len(self.train_set), val_samples=len(self.val_set),
            sampler="GroupedBatchSampler(RandomSampler) by aspect ratio", aspect_ratio_groups=self.groups,
            drop_last=True, batch_size_min=min(bs), batch_size_max=max(bs), pin_memory=self.cuda,
            persistent_workers=False, amp=self.amp, sync_every_step=True, min_size=a.min_size, max_size=a.max_size,
            checkpoint_every_epochs=1, checkpoints_per_epoch=2,
            eval_every_epochs=1)


def main():
    a = parse_args()
    t = Trainer(a)
    for epoch in range(a.epochs):
        t.train_one_epoch(epoch)
        t.save(epoch)
        t.evaluate(epoch)
    t.finish()


if __name__ == "__main__":
    main()
