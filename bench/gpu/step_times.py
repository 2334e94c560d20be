#!/usr/bin/python3
"""The accelerator time of real training steps of the models behind the shipped jobs.

  step_times.py [--device cuda] [--out FILE]      # a GPU: all cases, ~1-2 minutes on one H200
  step_times.py --smoke                            # CPU, tiny shapes, seconds: checks the code only

Each case builds the model, feeds it random inputs already on the device (no data loading), and runs
--warmup steps (cudnn.benchmark autotuning, allocator growth; not counted) and then --steps timed
steps of forward + loss + backward + optimizer step, each bracketed by CUDA events and followed by
torch.cuda.synchronize(), so a step's time is the GPU's. Cases:
  resnet50 at batch 64 (PyTorch's ImageNet example), 256 (jobs/imagenet-pytorch.toml) and 400
  (jobs/resnet50.toml, MLPerf Storage), 224x224, SGD with momentum: fp32 (cudnn's TF32 default) and
  AMP (float16 autocast + GradScaler, channels_last);
  unet3d, MLPerf's reference 3D U-Net (filters 32-320, tests/pytorch/gpu_models.py), batch 7 of
  1 x 128^3 (jobs/unet3d.toml), Dice + cross entropy, SGD: fp32 and AMP.
A case that runs out of memory or past --budget-s is reported with its error, not timed.

Output: one JSON object on stdout (and --out): the device, and a row per case with the median, min
and p90 step time in seconds, samples/s at the median, and MLPerf Storage's emulated step time for
the same model and batch where jobs/ has one (compute.<accelerator>.time).
"""
import argparse
import json
import os
import re
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "pytorch"))
import gpu_models as gm  # noqa: E402


def job_times(name):
    """{accelerator: seconds} from jobs/<name>.toml's [compute.<accelerator>] time = "X s"."""
    times, section = {}, None
    try:
        with open(os.path.join(ROOT, "jobs", name + ".toml")) as f:
            for line in f:
                m = re.match(r"\s*\[compute\.(\w+)\]", line)
                if m:
                    section = m.group(1)
                    continue
                if line.strip().startswith("["):
                    section = None
                m = re.match(r'\s*time\s*=\s*"([0-9.]+)s"', line)
                if section and m:
                    times[section] = float(m.group(1))
    except OSError:
        pass
    return times


def cases(smoke):
    if smoke:
        return [("resnet50", 2, 32, False, None), ("resnet50", 2, 32, True, None),
                ("unet3d", 1, 16, False, None), ("unet3d", 1, 16, True, None)]
    return [("resnet50", 64, 224, False, None), ("resnet50", 64, 224, True, None),
            ("resnet50", 256, 224, False, "imagenet-pytorch"), ("resnet50", 256, 224, True, "imagenet-pytorch"),
            ("resnet50", 400, 224, False, "resnet50"), ("resnet50", 400, 224, True, "resnet50"),
            ("unet3d", 7, 128, False, "unet3d"), ("unet3d", 7, 128, True, "unet3d")]


def time_case(device, model_name, batch, side, amp, warmup, steps, use_torchvision):
    cuda = device.type == "cuda"
    fmt = torch.channels_last if (amp and model_name == "resnet50") else torch.contiguous_format
    if model_name == "resnet50":
        model, source = gm.resnet("resnet50", 1000, use_torchvision)
        x = torch.randn(batch, 3, side, side, device=device).contiguous(memory_format=fmt)
        y = torch.randint(0, 1000, (batch,), device=device)
        criterion = torch.nn.CrossEntropyLoss()
        loss_of = lambda out: criterion(out, y)  # noqa: E731
    else:
        # --smoke: a 2-level U-Net (the reference's 5 levels need a side of 64 or more)
        filters = (8, 16) if side < 64 else (32, 64, 128, 256, 320)
        model, source = gm.UNet3D(filters), "tests/pytorch/gpu_models.py"
        x = torch.randn(batch, 1, side, side, side, device=device)
        y = torch.randint(0, 3, (batch, side, side, side), device=device)
        loss_of = lambda out: gm.dice_ce_loss(out, y, 3)  # noqa: E731
    model = model.to(device, memory_format=fmt)
    model.train()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    scaler = gm.grad_scaler(device, amp)
    timer = gm.StepTimer(device)
    times = []
    for i in range(warmup + steps):
        timer.start()
        with gm.autocast(device, amp):
            loss = loss_of(model(x))
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()
        timer.stop()
        if cuda:
            torch.cuda.synchronize()
        t = timer.resolve()[0]
        if i >= warmup:
            times.append(t)
    return times, source, fmt == torch.channels_last


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--device", default="auto", help="cuda, cuda:N, cpu or auto")
    p.add_argument("--smoke", action="store_true", help="CPU, tiny shapes, 1+2 steps: checks the code only")
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--steps", type=int, default=15, help="timed steps per case (the median is reported)")
    p.add_argument("--only", help="comma-separated models to run (resnet50, unet3d)")
    p.add_argument("--budget-s", type=float, default=170.0, help="skip the cases left after this long")
    p.add_argument("--no-torchvision", dest="torchvision", action="store_false")
    p.add_argument("--out", help="also write the JSON here")
    a = p.parse_args()
    if a.smoke:
        a.device = "cpu" if a.device == "auto" else a.device
        a.warmup, a.steps = 1, 2
    device = gm.pick_device(a.device)
    torch.manual_seed(0)
    if device.type == "cuda":
        torch.cuda.set_device(device)
        torch.backends.cudnn.benchmark = True
    only = set(a.only.split(",")) if a.only else None
    t0 = time.monotonic()
    rows = []
    for model_name, batch, side, amp, job in cases(a.smoke):
        if only and model_name not in only:
            continue
        row = {"model": model_name, "batch": batch, "input": side, "precision": "amp" if amp else "fp32",
               "warmup": a.warmup, "steps": a.steps}
        if job:
            row["job"] = f"jobs/{job}.toml"
            row["job_step_s"] = job_times(job)
        if time.monotonic() - t0 > a.budget_s:
            row["error"] = f"skipped: past --budget-s {a.budget_s:g}"
            rows.append(row)
            continue
        try:
            t_case = time.monotonic()
            times, source, channels_last = time_case(device, model_name, batch, side, amp, a.warmup,
                                                     a.steps, a.torchvision)
            med = gm.median(times)
            row.update(model_source=source, channels_last=channels_last, median_s=med, min_s=min(times),
                       p90_s=sorted(times)[min(len(times) - 1, int(0.9 * len(times)))],
                       samples_per_s=batch / med, times_s=times, case_wall_s=time.monotonic() - t_case)
        except RuntimeError as e:  # CUDA out of memory and friends: report, go on
            row["error"] = str(e).splitlines()[0][:300]
        finally:
            if device.type == "cuda":
                torch.cuda.empty_cache()
        rows.append(row)
        print(f"{model_name:9s} batch {batch:4d} {row['precision']:4s} "
              + (f"{row['median_s']:.4f} s/step" if "median_s" in row else row["error"]),
              file=sys.stderr, flush=True)
    info = gm.device_info(device)
    if device.type == "cuda":
        try:  # newer releases add fp32_precision settings beside these flags
            info.update(cudnn_tf32=bool(torch.backends.cudnn.allow_tf32),
                        matmul_tf32=bool(torch.backends.cuda.matmul.allow_tf32))
        except (AttributeError, RuntimeError):
            pass
    out = {"smoke": a.smoke, "wall_s": time.monotonic() - t0, **info, "cases": rows}
    text = json.dumps(out, indent=1, sort_keys=True)
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
