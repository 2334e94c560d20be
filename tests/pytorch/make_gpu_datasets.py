#!/usr/bin/python3
"""Small, deterministic datasets for gpu_imagenet.py and gpu_segmentation.py.

  make_gpu_datasets.py --imagenet DIR [--train 512 --val 64 --classes 8]
      DIR/train/<class>/<name>.JPEG and DIR/val/<class>/<name>.JPEG, ImageNet's layout: photos of
      250-500 x 250-400 pixels whose JPEGs are 14-91 KiB (smooth noise at a random scale and quality).
  make_gpu_datasets.py --kits DIR [--cases 24 --eval 4 --side 128]
      DIR/case_XXXXX_x.npy (float32, 1 x D x H x W, each side in [side, 1.25 side]) and
      DIR/case_XXXXX_y.npy (uint8 labels 0-2 of the same D x H x W) side by side in ONE folder, as the
      MLPerf/KiTS19 preprocessing leaves them, and DIR/evaluation_cases.txt listing the validation
      cases (one 5-digit case number a line).

Every file is a pure function of (--seed, its index), so two runs write the same bytes; the work is
spread over --jobs processes. The last stdout line is JSON: files and bytes written.
"""
import argparse
import io
import json
import os
from multiprocessing import Pool

import numpy as np


def _jpeg(args):
    path, seed = args
    from PIL import Image
    rng = np.random.default_rng(seed)
    w, h = int(rng.integers(250, 500)), int(rng.integers(250, 400))
    scale = int(rng.integers(5, 11))  # coarser noise compresses better: 14-91 KiB over this range
    small = rng.integers(0, 256, (h // scale + 1, w // scale + 1, 3), dtype=np.uint8)
    img = Image.fromarray(small).resize((w, h), getattr(Image, "Resampling", Image).BICUBIC)
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=int(rng.integers(75, 95)))
    with open(path, "wb") as f:
        f.write(buf.getvalue())
    return len(buf.getvalue())


def make_imagenet(root, train, val, classes, seed, jobs):
    work = []
    for split, n, base in (("train", train, 0), ("val", val, 1 << 20)):
        for c in range(classes):
            os.makedirs(os.path.join(root, split, f"n{c:08d}"), exist_ok=True)
        for i in range(n):
            c = i % classes
            name = f"n{c:08d}_{i:06d}.JPEG"
            work.append((os.path.join(root, split, f"n{c:08d}", name), seed * 1000003 + base + i))
    with Pool(jobs) as pool:
        sizes = pool.map(_jpeg, work, chunksize=16)
    return {"train_files": train, "val_files": val, "classes": classes, "bytes": sum(sizes),
            "min_bytes": min(sizes), "max_bytes": max(sizes)}


def _case(args):
    root, case, side, seed = args
    rng = np.random.default_rng(seed)
    shape = tuple(int(rng.integers(side, side + side // 4 + 1)) for _ in range(3))
    x = rng.standard_normal((1,) + shape, dtype=np.float32)
    # A kidney (1) with a tumour (2) inside: two nested balls at a random centre.
    grid = np.ogrid[tuple(slice(0, s) for s in shape)]
    centre = [int(rng.integers(s // 4, 3 * s // 4)) for s in shape]
    r2 = sum((g - c) ** 2 for g, c in zip(grid, centre))
    y = np.zeros(shape, dtype=np.uint8)
    y[r2 < (side // 4) ** 2] = 1
    y[r2 < (side // 10) ** 2] = 2
    xp, yp = (os.path.join(root, f"case_{case:05d}_{k}.npy") for k in "xy")
    np.save(xp, x)
    np.save(yp, y[np.newaxis])
    return os.path.getsize(xp) + os.path.getsize(yp)


def make_kits(root, cases, evals, side, seed, jobs):
    if not 0 < evals < cases:
        raise SystemExit(f"--eval {evals}: must be between 1 and --cases - 1 ({cases - 1})")
    os.makedirs(root, exist_ok=True)
    with Pool(jobs) as pool:
        sizes = pool.map(_case, [(root, c, side, seed * 1000003 + c) for c in range(cases)])
    # Evaluation cases spread over the folder (every k-th), as a fixed list file names them.
    step = cases // evals
    chosen = [c * step + step // 2 for c in range(evals)]
    with open(os.path.join(root, "evaluation_cases.txt"), "w") as f:
        f.write("".join(f"{c:05d}\n" for c in chosen))
    return {"cases": cases, "eval_cases": chosen, "files": 2 * cases, "bytes": sum(sizes)}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--imagenet", help="write the JPEG dataset under this folder")
    p.add_argument("--train", type=int, default=512)
    p.add_argument("--val", type=int, default=64)
    p.add_argument("--classes", type=int, default=8)
    p.add_argument("--kits", help="write the KiTS19-style .npy pairs in this folder")
    p.add_argument("--cases", type=int, default=24)
    p.add_argument("--eval", type=int, default=4, help="validation cases (listed in evaluation_cases.txt)")
    p.add_argument("--side", type=int, default=128, help="smallest side of a case (the patch side)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=os.cpu_count())
    a = p.parse_args()
    if not a.imagenet and not a.kits:
        p.error("give --imagenet DIR and/or --kits DIR")
    out = {}
    if a.imagenet:
        out["imagenet"] = make_imagenet(a.imagenet, a.train, a.val, a.classes, a.seed, a.jobs)
    if a.kits:
        out["kits"] = make_kits(a.kits, a.cases, a.eval, a.side, a.seed, a.jobs)
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
