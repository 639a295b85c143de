"""Candidate 2 of issue 22: the encoder itself fine-tuned, end to end, with an attention head.

  /usr/bin/python3 training/heads/finetune.py --buckets 4 [--only 0,1] [--max-bags 4000] [--out FILE]
  /usr/bin/python3 training/heads/finetune.py --hold cyberseceval,tasktracker --max-bags 0 --epochs 2 [--out FILE]

The encoder is the product's own ONNX graph run by torch (onnx_torch.py), its weights trained at
a small rate beside a fresh attention head (models.AttentionHead) at the head's rate. Fitting it
costs ~20 windows a second on 2 cores, so the protocol is protocol.buckets: the source groups
held out K at a time, every group once, on a random budget of training bags. Run loso.py with the
same --buckets and --max-bags for the frozen encoder under exactly the same protocol.
"""

import argparse
import os
import random
import sys
import time

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bags import BagLoss  # noqa: E402
from dump import read_dump  # noqa: E402
from models import AttentionHead  # noqa: E402
from onnx_torch import OnnxModule  # noqa: E402
from protocol import append_row, buckets, folds, held_out_rows, held_together, pooled_threshold, split, texts_of  # noqa: E402
from train import bags_of, sample_bags  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_DUMP = os.path.join(REPO, "node_modules/.cache/guardrail/llm-states")
ENCODER = os.path.join(REPO, "models/use-lite/use-lite.onnx")
PAD = -1


def read_ids(folder, dump):
    ids = np.fromfile(os.path.join(folder, "ids.i32"), dtype=np.int32)
    if ids.size != dump.meta["tokenRows"]:
        raise ValueError(f"{folder}/ids.i32 does not match the dump: run training/llm/dump-states.ts again")
    return ids


def grid_of(ids, dump, window_ids):
    lengths = [int(dump.tokens[i]) for i in window_ids]
    grid = torch.full((len(window_ids), max(1, max(lengths))), PAD, dtype=torch.int32)
    for row, (i, n) in enumerate(zip(window_ids, lengths)):
        start = int(dump.first[i])
        grid[row, :n] = torch.from_numpy(ids[start : start + n])
    return grid


class Tuned(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = OnnxModule(ENCODER)
        self.head = AttentionHead()

    def forward(self, grid):
        out = self.encoder(grid)
        mask = grid >= 0
        return self.head(out["embeddings"], out["token_states"], mask)


def window_logits(model, ids, dump, window_ids, batch=32):
    model.eval()
    order = sorted(range(len(window_ids)), key=lambda k: dump.tokens[window_ids[k]])
    logits = np.empty(len(window_ids), dtype=np.float32)
    with torch.no_grad():
        for k in range(0, len(order), batch):
            part = order[k : k + batch]
            ws = [window_ids[j] for j in part]
            logits[part] = model(grid_of(ids, dump, ws)).numpy()
    return logits


def score_texts(model, ids, dump, texts):
    window_ids = [w for t in texts for w in t.windows]
    logits = window_logits(model, ids, dump, window_ids)
    out, k = np.empty(len(texts), dtype=np.float32), 0
    for j, t in enumerate(texts):
        out[j] = logits[k : k + len(t.windows)].max()
        k += len(t.windows)
    return out


def fit(ids, dump, texts, args, log, after_epoch=None):
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    model = Tuned()
    opt = torch.optim.AdamW(
        [
            {"params": model.encoder.parameters(), "lr": args.encoder_rate},
            {"params": model.head.parameters(), "lr": args.head_rate},
        ],
        weight_decay=1e-4,
    )
    bags = sample_bags(bags_of(texts, rng), args.max_bags, rng)
    # A bag of many windows is the costliest step; 4 of them still hold most attacks whole.
    bags = [(ws if len(ws) <= 4 else rng.sample(ws, 4), y) for ws, y in bags]
    bag_loss = BagLoss(bags)
    started = time.time()
    for epoch in range(args.epochs):
        model.train()
        rng.shuffle(bags)
        for i in range(0, len(bags), args.batch):
            part = bags[i : i + args.batch]
            window_ids, owner = BagLoss.windows(part)
            loss = bag_loss(part, owner, model(grid_of(ids, dump, window_ids)))
            opt.zero_grad()
            loss.backward()
            opt.step()
            done = i + len(part)
            if (i // args.batch) % 25 == 0:
                log(f"  epoch {epoch + 1}: {done}/{len(bags)} bags, loss {float(loss):.4f}, {time.time() - started:.0f}s")
        if after_epoch and epoch + 1 < args.epochs:
            after_epoch(model, epoch + 1)
    return model


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dump", default=DEFAULT_DUMP)
    p.add_argument("--buckets", type=int, default=4)
    p.add_argument("--only", default="", help="comma-separated fold numbers")
    p.add_argument("--hold", default="", help="one fold instead: these groups held out together (e.g. cyberseceval,tasktracker)")
    p.add_argument("--max-bags", type=int, default=4000)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--encoder-rate", type=float, default=3e-5)
    p.add_argument("--head-rate", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=20261122)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--out", help="append each row as a JSON line here")
    p.add_argument("--save", help="write fold 0's fine-tuned encoder as ONNX here")
    p.add_argument("--score-every-epoch", action="store_true", help="score the held-out groups after every epoch, not only the last (rows named finetune@EPOCH)")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    started = time.time()

    def log(m):
        print(f"[{time.time() - started:.1f}s] {m}", flush=True)

    dump = read_dump(args.dump)
    ids = read_ids(args.dump, dump)
    texts = texts_of(dump)
    fold_groups, untrained = folds(dump.meta["plan"], True)
    never = {s for sources in untrained.values() for s in sources}
    only = {x for x in args.only.split(",") if x}
    folds_run = held_together(fold_groups, args.hold) if args.hold else buckets(fold_groups, args.buckets)
    for k, bucket in enumerate(folds_run):
        if only and str(k) not in only:
            continue
        held = never | {s for sources in bucket.values() for s in sources}
        train, calibration = split(texts, held)
        log(f"fold {k}: holds out {sorted(bucket)}; {len(train)} train, {len(calibration)} calibration texts")
        groups = {**bucket, **{f"{g} (fold {k})": s for g, s in untrained.items()}}

        def report(model, epochs, calibration=calibration, groups=groups):
            """Every held-out group scored at the threshold the calibration split gives this model."""
            threshold = pooled_threshold(calibration, score_texts(model, ids, dump, calibration))
            score = lambda members: score_texts(model, ids, dump, members)  # noqa: E731
            for row in held_out_rows(texts, groups, score, threshold, f"finetune@{epochs}"):
                m = row["m"]
                log(f"epoch {epochs}, {row['group']}: n {m['n']}, recall {m['recall']}, FPR {m['fpr']}, AUC {m['auc']}")
                append_row(args.out, row)

        model = fit(ids, dump, train, args, log, after_epoch=report if args.score_every_epoch else None)
        if args.save and k == 0:
            model.encoder.write_onnx(args.save)
        report(model, args.epochs)


if __name__ == "__main__":
    main()
