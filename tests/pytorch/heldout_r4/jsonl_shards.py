#!/usr/bin/python3
"""Language-model pretraining from JSON-lines text shards streamed by an IterableDataset, the
shards split between DataLoader workers with get_worker_info (held-out program, round 4).

  jsonl_shards.py --make DIR            # DIR/train-000NN.jsonl: {"id", "text"} documents, ~512 KiB a shard
  jsonl_shards.py --data DIR

The streaming recipe of many LM trainers (a hand-rolled version of what HF datasets' streaming,
torchdata or Mosaic's StreamingDataset do): the list of shards is shuffled every epoch with the
same seed in every worker, and worker w of n takes shards w, w+n, w+2n... (get_worker_info). It
reads each shard line by line through Python's text I/O, json.loads each document, "tokenizes" it
(its UTF-8 bytes are the token ids, with an end-of-document token), packs the tokens into a
running buffer and yields fixed windows of 2049 tokens (input and shifted target). Each worker
collates its own batches of 16, so each worker's last batch of an epoch can be partial. 2
workers, 2 epochs; the number of steps follows from the text, not from a length. A sleep per step
stands in for the accelerator.

The last stdout line is JSON: the ground truth.
"""
import argparse
import json
import os
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

EOD = 0  # end-of-document token


def make(root, shards, shard_bytes, seed):
    rng = np.random.default_rng(seed)
    os.makedirs(root, exist_ok=True)
    vocab = np.array(["".join(chr(c) for c in rng.integers(97, 123, int(rng.integers(2, 10))))
                      for _ in range(2000)])
    doc = 0
    for s in range(shards):
        written = 0
        with open(os.path.join(root, f"train-{s:05d}.jsonl"), "w", encoding="utf-8") as f:
            while written < shard_bytes:
                words = rng.choice(vocab, int(rng.integers(40, 700)))
                line = json.dumps({"id": doc, "text": " ".join(words)}) + "\n"
                f.write(line)
                written += len(line)
                doc += 1


class JsonlStream(IterableDataset):
    def __init__(self, root, seq_len, seed):
        self.shards = sorted(os.path.join(root, f) for f in os.listdir(root) if f.endswith(".jsonl"))
        self.seq_len, self.seed, self.epoch = seq_len, seed, 0

    def set_epoch(self, epoch):
        self.epoch = epoch  # the workers get a fresh copy of the dataset every epoch

    def __iter__(self):
        info = get_worker_info()
        wid, nw = (info.id, info.num_workers) if info is not None else (0, 1)
        order = torch.randperm(len(self.shards), generator=torch.Generator().manual_seed(self.seed + self.epoch))
        mine = [self.shards[i] for i in order.tolist()][wid::nw]
        window = self.seq_len + 1
        buf = np.empty(0, dtype=np.int64)
        for path in mine:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    text = json.loads(line)["text"]
                    toks = np.frombuffer(text.encode("utf-8"), dtype=np.uint8).astype(np.int64)
                    buf = np.concatenate([buf, toks, [EOD]])
                    while len(buf) >= window:
                        yield torch.from_numpy(buf[:window].copy())
                        buf = buf[window:]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make")
    p.add_argument("--data")
    p.add_argument("--shards", type=int, default=8)
    p.add_argument("--shard-kib", type=int, default=512)
    p.add_argument("--seq-len", type=int, default=2048)
    p.add_argument("--batch-size", type=int, default=16)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute-ms", type=float, default=10.0)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)  # the compute is a stand-in (a sleep); keep the host free for the loader
    if a.make:
        make(a.make, a.shards, a.shard_kib << 10, a.seed)
        return

    ds = JsonlStream(a.data, a.seq_len, a.seed)
    loader = DataLoader(ds, batch_size=a.batch_size, num_workers=a.workers)
    emb = torch.nn.Embedding(256, 16)
    steps, samples, partial = [], [], []
    t0 = time.monotonic()
    for epoch in range(a.epochs):
        ds.set_epoch(epoch)
        n = m = short = 0
        for batch in loader:
            x, y = batch[:, :-1], batch[:, 1:]
            emb(x[:, :64]).mean()
            time.sleep(a.compute_ms / 1000)
            n += 1
            m += len(batch)
            short += len(batch) < a.batch_size
        steps.append(n)
        samples.append(m)
        partial.append(short)
        print(f"epoch {epoch}: {n} steps, {m} windows", flush=True)
    wall = time.monotonic() - t0
    sizes = [os.path.getsize(s) for s in ds.shards]
    print(json.dumps({
        "program": "jsonl_shards", "files": len(sizes), "shard_bytes_mean": float(np.mean(sizes)),
        "bytes_per_epoch": sum(sizes), "shards_per_worker": len(sizes) // a.workers,
        "read": "stream, line by line (Python text I/O)", "batch_size": a.batch_size,
        "workers": a.workers, "seq_len": a.seq_len, "epochs": a.epochs, "steps_per_epoch": steps,
        "samples_per_epoch": samples, "partial_batches_per_epoch": partial, "shuffle": "file",
        "evals": 0, "checkpoints": 0, "compute_s": a.compute_ms / 1000, "wall_s": wall}))


if __name__ == "__main__":
    main()
