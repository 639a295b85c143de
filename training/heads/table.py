"""The decision table: candidates × held-out sources, from the JSON rows loso.py / finetune.py write.

  /usr/bin/python3 training/heads/table.py NAME=FILE.jsonl [NAME=FILE.jsonl …]

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


def read_rows(path):
    by_group = OrderedDict()
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
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
