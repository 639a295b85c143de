"""content_moderation's vector head held out by source: logistic against a one-hidden-layer MLP.

  npx tsx training/content-moderation/dump-vectors.ts --out DIR
  /usr/bin/python3 training/heads/moderation_head.py --dump DIR [--heads logistic,mlp128] [--only SOURCE,…]

The shipped model averages, per signal, a logistic head over hashed n-grams and a logistic head
over the USE-lite vector (models/content-moderation/MODEL_CARD.md). This compares only the second
part, the vector head: each source held out in turn, each signal's head trained on the other
sources as heads.ts builds its samples (a text's mean vector with its label; each window of a
safe text as a safe sample, its weight shared; positives × 1.5), and the held-out texts scored by
their most unsafe unit. The figure is the held-out ROC-AUC of the source's own signal: a ranking,
with no threshold or calibration in it.
"""

import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dump import read_vector_dump  # noqa: E402
from protocol import roc_auc  # noqa: E402

SEED = 20261122
POSITIVE_WEIGHT = 1.5


def load(folder):
    rows, vectors = read_vector_dump(folder)
    units = []
    for r in rows:
        v = vectors[r["at"] : r["at"] + r["n"]]
        units.append(None if len(v) == 0 else np.vstack([v.mean(0, keepdims=True), v]) if len(v) > 1 else v)
    return rows, units


def samples(rows, units, index, signal):
    xs, ys, ws = [], [], []
    for i in index:
        r, u = rows[i], units[i]
        if u is None or (r["label"] == 1 and r["signal"] != signal):
            continue
        w = r["weight"] * (POSITIVE_WEIGHT if r["label"] == 1 else 1)
        xs.append(u[0])
        ys.append(r["label"])
        ws.append(w)
        if r["label"] == 0 and len(u) > 1:
            for x in u[1:]:
                xs.append(x)
                ys.append(0)
                ws.append(w / (len(u) - 1))
    return torch.tensor(np.array(xs)), torch.tensor(ys, dtype=torch.float32), torch.tensor(ws, dtype=torch.float32)


def head(kind):
    if kind == "logistic":
        return torch.nn.Linear(512, 1), 3e-3, 1e-4
    hidden = int(kind.removeprefix("mlp"))
    net = torch.nn.Sequential(
        torch.nn.Linear(512, hidden), torch.nn.ReLU(), torch.nn.Dropout(0.2), torch.nn.Linear(hidden, 1)
    )
    return net, 1e-3, 1e-2


def train(x, y, w, kind, epochs):
    torch.manual_seed(SEED)
    net, rate, decay = head(kind)
    opt = torch.optim.AdamW(net.parameters(), lr=rate, weight_decay=decay)
    shuffle = torch.Generator().manual_seed(SEED)
    for _ in range(epochs):
        net.train()
        perm = torch.randperm(len(y), generator=shuffle)
        for b in range(0, len(y), 128):
            j = perm[b : b + 128]
            loss = torch.nn.functional.binary_cross_entropy_with_logits(net(x[j]).squeeze(1), y[j], reduction="none")
            opt.zero_grad()
            ((loss * w[j]).sum() / w[j].sum()).backward()
            opt.step()
    return net.eval()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dump", required=True)
    ap.add_argument("--heads", default="logistic,mlp128,mlp512")
    ap.add_argument("--only", default="")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    rows, units = load(a.dump)
    kinds = a.heads.split(",")
    sources = a.only.split(",") if a.only else sorted({r["source"] for r in rows})
    results = {k: [] for k in kinds}
    print("| held-out source | signal | n | unsafe | " + " | ".join(f"{k} ROC-AUC" for k in kinds) + " |")
    print("|---|---|--:|--:|" + "--:|" * len(kinds))
    for held in sources:
        test = [i for i, r in enumerate(rows) if r["source"] == held]
        labels = [rows[i]["label"] for i in test]
        signals = sorted({rows[i]["signal"] for i in test if rows[i]["label"] == 1})
        if not signals or sum(labels) == len(labels):
            continue  # one label only: no ranking to measure
        rest = [i for i, r in enumerate(rows) if r["source"] != held and r["fold"] >= 0]
        for signal in signals:
            x, y, w = samples(rows, units, rest, signal)
            cells = []
            for k in kinds:
                net = train(x, y, w, k, a.epochs)
                with torch.no_grad():
                    scores = [
                        -1e9 if units[i] is None else net(torch.tensor(units[i])).max().item() for i in test
                    ]
                results[k].append(roc_auc(np.asarray(labels), np.asarray(scores)))
                cells.append(f"{results[k][-1]:.3f}")
            print(f"| {held} | {signal} | {len(test)} | {sum(labels)} | " + " | ".join(cells) + " |", flush=True)
    print("| mean | | | | " + " | ".join(f"**{np.mean(results[k]):.3f}**" for k in kinds) + " |")


if __name__ == "__main__":
    main()
