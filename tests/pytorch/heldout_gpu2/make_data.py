#!/usr/bin/python3
"""The datasets of the second round of held-out GPU programs, deterministic (every file a function of
--seed and its index, whatever --jobs).

  make_data.py --text DIR [--scale cpu|gpu]
      DIR/train-%05d-of-%05d.jsonl and DIR/validation.jsonl: one {"idx", "text", "label"} a line, as
      a Hugging Face hub dataset's JSON files; texts of 8-400 words of a made-up language.
      gpu scale: 4 files of 4,000 records (~2.6 MB each) + 1,000 validation; cpu: 2 x 60 + 40.
  make_data.py --coco DIR [--scale cpu|gpu]
      DIR/train2017/%012d.jpg, DIR/val2017/%012d.jpg and DIR/annotations/instances_{train,val}2017.json
      (COCO's layout and keys: images with width/height, annotations with xywh bbox, categories);
      photo-like JPEGs of four aspect ratios (4:3, 3:4, 1:1, 16:9) with 1-8 boxes each, except
      every 16th training image, which has no annotation (COCO has such images).
      gpu scale: 1,600 + 100 images of 400-640 px on the long side; cpu: 48 + 12 of 64-128 px.
  make_data.py --wds DIR [--scale cpu|gpu]
      DIR/train/shard-%06d.tar and DIR/val/shard-%06d.tar, WebDataset's layout: per sample
      KEY.jpg, KEY.cls (the label as text) and KEY.json (metadata), members of a sample adjacent.
      gpu scale: 32 shards of 256 samples (96-192 px JPEGs) + 2 of 256; cpu: 4 x 24 + 1 x 16.

The last stdout line is JSON: what was written (counts, bytes).
"""
import argparse
import io
import json
import os
import tarfile
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from PIL import Image, ImageDraw

SCALES = {
    "cpu": {"text_files": 2, "text_per_file": 60, "text_val": 40, "classes": 4,
            "coco_train": 48, "coco_val": 12, "coco_side": (64, 128), "categories": 5,
            "wds_shards": 4, "wds_per_shard": 24, "wds_val_shards": 1, "wds_val_per_shard": 16,
            "wds_side": (40, 72)},
    "gpu": {"text_files": 4, "text_per_file": 4000, "text_val": 1000, "classes": 6,
            "coco_train": 1600, "coco_val": 100, "coco_side": (400, 640), "categories": 20,
            "wds_shards": 32, "wds_per_shard": 256, "wds_val_shards": 2, "wds_val_per_shard": 256,
            "wds_side": (96, 192)},
}


