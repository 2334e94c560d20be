#!/usr/bin/python3
"""A Hugging Face Trainer-style text classifier over JSON-lines files (held-out program).

  make_data.py --text DATA --scale gpu
  hf_textcls.py DATA --device cuda --model minilm -b 32 --eval-batch-size 64 -j 4 --epochs 3 --bf16 \
      --eval-steps 100 --save-steps 150 --save-total-limit 2 --output-dir OUT

What `load_dataset("json", data_files=...)` + `Trainer` do, written out: the main process reads every
DATA/train-*.jsonl and DATA/validation.jsonl whole at start (json.loads a line) and keeps the records
in memory; DataLoader workers never open a file. The collate_fn tokenises (a hashing word-piece
tokeniser with BERT's special ids and 30,522-id vocabulary), truncates to --max-length and pads each
batch to its own longest text, rounded up to a multiple of 8 (DataCollatorWithPadding,
pad_to_multiple_of=8); the loader shuffles (RandomSampler), pins memory on CUDA and keeps no workers
between epochs. A BERT-style encoder (--model minilm: 6 layers, width 384, 12 heads, 22.7 M parameters;
tiny: 2 x 64) with a pooler and classifier; AdamW with linear warm-up and decay; bf16 autocast
(--bf16); clip_grad_norm_ 1.0 every step. loss.item() every --logging-steps. Every --eval-steps
global steps an evaluation over the whole validation set at --eval-batch-size (accuracy .item():
the pass's synchronisation). Every --save-steps a save_pretrained-style directory OUT/checkpoint-STEP
of config.json, pytorch_model.bin, optimizer.pt, scheduler.pt, rng_state.pth, trainer_state.json,
training_args.bin, tokenizer_config.json, special_tokens_map.json and vocab.txt; then the oldest
directories beyond --save-total-limit are removed (shutil.rmtree). At the end the final model
(config.json + pytorch_model.bin) goes to OUT itself (Trainer.save_model).

Ground truth: JSON lines at exit to --log FILE and the summary as the last stdout line (README.md).
"""
import glob
import json
import math
import os
import random
import re
import shutil
import sys
import time
import zlib

import torch
from torch import nn
from torch.nn import functional as F
from torch.utils.data import DataLoader, RandomSampler, SequentialSampler

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import groundtruth  # noqa: E402

MODELS = {"tiny": (2, 64, 4), "minilm": (6, 384, 12)}  # layers, width, heads
VOCAB, PAD, UNK, CLS, SEP, MASK = 30522, 0, 100, 101, 102, 103


# --- Data: JSON lines in memory; tokenising collate ------------------------------------------------

def load_json_lines(paths):
    rows = []
    for path in paths:
        with open(path) as f:
            rows += [json.loads(line) for line in f if line.strip()]
    return rows


class HashTokenizer:
    """Word-level hashing into BERT's id space: [CLS] ids [SEP], truncated to max_length."""
    pattern = re.compile(r"\w+|[^\w\s]")

    def __init__(self, max_length):
        self.max_length = max_length

    def __call__(self, text):
        ids = [1000 + zlib.crc32(w.encode()) % (VOCAB - 1000) for w in self.pattern.findall(text.lower())]
        return [CLS] + ids[: self.max_length - 2] + [SEP]

    def save_pretrained(self, folder):
        with open(os.path.join(folder, "tokenizer_config.json"), "w") as f:
            json.dump({"do_lower_case": True, "model_max_length": self.max_length,
                       "tokenizer_class": "BertTokenizer"}, f, indent=2)
        with open(os.path.join(folder, "special_tokens_map.json"), "w") as f:
            json.dump({"pad_token": "[PAD]", "unk_token": "[UNK]", "cls_token": "[CLS]", "sep_token": "[SEP]",
                       "mask_token": "[MASK]"}, f, indent=2)
        with open(os.path.join(folder, "vocab.txt"), "w") as f:
            special = {PAD: "[PAD]", UNK: "[UNK]", CLS: "[CLS]", SEP: "[SEP]", MASK: "[MASK]"}
            f.write("".join(special.get(i, f"[unused{i}]" if i < 1000 else f"##h{i}") + "\n" for i in range(VOCAB)))


