#!/usr/bin/python3
"""Speech-style training: WAV files of very different lengths, batches of similar lengths from a
bucketing batch sampler, padded by a collate_fn, persistent workers (held-out program, round 4).

  bucketed_audio.py --make DIR          # DIR/wavs/utt_*.wav (16 kHz mono int16) and DIR/manifest.jsonl
  bucketed_audio.py --data DIR

The ASR recipe (NeMo, ESPnet, fairseq, SpeechBrain in their simplest form): a JSON-lines manifest
lists each utterance's path, duration and transcript; the main process reads it. Utterances run
from 0.3 s to 12 s, so files are 10 KiB to 375 KiB. A custom batch_sampler sorts the utterances
by duration, cuts the sorted list into batches of 8 (so a batch pads little) and shuffles the
order of those batches every epoch. Each sample is read with Python's wave module (the RIFF
header, then readframes of the whole data chunk) in one of 2 DataLoader workers; a collate_fn
pads the batch to its longest utterance. The workers are persistent (forked once, not every
epoch) with prefetch_factor=4. 3 epochs, no validation, no checkpoint. The step's compute (a
sleep) grows with the padded length, as an acoustic model's does: 6 ms + 2 ms per second of audio.

The last stdout line is JSON: the ground truth.
"""
import argparse
import json
import math
import os
import time
import wave

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, Sampler

RATE = 16000


def make(root, n, seed):
    rng = np.random.default_rng(seed)
    os.makedirs(os.path.join(root, "wavs"), exist_ok=True)
    with open(os.path.join(root, "manifest.jsonl"), "w") as man:
        for i in range(n):
            seconds = float(np.clip(rng.lognormal(math.log(2.0), 0.8), 0.3, 12.0))
            frames = int(seconds * RATE)
            rel = os.path.join("wavs", f"utt_{i:05d}.wav")
            with wave.open(os.path.join(root, rel), "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(RATE)
                w.writeframes(rng.integers(-3000, 3000, frames, dtype=np.int16).tobytes())
            words = " ".join("w%d" % rng.integers(0, 500) for _ in range(max(1, int(seconds * 2.5))))
            man.write(json.dumps({"audio_filepath": rel, "duration": frames / RATE, "text": words}) + "\n")


class Utterances(Dataset):
    def __init__(self, root):
        with open(os.path.join(root, "manifest.jsonl")) as f:
            self.items = [json.loads(line) for line in f]
        self.root = root

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        item = self.items[i]
        with wave.open(os.path.join(self.root, item["audio_filepath"]), "rb") as w:
            frames = w.readframes(w.getnframes())
        audio = torch.from_numpy(np.frombuffer(frames, dtype=np.int16).astype(np.float32) / 32768.0)
        tokens = torch.tensor([int(t[1:]) for t in item["text"].split()], dtype=torch.long)
        return audio, tokens


class BucketBatchSampler(Sampler):
    """Batches of utterances of similar duration; the batches' order is reshuffled every epoch."""

    def __init__(self, durations, batch_size, seed):
        order = sorted(range(len(durations)), key=lambda i: durations[i])
        self.batches = [order[i:i + batch_size] for i in range(0, len(order), batch_size)]
        self.seed, self.epoch = seed, 0

    def __iter__(self):
        g = torch.Generator().manual_seed(self.seed + self.epoch)
        self.epoch += 1
        for b in torch.randperm(len(self.batches), generator=g).tolist():
            yield self.batches[b]

    def __len__(self):
        return len(self.batches)


def pad_collate(batch):
    audio, tokens = zip(*batch)
    lengths = torch.tensor([len(a) for a in audio])
    x = torch.zeros(len(audio), int(lengths.max()))
    for i, a in enumerate(audio):
        x[i, :len(a)] = a
    y = torch.nn.utils.rnn.pad_sequence(tokens, batch_first=True)
    return x, lengths, y


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--make")
    p.add_argument("--data")
    p.add_argument("--utterances", type=int, default=600)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--prefetch", type=int, default=4)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--base-ms", type=float, default=6.0)
    p.add_argument("--ms-per-second", type=float, default=2.0)
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    torch.set_num_threads(1)  # the compute is a stand-in (a sleep); keep the host free for the loader
    if a.make:
        make(a.make, a.utterances, a.seed)
        return

    ds = Utterances(a.data)
    sampler = BucketBatchSampler([it["duration"] for it in ds.items], a.batch_size, a.seed)
    loader = DataLoader(ds, batch_sampler=sampler, num_workers=a.workers, persistent_workers=True,
                        prefetch_factor=a.prefetch, collate_fn=pad_collate)
    steps, compute, batch_sizes = [], [], []
    t0 = time.monotonic()
    for epoch in range(a.epochs):
        n = 0
        for x, lengths, y in loader:
            x.abs().mean()
            c = (a.base_ms + a.ms_per_second * x.shape[1] / RATE) / 1000
            time.sleep(c)
            compute.append(c)
            batch_sizes.append(len(lengths))
            n += 1
        steps.append(n)
        print(f"epoch {epoch}: {n} steps", flush=True)
    wall = time.monotonic() - t0
    sizes = [os.path.getsize(os.path.join(a.data, it["audio_filepath"])) for it in ds.items]
    print(json.dumps({
        "program": "bucketed_audio", "files": len(ds), "file_bytes_mean": float(np.mean(sizes)),
        "file_bytes_min": min(sizes), "file_bytes_max": max(sizes), "bytes_per_epoch": sum(sizes),
        "batch_size": a.batch_size, "batch_sizes": sorted(set(batch_sizes)), "workers": a.workers,
        "prefetch_factor": a.prefetch, "persistent_workers": True, "worker_forks": a.workers,
        "batch_sampler": "buckets by duration, batch order shuffled", "epochs": a.epochs,
        "steps_per_epoch": steps, "evals": 0, "checkpoints": 0,
        "compute_s": float(np.mean(compute)), "compute_s_min": min(compute), "compute_s_max": max(compute),
        "wall_s": wall}))


if __name__ == "__main__":
    main()