def _photo(rng, w, h):
    """A photo-like RGB image: a smooth random field plus grain (so JPEG sizes vary like photos)."""
    coarse = rng.integers(0, 256, size=(max(2, h // 16), max(2, w // 16), 3), dtype=np.uint8)
    img = np.asarray(Image.fromarray(coarse).resize((w, h), Image.BILINEAR), dtype=np.int16)
    grain = rng.normal(0, float(rng.uniform(8, 30)), size=(h, w, 3))
    return Image.fromarray(np.clip(img + grain, 0, 255).astype(np.uint8))


def _jpeg(img, rng):
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=int(rng.integers(80, 95)))
    return buf.getvalue()


# --- Text: JSON lines -------------------------------------------------------------------------------

def _words(seed):
    rng = np.random.default_rng([seed, 7])
    letters = np.array(list("etaoinshrdlucmfwypvbgkjqxz"))
    p = np.linspace(2.0, 0.2, len(letters))
    return ["".join(rng.choice(letters, size=int(rng.integers(1, 10)), p=p / p.sum())) for _ in range(5000)]


def _text_file(args):
    path, seed, first, count, classes = args
    words = _words(seed)
    with open(path, "w") as f:
        for i in range(first, first + count):
            rng = np.random.default_rng([seed, 100, i])
            n = int(np.clip(rng.lognormal(4.3, 0.8), 8, 400))
            zipf = np.minimum(rng.zipf(1.3, size=n), len(words)) - 1
            text = " ".join(words[k] for k in zipf)
            f.write(json.dumps({"idx": i, "text": text + ".", "label": int(rng.integers(0, classes))}) + "\n")
    return os.path.getsize(path), count


def make_text(root, s, seed, jobs):
    os.makedirs(root, exist_ok=True)
    nf, per = s["text_files"], s["text_per_file"]
    tasks = [(os.path.join(root, f"train-{i:05d}-of-{nf:05d}.jsonl"), seed, i * per, per, s["classes"])
             for i in range(nf)]
    tasks.append((os.path.join(root, "validation.jsonl"), seed, nf * per, s["text_val"], s["classes"]))
    with ProcessPoolExecutor(max(1, min(jobs, len(tasks)))) as ex:
        out = list(ex.map(_text_file, tasks))
    return {"train_files": nf, "train_records": nf * per, "val_records": s["text_val"],
            "classes": s["classes"], "bytes": sum(b for b, _ in out)}


# --- COCO-style detection ------------------------------------------------------------------------

ASPECTS = ((4, 3), (3, 4), (1, 1), (16, 9))


def _coco_image(args):
    """One image with 1-8 boxes drawn in it: (width, height, boxes [(x, y, w, h, category)])."""
    path, seed, index, side, categories, annotated = args
    rng = np.random.default_rng([seed, 200, index])
    aw, ah = ASPECTS[int(rng.integers(0, len(ASPECTS)))]
    long_side = int(rng.integers(side[0], side[1] + 1))
    w, h = (long_side, long_side * ah // aw) if aw >= ah else (long_side * aw // ah, long_side)
    img = _photo(rng, w, h)
    draw = ImageDraw.Draw(img)
    boxes = []
    for _ in range(int(rng.integers(1, 9)) if annotated else 0):
        bw, bh = (int(v) for v in rng.integers(max(4, w // 10), max(5, w // 2), size=1).tolist() +
                  rng.integers(max(4, h // 10), max(5, h // 2), size=1).tolist())
        x, y = int(rng.integers(0, w - bw)), int(rng.integers(0, h - bh))
        cat = int(rng.integers(1, categories + 1))
        draw.rectangle([x, y, x + bw, y + bh], fill=tuple(int(c) for c in rng.integers(0, 256, 3)))
        boxes.append((x, y, bw, bh, cat))
    with open(path, "wb") as f:
        f.write(_jpeg(img, rng))
    return w, h, boxes, os.path.getsize(path)


def _coco_split(root, split, first, n, s, seed, jobs, holes):
    folder = os.path.join(root, f"{split}2017")
    os.makedirs(folder, exist_ok=True)
    ids = [first + i + 1 for i in range(n)]
    tasks = [(os.path.join(folder, f"{iid:012d}.jpg"), seed, iid, s["coco_side"], s["categories"],
              not (holes and i % 16 == 15)) for i, iid in enumerate(ids)]
    with ProcessPoolExecutor(max(1, jobs)) as ex:
        made = list(ex.map(_coco_image, tasks, chunksize=8))
    images, anns = [], []
    for iid, (w, h, boxes, _) in zip(ids, made):
        images.append({"id": iid, "file_name": f"{iid:012d}.jpg", "width": w, "height": h})
        for x, y, bw, bh, cat in boxes:
            anns.append({"id": len(anns) + 1 + first * 10, "image_id": iid, "category_id": cat,
                         "bbox": [x, y, bw, bh], "area": bw * bh, "iscrowd": 0})
    cats = [{"id": c, "name": f"thing{c}", "supercategory": "thing"} for c in range(1, s["categories"] + 1)]
    path = os.path.join(root, "annotations", f"instances_{split}2017.json")
    with open(path, "w") as f:
        json.dump({"info": {"description": "dlgen held-out"}, "images": images, "annotations": anns,
                   "categories": cats}, f)
    return {"images": n, "annotated": len({a["image_id"] for a in anns}), "boxes": len(anns),
            "bytes": sum(m[3] for m in made), "annotation_bytes": os.path.getsize(path)}


def make_coco(root, s, seed, jobs):
    os.makedirs(os.path.join(root, "annotations"), exist_ok=True)
    return {"train": _coco_split(root, "train", 0, s["coco_train"], s, seed, jobs, True),
            "val": _coco_split(root, "val", 10 ** 6, s["coco_val"], s, seed, jobs, False),
            "categories": s["categories"]}


# --- WebDataset tar shards -------------------------------------------------------------------------

def _member(tar, name, data):
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = len(data), 1700000000, 0o644
    tar.addfile(info, io.BytesIO(data))


def _shard(args):
    path, seed, first, count, side, classes = args
    with tarfile.open(path, "w", format=tarfile.USTAR_FORMAT) as tar:
        for i in range(first, first + count):
            rng = np.random.default_rng([seed, 300, i])
            w, h = (int(v) for v in rng.integers(side[0], side[1] + 1, size=2))
            label = int(rng.integers(0, classes))
            key = f"{i:08d}"
            _member(tar, key + ".jpg", _jpeg(_photo(rng, w, h), rng))
            _member(tar, key + ".cls", str(label).encode())
            _member(tar, key + ".json", json.dumps({"key": key, "width": w, "height": h}).encode())
    return os.path.getsize(path)


def make_wds(root, s, seed, jobs, classes=100):
    tasks = []
    for split, shards, per, base in (("train", s["wds_shards"], s["wds_per_shard"], 0),
                                     ("val", s["wds_val_shards"], s["wds_val_per_shard"], 10 ** 7)):
        os.makedirs(os.path.join(root, split), exist_ok=True)
        tasks += [(os.path.join(root, split, f"shard-{k:06d}.tar"), seed, base + k * per, per, s["wds_side"],
                   classes) for k in range(shards)]
    with ProcessPoolExecutor(max(1, min(jobs, len(tasks)))) as ex:
        sizes = list(ex.map(_shard, tasks))
    return {"train_shards": s["wds_shards"], "samples_per_shard": s["wds_per_shard"],
            "val_shards": s["wds_val_shards"], "val_samples_per_shard": s["wds_val_per_shard"],
            "bytes": sum(sizes), "classes": classes}


def make(text=None, coco=None, wds=None, scale="cpu", seed=18, jobs=None):
    s, jobs = SCALES[scale], jobs or os.cpu_count() or 1
    out = {"scale": scale}
    if text:
        out["text"] = make_text(text, s, seed, jobs)
    if coco:
        out["coco"] = make_coco(coco, s, seed, jobs)
    if wds:
        out["wds"] = make_wds(wds, s, seed, jobs)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--text", help="write the JSON-lines text dataset here")
    p.add_argument("--coco", help="write the COCO-style detection dataset here")
    p.add_argument("--wds", help="write the WebDataset tar shards here")
    p.add_argument("--scale", choices=SCALES, default="cpu")
    p.add_argument("--seed", type=int, default=18)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = p.parse_args()
    if not (a.text or a.coco or a.wds):
        p.error("give --text DIR, --coco DIR, --wds DIR or several")
    print(json.dumps(make(a.text, a.coco, a.wds, a.scale, a.seed, a.jobs), sort_keys=True))


if __name__ == "__main__":
    main()
