"""A small real PyTorch training run for the capture test: a DataLoader with 2 worker processes
over 16 raw float32 sample files, one epoch of a linear model, then a torch.save checkpoint.
Usage: torch_loader.py DIR  (creates DIR/samples/sample_NN.raw and DIR/ckpt.pt)"""
import os
import sys

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

SAMPLES = 16
FEATURES = 1024


class RawFiles(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        with open(self.paths[i], "rb") as f:
            x = np.frombuffer(f.read(), dtype=np.float32).copy()
        return torch.from_numpy(x), torch.tensor(float(i % 2))


def main():
    root = sys.argv[1]
    os.makedirs(os.path.join(root, "samples"), exist_ok=True)
    rng = np.random.default_rng(0)
    paths = []
    for i in range(SAMPLES):
        p = os.path.join(root, "samples", f"sample_{i:02d}.raw")
        rng.standard_normal(FEATURES, dtype=np.float32).tofile(p)
        paths.append(p)
    torch.manual_seed(0)
    model = torch.nn.Linear(FEATURES, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(RawFiles(paths), batch_size=4, num_workers=2, shuffle=True)
    for x, y in loader:
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x).squeeze(1), y)
        loss.backward()
        opt.step()
    torch.save({"model": model.state_dict(), "opt": opt.state_dict()}, os.path.join(root, "ckpt.pt"))
    print("ok")


if __name__ == "__main__":
    main()
