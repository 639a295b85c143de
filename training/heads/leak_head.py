"""system_prompt_protection without a system prompt: does a head over the sentence vectors help?

  npx tsx training/system-prompt-protection/dump-vectors.ts --out DIR [--written]
  /usr/bin/python3 training/heads/leak_head.py --dump DIR [--heads ngrams,logistic,mlp128,max]

The bundled learned signal is a logistic combiner over the hashed n-gram classifier's two parts
(`disclosure`, `disclosureWindow`; models/system-prompt-protection/MODEL_CARD.md). Each head here
adds one part from the USE-lite vectors of the response's sentences, trained on the train split as
the n-gram classifier is; the combiner is refitted on the validation split and its threshold chosen
there by the bundled rule (the best F1 among thresholds that flag at most 10% of validation
no-leaks). `ngrams` adds nothing: the baseline, fitted the same way.

- `logistic` / `mlp128`: over the mean of the sentence vectors (at unit length).
- `max`: a logistic over single sentences (each with its response's label), the response scoring
  its worst sentence and its mean sentence score.

Printed per head: the generated test split (recall, FPR, ROC-AUC: the pooled sanity check), and the
project-written sets the model never trains on (talk-responses flagged: the issue's target; leaks
caught; ROC-AUC of the written leaks against every written no-leak; leaks caught where at most 10%
of talk-responses are flagged, as written-set.ts prints them).
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
MAX_VAL_FPR = 0.10


def fit(x, y, hidden=0, l2=1e-3):
    """A class-balanced logistic regression (or one-hidden-layer MLP), full batch, L-BFGS."""
    torch.manual_seed(SEED)
    x, y = torch.tensor(x, dtype=torch.float32), torch.tensor(y, dtype=torch.float32)
    pos = y.mean()
    w = torch.where(y > 0, 0.5 / pos, 0.5 / (1 - pos))
    if hidden:
        net = torch.nn.Sequential(torch.nn.Linear(x.shape[1], hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 1))
    else:
        net = torch.nn.Linear(x.shape[1], 1)
    opt = torch.optim.LBFGS(net.parameters(), max_iter=300, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        z = net(x).squeeze(1)
        loss = (torch.nn.functional.binary_cross_entropy_with_logits(z, y, reduction="none") * w).mean()
        loss = loss + l2 * sum((p**2).sum() for n, p in net.named_parameters() if "weight" in n)
        loss.backward()
        return loss

    opt.step(closure)
    return lambda z: torch.sigmoid(net(torch.tensor(z, dtype=torch.float32)).squeeze(1)).detach().numpy()


def head_parts(kind, rows, vectors, train):
    """The head's parts for every row (n × k), fitted on `train`."""
    if kind == "ngrams":
        return np.zeros((len(rows), 0))
    sent = [vectors[r["at"] : r["at"] + r["n"]] for r in rows]
    if kind == "max":
        xs = np.vstack([sent[i] for i in train if len(sent[i])])
        ys = np.concatenate([[rows[i]["label"]] * len(sent[i]) for i in train])
        f = fit(xs, ys)
        return np.array([[s.max(), s.mean()] if len(s) else [0, 0] for s in (f(v) if len(v) else [] for v in sent)])
    mean = np.array([v.mean(0) if len(v) else np.zeros(512, np.float32) for v in sent])
    mean /= np.linalg.norm(mean, axis=1, keepdims=True) + 1e-9
    f = fit(mean[train], np.array([rows[i]["label"] for i in train]), hidden=128 if kind == "mlp128" else 0)
    return f(mean)[:, None]


def threshold(scores, labels):
    """The bundled rule: the best validation F1 among thresholds that flag ≤ 10% of no-leaks."""
    best, at = -1.0, 0.5
    for t in np.round(np.arange(0.05, 0.951, 0.01), 2):
        flagged = scores >= t
        tp = (flagged & (labels == 1)).sum()
        fp = (flagged & (labels == 0)).sum()
        fn = (~flagged & (labels == 1)).sum()
        f1 = 2 * tp / max(1, 2 * tp + fp + fn)
        if fp / max(1, (labels == 0).sum()) <= MAX_VAL_FPR and f1 > best + 1e-9:
            best, at = f1, t
    return at


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dump", required=True)
    ap.add_argument("--heads", default="ngrams,logistic,mlp128,max")
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    rows, vectors = read_vector_dump(a.dump)
    labels = np.array([r["label"] for r in rows])
    split = np.array([r["split"] for r in rows])
    of_set = np.array([r["set"] for r in rows])
    train, val, test = (np.where(split == s)[0] for s in ("train", "val", "test"))
    talk, leaks = of_set == "talk-responses", of_set == "leak-responses"
    no_leaks = talk | (of_set == "non-leak-responses")
    ngrams = np.array([[r["disclosure"], r["disclosureWindow"]] for r in rows])
    print(
        "| head | threshold | test recall / FPR / ROC-AUC | talk-responses flagged | leaks caught "
        "| written ROC-AUC | leaks caught at ≤ 10% talk flagged |"
    )
    print("|---|--:|---|--:|--:|--:|--:|")
    for kind in a.heads.split(","):
        x = np.hstack([ngrams, head_parts(kind, rows, vectors, train)])
        score = fit(x[val], labels[val], l2=1e-4)(x)
        t = threshold(score[val], labels[val])
        flagged = score >= t
        written = np.concatenate([score[leaks], score[no_leaks]])
        written_labels = np.concatenate([np.ones(leaks.sum()), np.zeros(no_leaks.sum())])
        talk_cut = np.quantile(score[talk], 1 - MAX_VAL_FPR, method="higher")
        print(
            f"| {kind} | {t:.2f} | {flagged[test][labels[test] == 1].mean():.3f} / "
            f"{flagged[test][labels[test] == 0].mean():.3f} / {roc_auc(labels[test], score[test]):.3f} "
            f"| {flagged[talk].mean():.3f} | {flagged[leaks].mean():.3f} | {roc_auc(written_labels, written):.3f} "
            f"| {(score[leaks] > talk_cut).mean():.3f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
