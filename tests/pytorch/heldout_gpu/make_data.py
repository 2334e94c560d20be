#!/usr/bin/python3
"""The datasets of the held-out GPU programs, deterministic (every file a function of --seed and its
index, whatever --jobs).

  make_data.py --images DIR [--scale cpu|gpu] [--train N --val N --classes C]
      DIR/images/img_%06d.jpg (every 8th a .png): one flat folder, train and validation mixed;
      DIR/train.csv and DIR/val.csv (header filename,label) list which is which.
      gpu scale: 2000 + 200 images of 20-100 KiB; cpu scale: 96 + 32 smaller ones.
  make_data.py --shards DIR [--scale cpu|gpu] [--shard-count N --shard-mib M --vocab V]
      DIR/train/shard_%03d.bin and DIR/val/shard_000.bin: uint16 tokens below --vocab, and
      DIR/meta.json {"vocab_size": V} (nanoGPT's meta.pkl, as JSON).
      gpu scale: 8 x 16 MiB + one 16 MiB val shard, vocab 50257; cpu scale: 4 x 256 KiB, vocab 512.

The last stdout line is JSON: what was written (counts, bytes).
"""
import argparse
import json
import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from PIL import Image

SCALES = {
    "cpu": {"train": 96, "val": 32, "classes": 4, "side": (48, 96), "shard_count": 4, "shard_kib": 256,
            "vocab": 512},
    "gpu": {"train": 2000, "val": 200, "classes": 100, "side": (224, 360), "shard_count": 8,
            "shard_kib": 16 << 10, "vocab": 50257},
}


def _image(args):
    """One photo-like image: a smooth random field plus grain (so JPEG sizes vary like photos)."""
    path, seed, index, side = args
    rng = np.random.default_rng([seed, index])
    w, h = (int(v) for v in rng.integers(side[0], side[1] + 1, size=2))
    coarse = rng.integers(0, 256, size=(max(2, h // 16), max(2, w // 16), 3), dtype=np.uint8)
    img = np.asarray(Image.fromarray(coarse).resize((w, h), Image.BILINEAR), dtype=np.int16)
    grain = rng.normal(0, float(rng.uniform(10, 40)), size=(h, w, 3))
    img = Image.fromarray(np.clip(img + grain, 0, 255).astype(np.uint8))
    if path.endswith(".png"):  # PNG of grain is about raw size: keep it small
        img = img.resize((max(16, w // 2), max(16, h // 2)))
        img.save(path, optimize=False)
    else:
        img.save(path, quality=int(rng.integers(80, 95)))
    return os.path.getsize(path)


def make_images(root, n_train, n_val, classes, side, seed, jobs):
    os.makedirs(os.path.join(root, "images"), exist_ok=True)
    rng = np.random.default_rng(seed)
    n = n_train + n_val
    labels = rng.integers(0, classes, size=n)
    order = rng.permutation(n)  # which images are validation: a random list, not a folder
    val = set(int(i) for i in order[:n_val])
    names = [f"img_{i:06d}.png" if i % 8 == 7 else f"img_{i:06d}.jpg" for i in range(n)]
    tasks = [(os.path.join(root, "images", names[i]), seed, i, side) for i in range(n)]
    with ProcessPoolExecutor(max(1, jobs)) as ex:
        sizes = list(ex.map(_image, tasks, chunksize=16))
    for split, keep in (("train", lambda i: i not in val), ("val", lambda i: i in val)):
        with open(os.path.join(root, f"{split}.csv"), "w") as f:
            f.write("filename,label\n")
            for i in range(n):
                if keep(i):
                    f.write(f"{names[i]},{labels[i]}\n")
    return {"images": n, "train": n_train, "val": n_val, "classes": classes, "bytes": sum(sizes),
            "min_bytes": min(sizes), "max_bytes": max(sizes)}


def _shard(args):
    path, seed, index, tokens, vocab = args
    rng = np.random.default_rng([seed, 1000 + index])
    arr = np.memmap(path, dtype=np.uint16, mode="w+", shape=(tokens,))
    arr[:] = rng.integers(0, vocab, size=tokens, dtype=np.uint16)
    arr.flush()
    del arr
    return os.path.getsize(path)


def make_shards(root, count, kib, vocab, seed, jobs):
    for d in ("train", "val"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    tokens = kib * 1024 // 2
    tasks = [(os.path.join(root, "train", f"shard_{i:03d}.bin"), seed, i, tokens, vocab) for i in range(count)]
    tasks.append((os.path.join(root, "val", "shard_000.bin"), seed, count, tokens, vocab))
    with ProcessPoolExecutor(max(1, min(jobs, len(tasks)))) as ex:
        sizes = list(ex.map(_shard, tasks))
    with open(os.path.join(root, "meta.json"), "w") as f:
        json.dump({"vocab_size": vocab, "dtype": "uint16"}, f)
    return {"train_shards": count, "val_shards": 1, "tokens_per_shard": tokens, "bytes": sum(sizes),
            "vocab": vocab}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--images", help="write the CSV-listed image folder here")
    p.add_argument("--shards", help="write the token shards here")
    p.add_argument("--scale", choices=SCALES, default="cpu")
    p.add_argument("--train", type=int)
    p.add_argument("--val", type=int)
    p.add_argument("--classes", type=int)
    p.add_argument("--shard-count", type=int)
    p.add_argument("--shard-kib", type=int)
    p.add_argument("--vocab", type=int)
    p.add_argument("--seed", type=int, default=18)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = p.parse_args()
    if not a.images and not a.shards:
        p.error("give --images DIR, --shards DIR or both")
    s = dict(SCALES[a.scale])
    for k in ("train", "val", "classes", "shard_count", "shard_kib", "vocab"):
        if getattr(a, k) is not None:
            s[k] = getattr(a, k)
    if s["vocab"] > 65536:
        p.error("--vocab: uint16 tokens hold at most 65536")
    out = {"scale": a.scale}
    if a.images:
        out["images"] = make_images(a.images, s["train"], s["val"], s["classes"], s["side"], a.seed, a.jobs)
    if a.shards:
        out["shards"] = make_shards(a.shards, s["shard_count"], s["shard_kib"], s["vocab"], a.seed, a.jobs)
    print(json.dumps(out, sort_keys=True))


if __name__ == "__main__":
    main()
