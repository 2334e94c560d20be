"""A small PyTorch CPU training run for the capture-overhead benchmark: 512 raw float32 samples
(64 KiB each) read by a DataLoader with 2 workers, a small MLP, 2 epochs, a torch.save checkpoint
per epoch. Usage: torch_train.py DIR [EPOCHS] (default 2 epochs; the dataset is created once and
reused)."""
import os
import sys
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

SAMPLES, FEATURES = 512, 16384


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
    epochs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    data = os.path.join(root, "data")
    os.makedirs(data, exist_ok=True)
    rng = np.random.default_rng(0)
    paths = [os.path.join(data, f"s{i:04d}.raw") for i in range(SAMPLES)]
    for p in paths:
        if not os.path.exists(p):
            rng.standard_normal(FEATURES, dtype=np.float32).tofile(p)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = torch.nn.Sequential(torch.nn.Linear(FEATURES, 256), torch.nn.ReLU(), torch.nn.Linear(256, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.001)
    loader = DataLoader(RawFiles(paths), batch_size=16, num_workers=2, shuffle=True)
    t0 = time.monotonic()
    for epoch in range(epochs):
        for x, y in loader:
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x).squeeze(1), y)
            loss.backward()
            opt.step()
        torch.save(model.state_dict(), os.path.join(root, f"ckpt_{epoch}.pt"))
    print(f"train_s={time.monotonic() - t0:.3f}")


if __name__ == "__main__":
    main()
