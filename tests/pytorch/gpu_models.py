"""Models and timing helpers shared by the GPU training programs (gpu_imagenet.py,
gpu_segmentation.py) and bench/gpu/step_times.py.

- resnet(arch): torchvision's model when torchvision is installed, otherwise a hand-written ResNet of
  the same architecture (same blocks, widths and parameter count), so a host without torchvision
  computes the same step; "tiny" is a 2-stage ResNet for CPU smoke runs.
- UNet3D(filters): the MLPerf training reference's 3D U-Net (image_segmentation/pytorch/model/unet3d.py:
  filters 32, 64, 128, 256, 320, instance norm, ReLU, transposed-convolution upsampling, 3 classes);
  smaller filter lists give a small U-Net of the same shape for CPU runs.
- StepTimer: the compute time of each step as the device sees it. On CUDA a pair of events is recorded
  on the current stream around the step and read only when the program synchronises anyway (the
  loss.item() of a print, the end of an epoch), so timing does not change when the CPU waits; on CPU
  it is the wall time of the step.
- Log: ground-truth records, kept in memory and written as JSON lines once, at exit, so the program's
  own log adds no I/O to the run being traced.
"""
import json
import sys
import time

import torch
from torch import nn


# --- ResNet -------------------------------------------------------------------------------------

