"""The leave-one-source-out protocol of training/llm/loso.ts, rebuilt over a dump's texts.

- A fold holds out one public source group (and every never-trained source): texts of a held-out
  source are scored, and any template family that reaches into one is dropped from training.
- The rest split by family: a family whose hash draw `u` is below 0.15 is calibration, else train
  (training/llm/split.ts; the draw is in the dump).
- The threshold is the bundled "pooled" rule (training/llm/calibrate.ts): the lowest at which at
  most 2% of the benign calibration texts are flagged and no source with at least 50 benign
  calibration texts is above 5%. loso.ts applies it to isotonic-calibrated scores; the calibration
  is monotone, so here it is applied to the raw score, which flags the same texts up to the ties
  that isotonic steps make.
- Harmful questions without an injection (kind "harmful-plain") count as benign in calibration,
  and are left out of the held-out rows, as loso.ts does.
"""

import json
from dataclasses import dataclass

import numpy as np

CALIBRATION = 0.15
MAX_FPR = 0.02
SOURCE_MIN = 50
SOURCE_FPR = 0.05


@dataclass
class Text:
    index: int
    label: int
    source: str
    kind: str
    family: str
    u: float
    windows: list  # window indices in the dump
    planted: list  # which of `windows` hold a planted payload


def texts_of(dump) -> list:
    out = []
    for k, ids in enumerate(dump.texts):
        w = dump.windows[ids[0]]
        out.append(
            Text(
                index=k,
                label=int(w["label"]),
                source=w["source"],
                kind=w["kind"],
                family=w["family"],
                u=float(w["u"]),
                windows=ids,
                planted=[i for i in ids if dump.windows[i]["planted"]],
            )
        )
    return out


def folds(plan: dict, with_round4: bool = True):
    """(folds, untrained): group → sources, as loso.ts's plan()."""
    if with_round4:
        return {**plan["trained"], **plan["round4"]}, plan["never"]
    return plan["trained"], {**plan["never"], **plan["round4"]}


def split(texts: list, held: set):
    """Train and calibration texts of a fold that holds out the sources in `held`."""
    touched = {t.family for t in texts if t.source in held}
    train, calibration = [], []
    for t in texts:
        if t.source in held or t.family in touched:
            continue
        (calibration if t.u < CALIBRATION else train).append(t)
    return train, calibration


def pooled_threshold(calibration: list, scores: np.ndarray) -> float:
    """The lowest score threshold the pooled rule allows (scores ≥ threshold are flagged)."""
    benign = [(t.source, s) for t, s in zip(calibration, scores) if t.label == 0]
    values = np.array([s for _, s in benign])
    sources = {}
    for src, s in benign:
        sources.setdefault(src, []).append(s)
    big = [np.array(v) for v in sources.values() if len(v) >= SOURCE_MIN]
    for t in np.unique(values):  # ascending: the first allowed is the lowest
        if (values >= t).mean() <= MAX_FPR and all((v >= t).mean() <= SOURCE_FPR for v in big):
            return float(t)
    return float(values.max()) + 1e-6 if len(values) else 0.0


def roc_auc(labels: np.ndarray, scores: np.ndarray):
    pos, neg = scores[labels == 1], scores[labels == 0]
    if len(pos) == 0 or len(neg) == 0:
        return None
    order = np.argsort(np.concatenate([pos, neg]), kind="mergesort")
    ranks = np.empty(len(order))
    allv = np.concatenate([pos, neg])[order]
    # Average ranks over ties.
    i = 0
    while i < len(allv):
        j = i
        while j + 1 < len(allv) and allv[j + 1] == allv[i]:
            j += 1
        ranks[order[i : j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def metrics(labels: np.ndarray, scores: np.ndarray, threshold: float) -> dict:
    flagged = scores >= threshold
    tp = int((flagged & (labels == 1)).sum())
    fp = int((flagged & (labels == 0)).sum())
    pos = int((labels == 1).sum())
    neg = int((labels == 0).sum())
    recall = tp / pos if pos else None
    fpr = fp / neg if neg else None
    precision = tp / (tp + fp) if tp + fp else None
    f1 = 2 * precision * recall / (precision + recall) if precision and recall else (0.0 if pos else None)
    return {
        "n": len(labels),
        "positives": pos,
        "auc": roc_auc(labels, scores),
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "fpr": fpr,
    }


def summarise(rows: list) -> dict:
    """Balanced accuracy over sources: (macro attack recall + 1 − macro FPR) / 2, as loso.ts."""
    recalls = [r["m"]["recall"] for r in rows if r["m"]["positives"] > 0 and r["m"]["recall"] is not None]
    fprs = [r["m"]["fpr"] for r in rows if r["m"]["fpr"] is not None]
    f1s = [r["m"]["f1"] for r in rows if r["m"]["positives"] > 0 and r["m"]["fpr"] is not None]
    recall = float(np.mean(recalls)) if recalls else float("nan")
    fpr = float(np.mean(fprs)) if fprs else float("nan")
    return {
        "recall": recall,
        "fpr": fpr,
        "balanced": (recall + 1 - fpr) / 2,
        "f1": float(np.mean(f1s)) if f1s else float("nan"),
        "counts": [len(recalls), len(fprs), len(f1s)],
    }


def buckets(fold_groups: dict, k: int) -> list:
    """The fold groups dealt into `k` folds in name order: a cheaper protocol for costly fits
    (a fine-tuned encoder), each group still held out exactly once, by a model that saw none of
    the other groups in its fold either."""
    names = sorted(fold_groups)
    return [{g: fold_groups[g] for g in names[i::k]} for i in range(k)]


def held_together(fold_groups: dict, names: str) -> list:
    """One fold holding out the named groups together (`--hold a,b,c`): the costliest fits (the
    encoder fine-tuned on the whole pool) run once, on the groups that matter most, instead of
    every bucket. An unknown name is an error, not an empty fold."""
    wanted = [n for n in names.split(",") if n]
    unknown = [n for n in wanted if n not in fold_groups]
    if unknown:
        raise SystemExit(f"--hold: unknown group(s) {', '.join(unknown)}; groups: {', '.join(sorted(fold_groups))}")
    return [{g: fold_groups[g] for g in wanted}]


def held_out_rows(texts, groups: dict, score, threshold: float, head: str, suffix: str = ""):
    """Per held-out group, its figures at `threshold` (harmful plain questions left out, as
    loso.ts does): the rows loso.py and finetune.py print and append. `score(members)` gives the
    model's score of each member text."""
    for group, sources in groups.items():
        members = [t for t in texts if t.source in set(sources) and t.kind != "harmful-plain"]
        if not members:
            continue
        labels = np.array([t.label for t in members])
        yield {"group": group + suffix, "head": head, "threshold": threshold, "m": metrics(labels, score(members), threshold)}


def append_row(path, row: dict):
    """One row as a JSON line: a stopped run keeps the rows of its finished folds."""
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
