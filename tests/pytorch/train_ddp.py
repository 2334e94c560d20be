#!/usr/bin/python3
"""A small PyTorch DistributedDataParallel (DDP) CPU training script with known I/O behaviour.

Each rank is one process (one simulated accelerator) with its own DataLoader and worker processes;
a DistributedSampler gives every rank a disjoint share of the files each epoch and reshuffles them
every epoch (set_epoch); gradients are averaged over the gloo backend (TCP on CPU); rank 0 alone
saves checkpoints with torch.save. dlgen's DDP capture tests trace it and check what distil infers
against the ground truth rank 0 prints as JSON on its last stdout line.

Launchers:
  --launcher spawn     torch.multiprocessing.spawn of --ranks processes (the default)
  --launcher torchrun  one rank of `torchrun --nproc_per_node N` (RANK, WORLD_SIZE, MASTER_* set).
                       Debian 12's torchrun (python3-torch 1.13 on Python 3.11) fails before it
                       starts a rank (AttributeError in elastic/multiprocessing's to_map), so the
                       tests use spawn; the shape (a launcher process, N rank processes each with
                       its workers) is the same
  --launcher env       one rank of an MPI launch (`mpirun -np N`, one rank per host): rank and
                       size from OMPI_COMM_WORLD_RANK/SIZE or PMI_RANK/SIZE; with --port, a gloo
                       process group at MASTER_ADDR (default 127.0.0.1):PORT averages gradients
                       as DDP across hosts does (ranks stay in step); without, each rank reads
                       its DistributedSampler share on its own

Run with Debian's interpreter (/usr/bin/python3): it needs python3-torch and numpy.
"""
import argparse
import json
import os
import socket
import sys
import time

import numpy as np
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, Dataset
from torch.utils.data.distributed import DistributedSampler

SAMPLE_BYTES = 1024  # what each sample contributes to the model input (fixed, so batches stack)


def list_files(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.startswith(".") or name.endswith((".json", ".toml", ".manifest")):
                continue  # dlgen's manifest and other bookkeeping
            out.append(os.path.join(dirpath, name))
    return out


class RawFiles(Dataset):
    """One sample per file, read whole."""

    def __init__(self, root):
        self.files = list_files(root)
        if not self.files:
            raise SystemExit(f"train_ddp.py: no files under {root}")

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        with open(self.files[i], "rb") as f:
            a = np.frombuffer(f.read(), dtype=np.uint8)[:SAMPLE_BYTES]
        if a.size < SAMPLE_BYTES:
            a = np.pad(a, (0, SAMPLE_BYTES - a.size))
        return torch.from_numpy(a.astype(np.float32) / 255.0), i % 10


def save_checkpoint(model, path, pad_bytes):
    state = {"model": model.state_dict(), "pad": torch.zeros(max(0, pad_bytes // 4))}
    with open(path, "wb") as f:
        torch.save(state, f)
        f.flush()
        os.fsync(f.fileno())
    return os.path.getsize(path)


def train(rank, world, a, distributed):
    torch.manual_seed(a.seed)
    torch.set_num_threads(1)
    if distributed:
        dist.init_process_group("gloo", rank=rank, world_size=world)
    data = RawFiles(a.data)
    # Every rank sees a disjoint 1/world of the files per epoch; set_epoch reshuffles.
    sampler = DistributedSampler(data, num_replicas=world, rank=rank, shuffle=True, seed=a.seed)
    kw = dict(batch_size=a.batch_size, num_workers=a.workers, sampler=sampler)
    if a.workers > 0:
        kw.update(prefetch_factor=a.prefetch_factor)
    loader = DataLoader(data, **kw)
    model = torch.nn.Linear(SAMPLE_BYTES, 10)
    if distributed:
        model = torch.nn.parallel.DistributedDataParallel(model)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    writes_checkpoints = rank == 0 and a.checkpoint_every_epochs > 0
    if writes_checkpoints:
        os.makedirs(a.checkpoint_dir, exist_ok=True)
    steps, samples, checkpoints = 0, 0, []
    t0 = time.time()
    for epoch in range(a.epochs):
        sampler.set_epoch(epoch)
        for x, y in loader:
            s0 = time.perf_counter()
            loss = torch.nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()  # DDP: gradients all-reduced over gloo here
            opt.step()
            rest = a.compute_ms / 1000.0 - (time.perf_counter() - s0)
            if rest > 0:
                time.sleep(rest)
            steps += 1
            samples += len(y)
        if writes_checkpoints and (epoch + 1) % a.checkpoint_every_epochs == 0:
            path = os.path.join(a.checkpoint_dir, f"epoch_{epoch + 1:04d}.pt")
            state = model.module if distributed else model
            checkpoints.append(save_checkpoint(state, path, a.checkpoint_size))
        if distributed:
            dist.barrier()  # the other ranks wait for rank 0's checkpoint
    if distributed:
        dist.destroy_process_group()
    return {
        "rank": rank,
        "ranks": world,
        "host": socket.gethostname(),
        "files": len(data),
        "samples_per_epoch": len(sampler),
        "workers": a.workers,
        "batch_size": a.batch_size,
        "epochs": a.epochs,
        "steps": steps,
        "samples": samples,
        "checkpoints": checkpoints,
        "compute_s": a.compute_ms / 1000.0,
        "elapsed_s": time.time() - t0,
    }


def spawned(rank, world, a):
    truth = train(rank, world, a, distributed=True)
    if rank == 0:
        print(json.dumps(truth))
        sys.stdout.flush()


def env_int(*names):
    for n in names:
        if os.environ.get(n):
            return int(os.environ[n])
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--data", required=True, help="training data directory (one sample per file)")
    p.add_argument("--launcher", choices=["spawn", "torchrun", "env"], default="spawn")
    p.add_argument("--ranks", type=int, default=2, help="processes to spawn (--launcher spawn)")
    p.add_argument("--workers", type=int, default=2, help="DataLoader workers per rank (0: read in the rank)")
    p.add_argument("--batch-size", type=int, default=4, help="samples per step per rank")
    p.add_argument("--prefetch-factor", type=int, default=2)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument("--compute-ms", type=float, default=30.0, help="time per training step")
    p.add_argument("--checkpoint-every-epochs", type=int, default=0, help="rank 0 saves (0: never)")
    p.add_argument("--checkpoint-dir", default="checkpoints")
    p.add_argument("--checkpoint-size", type=int, default=2 << 20, help="bytes of padding state per checkpoint")
    p.add_argument("--port", type=int, default=0, help="gloo rendezvous port (0: a free one)")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()

    if a.launcher == "spawn":
        os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
        if a.port == 0:
            with socket.socket() as s:  # a free port for the TCP rendezvous
                s.bind(("127.0.0.1", 0))
                a.port = s.getsockname()[1]
        os.environ["MASTER_PORT"] = str(a.port)
        torch.multiprocessing.spawn(spawned, args=(a.ranks, a), nprocs=a.ranks, join=True)
    elif a.launcher == "torchrun":
        spawned(int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"]), a)
    else:
        rank = env_int("OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK")
        world = env_int("OMPI_COMM_WORLD_SIZE", "PMI_SIZE")
        if rank is None or world is None:
            raise SystemExit("train_ddp.py: --launcher env needs an MPI launch (mpirun -np N)")
        if a.port:
            os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
            os.environ["MASTER_PORT"] = str(a.port)
        truth = train(rank, world, a, distributed=a.port > 0)
        print(json.dumps(truth))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