class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inp, width, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(inp, width, 3, stride, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = None
        if stride != 1 or inp != width:
            self.downsample = nn.Sequential(nn.Conv2d(inp, width, 1, stride, bias=False),
                                            nn.BatchNorm2d(width))

    def forward(self, x):
        idt = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return self.relu(out + idt)


class Bottleneck(nn.Module):
    expansion = 4

    def __init__(self, inp, width, stride=1):
        super().__init__()
        out_ch = width * self.expansion
        self.conv1 = nn.Conv2d(inp, width, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, stride, 1, bias=False)  # stride on the 3x3 (v1.5)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, out_ch, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(out_ch)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = None
        if stride != 1 or inp != out_ch:
            self.downsample = nn.Sequential(nn.Conv2d(inp, out_ch, 1, stride, bias=False),
                                            nn.BatchNorm2d(out_ch))

    def forward(self, x):
        idt = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        return self.relu(out + idt)


class ResNet(nn.Module):
    def __init__(self, block, layers, widths=(64, 128, 256, 512), num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, widths[0], 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(widths[0])
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        stages, inp = [], widths[0]
        for i, (n, w) in enumerate(zip(layers, widths)):
            blocks = []
            for j in range(n):
                blocks.append(block(inp, w, 2 if (j == 0 and i > 0) else 1))
                inp = w * block.expansion
            stages.append(nn.Sequential(*blocks))
        self.layers = nn.Sequential(*stages)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(inp, num_classes)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.avgpool(self.layers(x))
        return self.fc(torch.flatten(x, 1))


_ARCHS = {"resnet18": (BasicBlock, (2, 2, 2, 2)), "resnet34": (BasicBlock, (3, 4, 6, 3)),
          "resnet50": (Bottleneck, (3, 4, 6, 3)), "resnet101": (Bottleneck, (3, 4, 23, 3))}
ARCHS = sorted(_ARCHS) + ["tiny"]


def resnet(arch, num_classes=1000, use_torchvision=True):
    """(model, source): source says whether torchvision or the hand-written ResNet built it."""
    if arch == "tiny":
        return ResNet(BasicBlock, (1, 1), widths=(8, 16), num_classes=num_classes), "hand-written"
    if use_torchvision:
        try:
            import torchvision.models
            return getattr(torchvision.models, arch)(num_classes=num_classes), "torchvision"
        except ImportError:
            pass
    block, layers = _ARCHS[arch]
    return ResNet(block, layers, num_classes=num_classes), "hand-written"


# --- 3D U-Net (MLPerf reference shape) ----------------------------------------------------------

def _conv_block(inp, out, stride=1):
    return nn.Sequential(nn.Conv3d(inp, out, 3, stride, 1, bias=False),
                         nn.InstanceNorm3d(out, affine=True), nn.ReLU(inplace=True))


class _Down(nn.Module):
    def __init__(self, inp, out):
        super().__init__()
        self.conv1, self.conv2 = _conv_block(inp, out, 2), _conv_block(out, out)

    def forward(self, x):
        return self.conv2(self.conv1(x))


class _Up(nn.Module):
    def __init__(self, inp, out):
        super().__init__()
        self.up = nn.ConvTranspose3d(inp, out, 2, 2, bias=True)
        self.conv1, self.conv2 = _conv_block(2 * out, out), _conv_block(out, out)

    def forward(self, x, skip):
        return self.conv2(self.conv1(torch.cat((self.up(x), skip), dim=1)))


class UNet3D(nn.Module):
    """MLPerf's Unet3D: an input block, len(filters)-1 downsamplings, a strided bottleneck, as many
    upsamplings plus one, a 1x1x1 output layer. The patch side must be divisible by 2**len(filters)."""

    def __init__(self, filters=(32, 64, 128, 256, 320), in_channels=1, n_class=3):
        super().__init__()
        filters = list(filters)
        self.inp = nn.Sequential(_conv_block(in_channels, filters[0]), _conv_block(filters[0], filters[0]))
        self.down = nn.ModuleList(_Down(i, o) for i, o in zip(filters[:-1], filters[1:]))
        self.bottleneck = _Down(filters[-1], filters[-1])
        ups = [_Up(filters[-1], filters[-1])]
        ups += [_Up(i, o) for i, o in zip(reversed(filters[1:]), reversed(filters[:-1]))]
        self.up = nn.ModuleList(ups)
        self.out = nn.Conv3d(filters[0], n_class, 1, bias=True)

    def forward(self, x):
        x = self.inp(x)
        skips = [x]
        for d in self.down:
            x = d(x)
            skips.append(x)
        x = self.bottleneck(x)
        for u, s in zip(self.up, reversed(skips)):
            x = u(x, s)
        return self.out(x)


def dice_ce_loss(logits, target, n_class):
    """MLPerf's DiceCELoss in short: cross entropy plus 1 - mean soft Dice over the classes."""
    ce = nn.functional.cross_entropy(logits, target)
    prob = torch.softmax(logits.float(), dim=1)
    onehot = nn.functional.one_hot(target, n_class).permute(0, 4, 1, 2, 3).float()
    dims = (0, 2, 3, 4)
    inter = (prob * onehot).sum(dims)
    dice = (2 * inter + 1e-6) / (prob.sum(dims) + onehot.sum(dims) + 1e-6)
    return ce + (1 - dice.mean())


# --- Timing and ground truth --------------------------------------------------------------------

def pick_device(name):
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    device = torch.device(name)
    if device.type == "cuda":
        if not torch.cuda.is_available():
            raise SystemExit(f"--device {name}: torch.cuda.is_available() is False")
        if device.index is None:  # torch.cuda.set_device wants an index
            device = torch.device("cuda", torch.cuda.current_device())
    return device


def device_info(device):
    info = {"device": str(device), "torch": torch.__version__}
    if device.type == "cuda":
        p = torch.cuda.get_device_properties(device)
        info.update(gpu=p.name, gpu_memory_bytes=p.total_memory, cuda=torch.version.cuda,
                    cudnn=torch.backends.cudnn.version(), gpu_count=torch.cuda.device_count())
    return info


def autocast(device, enabled):
    """torch.autocast for the device: float16 on CUDA, bfloat16 on CPU (CPU autocast has no float16)."""
    dtype = torch.float16 if device.type == "cuda" else torch.bfloat16
    return torch.autocast(device_type=device.type, dtype=dtype, enabled=enabled)


def grad_scaler(device, enabled):
    enabled = enabled and device.type == "cuda"  # loss scaling is for float16; CPU autocast is bf16
    if hasattr(torch, "amp") and hasattr(torch.amp, "GradScaler"):
        return torch.amp.GradScaler("cuda", enabled=enabled)
    return torch.cuda.amp.GradScaler(enabled=enabled)


class StepTimer:
    """Per-step device compute times. start()/stop() bracket a step; resolve() returns the times of
    the steps stopped so far, in order, in seconds (on CUDA it waits only for those events, which the
    program's own synchronisation has usually passed already)."""

    def __init__(self, device):
        self.cuda = device.type == "cuda"
        self.pending = []

    def start(self):
        if self.cuda:
            e = torch.cuda.Event(enable_timing=True)
            e.record()
            self._start = e
        else:
            self._start = time.monotonic()

    def stop(self):
        if self.cuda:
            e = torch.cuda.Event(enable_timing=True)
            e.record()
            self.pending.append((self._start, e))
        else:
            self.pending.append(time.monotonic() - self._start)

    def resolve(self):
        if self.cuda:
            out = []
            for s, e in self.pending:
                e.synchronize()
                out.append(s.elapsed_time(e) / 1000.0)
        else:
            out = list(self.pending)
        self.pending = []
        return out


def timed(loader):
    """The loader's batches, each with the monotonic times before and after the DataLoader's next()."""
    it = iter(loader)
    while True:
        t0 = time.monotonic()
        try:
            batch = next(it)
        except StopIteration:
            return
        yield batch, t0, time.monotonic()


class Log:
    """Ground-truth records (one dict each), written as JSON lines at exit to a file or stderr."""

    def __init__(self, path):
        self.path, self.records = path, []

    def add(self, event, **fields):
        self.records.append({"event": event, **fields})

    def write(self):
        text = "".join(json.dumps(r, sort_keys=True) + "\n" for r in self.records)
        if self.path:
            with open(self.path, "w") as f:
                f.write(text)
        else:
            sys.stderr.write(text)
            sys.stderr.flush()


def median(xs):
    xs = sorted(xs)
    if not xs:
        return None
    n = len(xs)
    return xs[n // 2] if n % 2 else 0.5 * (xs[n // 2 - 1] + xs[n // 2])
