"""The decision table: candidates × held-out sources, from the JSON rows loso.py / finetune.py write.

  /usr/bin/python3 training/heads/table.py NAME=FILE.jsonl [NAME=FILE.jsonl#HEAD …]

`#HEAD` keeps the rows of one head only: finetune.py --score-every-epoch writes each epoch's rows
to one file, named finetune@1, finetune@2, …

A FILE ending in .md is a model card: its "After" leave-one-source-out table (printed by
training/llm/loso.ts) is read as rows, so `v3=models/llm/MODEL_CARD.md` is the shipped
architecture's column.

Per source: recall (attack sources), FPR (benign ones), ROC-AUC (both labels), one column per
candidate; then each candidate's macro figures as loso.ts computes them. Rows a bucketed run
writes once per fold for the never-trained sets ("deepset (fold 2)") are averaged over its folds.
"""

import json
import re
import sys
from collections import OrderedDict

import numpy as np

from protocol import summarise


def card_rows(path, heading="### After: the candidate trained"):
    """The per-source table under `heading` in a model card (loso.ts's printout) as rows."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    part = text[text.index(heading) :]
    part = part[: part.index("**Macro attack recall")]
    num = lambda x: None if x == "–" else float(x)  # noqa: E731
    for line in part.splitlines():
        if not line.startswith("| ") or line.startswith("| held-out"):
            continue
        c = [x.strip() for x in line.strip().strip("|").split("|")]
        m = {"n": int(c[1]), "positives": int(c[2]), "auc": num(c[4]), "precision": num(c[5]), "recall": num(c[6]), "f1": num(c[7]), "fpr": num(c[8])}
        yield {"group": c[0], "m": m}


def read_rows(path):
    by_group = OrderedDict()
    path, _, head = path.partition("#")
    if path.endswith(".md"):
        rows = list(card_rows(path))
    else:
        with open(path, encoding="utf-8") as f:
            rows = [json.loads(line) for line in f]
        if head:
            rows = [r for r in rows if r.get("head") == head]
            if not rows:
                raise SystemExit(f"{path}: no rows of head {head}")
    for row in rows:
        group = re.sub(r" \(fold \d+\)$", " (never trained)", row["group"])
        by_group.setdefault(group, []).append(row["m"])
    out = OrderedDict()
    for group, ms in by_group.items():
        m = dict(ms[0])
        for key in ("auc", "precision", "recall", "f1", "fpr"):
            values = [x[key] for x in ms if x[key] is not None]
            m[key] = float(np.mean(values)) if values else None
        out[group] = m
    return out


def fmt(x):
    return "–" if x is None or not np.isfinite(x) else f"{x:.3f}"


def main(argv):
    runs = OrderedDict((a.split("=", 1)[0], read_rows(a.split("=", 1)[1])) for a in argv)
    groups = list(OrderedDict.fromkeys(g for rows in runs.values() for g in rows))
    names = list(runs)
    print("| held-out source | n | attacks | " + " | ".join(f"{n}: recall / FPR / AUC" for n in names) + " |")
    print("|---|---:|---:|" + "---|" * len(names))
    for g in groups:
        first = next(rows[g] for rows in runs.values() if g in rows)
        cells = []
        for n in names:
            m = runs[n].get(g)
            cells.append("" if m is None else f"{fmt(m['recall'])} / {fmt(m['fpr'])} / {fmt(m['auc'])}")
        print(f"| {g} | {first['n']} | {first['positives']} | " + " | ".join(cells) + " |")
    print()
    print("| candidate | sources | macro recall | macro FPR | balanced accuracy | macro F1 (both labels) |")
    print("|---|---:|---:|---:|---:|---:|")
    for n, rows in runs.items():
        s = summarise([{"m": m} for m in rows.values()])
        print(f"| {n} | {len(rows)} | {fmt(s['recall'])} | {fmt(s['fpr'])} | **{fmt(s['balanced'])}** | {fmt(s['f1'])} |")


if __name__ == "__main__":
    main(sys.argv[1:])