class PadCollator:
    """DataCollatorWithPadding(pad_to_multiple_of=8) after tokenising the batch's texts."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer

    def __call__(self, rows):
        ids = [self.tokenizer(r["text"]) for r in rows]
        width = (max(len(x) for x in ids) + 7) // 8 * 8
        input_ids = torch.full((len(ids), width), PAD, dtype=torch.long)
        mask = torch.zeros((len(ids), width), dtype=torch.long)
        for i, x in enumerate(ids):
            input_ids[i, : len(x)] = torch.tensor(x)
            mask[i, : len(x)] = 1
        return {"input_ids": input_ids, "attention_mask": mask,
                "labels": torch.tensor([r["label"] for r in rows], dtype=torch.long)}


# --- Model: a BERT-style encoder classifier ----------------------------------------------------------

class EncoderLayer(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.qkv, self.out = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.ffn = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.drop = nn.Dropout(0.1)

    def forward(self, x, bias):
        b, t, d = x.shape
        q, k, v = (z.view(b, t, self.heads, d // self.heads).transpose(1, 2) for z in self.qkv(x).split(d, 2))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d // self.heads) + bias
        y = (att.softmax(-1) @ v).transpose(1, 2).reshape(b, t, d)
        x = self.ln1(x + self.drop(self.out(y)))  # post-LN, as BERT
        return self.ln2(x + self.drop(self.ffn(x)))


class Classifier(nn.Module):
    def __init__(self, layers, d, heads, labels, max_positions=512):
        super().__init__()
        self.config = {"architectures": ["BertForSequenceClassification"], "model_type": "bert",
                       "hidden_size": d, "num_hidden_layers": layers, "num_attention_heads": heads,
                       "intermediate_size": 4 * d, "vocab_size": VOCAB, "max_position_embeddings": max_positions,
                       "num_labels": labels, "hidden_act": "gelu", "torch_dtype": "float32"}
        self.word, self.pos = nn.Embedding(VOCAB, d, padding_idx=PAD), nn.Embedding(max_positions, d)
        self.ln = nn.LayerNorm(d)
        self.layers = nn.ModuleList(EncoderLayer(d, heads) for _ in range(layers))
        self.pooler = nn.Linear(d, d)
        self.head = nn.Linear(d, labels)

    def forward(self, input_ids, attention_mask):
        pos = torch.arange(input_ids.size(1), device=input_ids.device)
        x = self.ln(self.word(input_ids) + self.pos(pos))
        bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in self.layers:
            x = layer(x, bias)
        return self.head(torch.tanh(self.pooler(x[:, 0])))

    def save_pretrained(self, folder):
        with open(os.path.join(folder, "config.json"), "w") as f:
            json.dump(self.config, f, indent=2, sort_keys=True)
        torch.save(self.state_dict(), os.path.join(folder, "pytorch_model.bin"))


# --- Trainer ----------------------------------------------------------------------------------------------

def parse_args(argv=None):
    p = groundtruth.parser(__doc__, "folder with train-*.jsonl and validation.jsonl", 42)
    p.add_argument("--model", default="minilm", choices=MODELS)
    p.add_argument("-b", "--batch-size", type=int, default=32, help="per_device_train_batch_size")
    p.add_argument("--eval-batch-size", type=int, default=64, help="per_device_eval_batch_size")
    p.add_argument("-j", "--workers", type=int, default=2, help="dataloader_num_workers")
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--max-length", type=int, default=256)
    p.add_argument("--lr", type=float, default=5e-5)
    p.add_argument("--warmup-ratio", type=float, default=0.1)
    p.add_argument("--bf16", action="store_true", help="bfloat16 autocast")
    p.add_argument("--logging-steps", type=int, default=50)
    p.add_argument("--eval-steps", type=int, default=100)
    p.add_argument("--save-steps", type=int, default=150)
    p.add_argument("--save-total-limit", type=int, default=2)
    p.add_argument("--output-dir", default="out")
    return groundtruth.args_or_make(p, argv, "text")


class Trainer(groundtruth.Program):
    def __init__(self, a):
        super().__init__(a)
        self.train_files = sorted(glob.glob(os.path.join(a.data, "train-*.jsonl")))
        if not self.train_files:
            raise SystemExit(f"hf_textcls.py: no train-*.jsonl in {a.data}")
        self.train_rows = load_json_lines(self.train_files)
        self.val_rows = load_json_lines([os.path.join(a.data, "validation.jsonl")])
        self.labels = 1 + max(r["label"] for r in self.train_rows)
        self.tokenizer = HashTokenizer(a.max_length)
        collate = PadCollator(self.tokenizer)
        common = dict(collate_fn=collate, num_workers=a.workers, pin_memory=self.cuda)
        g = torch.Generator().manual_seed(a.seed)
        self.train_loader = DataLoader(self.train_rows, batch_size=a.batch_size,
                                       sampler=RandomSampler(self.train_rows, generator=g), **common)
        self.val_loader = DataLoader(self.val_rows, batch_size=a.eval_batch_size,
                                     sampler=SequentialSampler(self.val_rows), **common)
        layers, d, heads = MODELS[a.model]
        self.model = Classifier(layers, d, heads, self.labels, max(512, a.max_length)).to(self.device)
        self.params = sum(p.numel() for p in self.model.parameters())
        no_decay = [n.endswith("bias") or ".ln" in n or n.startswith("ln") for n, _ in self.model.named_parameters()]
        decay = [p for p, nd in zip(self.model.parameters(), no_decay) if not nd]
        rest = [p for p, nd in zip(self.model.parameters(), no_decay) if nd]
        self.optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01},
                                            {"params": rest, "weight_decay": 0.0}], lr=a.lr)
        self.total_steps = a.epochs * len(self.train_loader)
        warm = max(1, int(a.warmup_ratio * self.total_steps))
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(
            self.optimizer,
            lambda s: s / warm if s < warm else max(0.0, (self.total_steps - s) / (self.total_steps - warm)))
        self.global_step = 0
        self.evals, self.log_history, self.kept = [], [], []

    def autocast(self):
        return torch.autocast(self.device.type, dtype=torch.bfloat16, enabled=self.a.bf16)

    def to_device(self, batch):
        return {k: v.to(self.device, non_blocking=True) for k, v in batch.items()}

    def train_epoch(self, epoch):
        self.model.train()
        t_pass, i = time.monotonic(), 0
        for batch, t0, t1 in groundtruth.timed(self.train_loader):
            self.T.start()
            batch = self.to_device(batch)
            with self.autocast():
                loss = F.cross_entropy(self.model(batch["input_ids"], batch["attention_mask"]).float(), batch["labels"])
            loss.backward()
            nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
            self.optimizer.step()
            self.scheduler.step()
            self.optimizer.zero_grad(set_to_none=True)
            self.global_step += 1
            if self.global_step % self.a.logging_steps == 0:
                self.log_history.append({"loss": loss.item(), "step": self.global_step, "epoch": epoch})
                print(f"step {self.global_step} loss {self.log_history[-1]['loss']:.4f}", flush=True)
            self.T.stop(epoch, "train", i, t0, t1, global_step=self.global_step,
                        tokens=int(batch["input_ids"].numel()))
            i += 1
            if self.global_step % self.a.eval_steps == 0:
                self.evaluate(epoch)
            if self.global_step % self.a.save_steps == 0:
                self.save_checkpoint(epoch)
        self.T.end_pass(epoch, "train", i, t_pass, global_step=self.global_step)

    @torch.no_grad()
    def evaluate(self, epoch):
        self.T.flush()
        self.model.eval()
        t_pass, i, correct = time.monotonic(), 0, []
        for batch, t0, t1 in groundtruth.timed(self.val_loader):
            self.T.start()
            batch = self.to_device(batch)
            with self.autocast():
                logits = self.model(batch["input_ids"], batch["attention_mask"])
            correct.append((logits.argmax(-1) == batch["labels"]).sum())
            self.T.stop(epoch, "val", i, t0, t1, after_global_step=self.global_step)
            i += 1
        acc = torch.stack(correct).sum().item() / len(self.val_rows)  # the pass's synchronisation
        self.evals.append(self.global_step)
        self.log_history.append({"eval_accuracy": acc, "step": self.global_step})
        self.T.end_pass(epoch, "val", i, t_pass, accuracy=acc, after_global_step=self.global_step)
        self.model.train()

    def save_checkpoint(self, epoch):
        self.T.flush()
        t0 = time.monotonic()
        folder = os.path.join(self.a.output_dir, f"checkpoint-{self.global_step}")
        os.makedirs(folder, exist_ok=True)
        self.model.save_pretrained(folder)
        self.tokenizer.save_pretrained(folder)
        torch.save(self.optimizer.state_dict(), os.path.join(folder, "optimizer.pt"))
        torch.save(self.scheduler.state_dict(), os.path.join(folder, "scheduler.pt"))
        torch.save({"python": random.getstate(), "cpu": torch.random.get_rng_state(),
                    "cuda": torch.cuda.random.get_rng_state_all() if self.cuda else None},
                   os.path.join(folder, "rng_state.pth"))
        with open(os.path.join(folder, "trainer_state.json"), "w") as f:
            json.dump({"global_step": self.global_step, "epoch": epoch, "log_history": self.log_history,
                       "max_steps": self.total_steps}, f, indent=2, sort_keys=True)
        torch.save(vars(self.a), os.path.join(folder, "training_args.bin"))
        size, files = groundtruth.dir_bytes(folder)
        self.T.checkpoint(epoch=epoch, global_step=self.global_step, path=folder, bytes=size, files=files,
                          kind="save_pretrained directory", seconds=time.monotonic() - t0)
        self.kept.append(folder)
        while len(self.kept) > self.a.save_total_limit:  # rotate_checkpoints
            old = self.kept.pop(0)
            shutil.rmtree(old)
            self.T.checkpoint_removed(path=old)

    def save_model(self):
        self.T.flush()
        t0 = time.monotonic()
        os.makedirs(self.a.output_dir, exist_ok=True)
        self.model.save_pretrained(self.a.output_dir)
        self.tokenizer.save_pretrained(self.a.output_dir)
        names = ("config.json", "pytorch_model.bin", "tokenizer_config.json", "special_tokens_map.json", "vocab.txt")
        size = sum(os.path.getsize(os.path.join(self.a.output_dir, n)) for n in names)
        self.T.checkpoint(epoch=self.a.epochs - 1, global_step=self.global_step, path=self.a.output_dir,
                          bytes=size, files=5, kind="save_model (final)", seconds=time.monotonic() - t0)

    def finish(self):
        a, T = self.a, self.T
        T.finish(
            "hf_textcls", model=a.model, params=self.params, batch_size=a.batch_size,
            eval_batch_size=a.eval_batch_size, workers=a.workers, epochs=a.epochs,
            train_files=len(self.train_files), val_files=1, files=len(self.train_files) + 1,
            train_samples=len(self.train_rows), val_samples=len(self.val_rows),
            data_read="whole files by the main process at start; workers only tokenise",
            file_bytes=sum(os.path.getsize(p) for p in self.train_files) +
            os.path.getsize(os.path.join(a.data, "validation.jsonl")),
            shuffle="sample", drop_last=False, pin_memory=self.cuda, persistent_workers=False,
            amp=a.bf16, dtype="bfloat16" if a.bf16 else "float32", max_length=a.max_length,
            sync_every_step=False, logging_steps=a.logging_steps, eval_steps=a.eval_steps,
            evals_after_global_steps=self.evals, save_steps=a.save_steps, save_total_limit=a.save_total_limit,
            checkpoint_steps=[c["global_step"] for c in T.saved if c["kind"] != "save_model (final)"],
            checkpoint_dir_files=T.saved[0]["files"] if T.saved else 0)


def main():
    a = parse_args()
    t = Trainer(a)
    for epoch in range(a.epochs):
        t.train_epoch(epoch)
    t.save_model()
    t.finish()


if __name__ == "__main__":
    main()
