"""Leave-one-source-out for a window head over the `llm` pool's dump (issue 22's decision table).

  /usr/bin/python3 training/heads/loso.py --head attention [--only GROUP,…] [--epochs N] [--out FILE]

Each public source group is held out in turn (protocol.py); a head is fitted on the rest's train
split, its threshold set by the pooled rule on the calibration split, and the held-out texts
scored. `untrained` is one more fit on every trainable source, scoring the never-trained sets.
Rows are printed as loso.ts prints them and, with --out, written as JSON lines for the table.
"""

import argparse
import os
import random
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dump import read_dump  # noqa: E402
from models import HEADS  # noqa: E402
from protocol import append_row, buckets, folds, held_out_rows, held_together, pooled_threshold, split, summarise, texts_of  # noqa: E402
from train import bags_of, fit, score_texts  # noqa: E402
from ngrams import Features, fit_ngrams, ngram_logits  # noqa: E402

INNER_FOLDS = 4
# Kinds of text an app hands the model as data rather than as the user's request: documents and
# e-mails, with or without a planted payload (training/llm/example.ts).
DATA_KINDS = {"long", "indirect"}
# The n-gram logit's scale in the head's input, as the shipped MLP's LOGIT_SCALE keeps it near 1.
LOGIT_SCALE = 0.25


def with_ngrams(features, dump, train, seed, log):
    """Per window: the n-gram logit (out of fold for the training texts) and the cues."""
    logit = torch.zeros(len(dump.windows))
    inner = lambda t: min(INNER_FOLDS - 1, int((t.u - 0.15) / 0.85 * INNER_FOLDS))  # noqa: E731
    for k in range(INNER_FOLDS):
        model = fit_ngrams(features, bags_of([t for t in train if inner(t) != k], random.Random(seed + k)), seed + k)
        ids = [w for t in train if inner(t) == k for w in t.windows]
        logit[ids] = ngram_logits(model, features, ids)
    full = fit_ngrams(features, bags_of(train, random.Random(seed)), seed)
    trained = {w for t in train for w in t.windows}
    rest = [w for w in range(len(dump.windows)) if w not in trained]
    logit[rest] = ngram_logits(full, features, rest)
    log(f"  n-gram logits: {INNER_FOLDS} out-of-fold fits and one on all {len(train)} training texts")
    return torch.cat([(logit * LOGIT_SCALE).unsqueeze(1), features.cues], dim=1)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_DUMP = os.path.join(REPO, "node_modules/.cache/guardrail/llm-states")


def fmt(x):
    return "–" if x is None or not np.isfinite(x) else f"{x:.3f}"


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dump", default=DEFAULT_DUMP, help="the folder training/llm/dump-states.ts wrote")
    p.add_argument("--head", choices=sorted(HEADS), default="attention")
    p.add_argument("--only", default="", help="comma-separated groups to hold out (`untrained` for the never-trained fit)")
    p.add_argument("--epochs", type=int, default=6)
    p.add_argument("--seed", type=int, default=20261122)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--without-round4", action="store_true", help="the sets added for issue 12 never trained")
    p.add_argument("--out", help="append each row as a JSON line here")
    p.add_argument("--ngrams", action="store_true", help="the head also reads the n-gram logit (out of fold) and the 13 cues")
    p.add_argument("--role", action="store_true", help="the head also reads the text's role: 1 for retrieved data (a document, an e-mail, a tool result: kinds long and indirect), 0 for a prompt")
    p.add_argument("--pool-dim", type=int, default=0, help="attention: project the states to this width before pooling (0: keep 512)")
    p.add_argument("--dropout", type=float, default=0.2)
    p.add_argument("--hold", default="", help="one fold instead: these groups held out together, as finetune.py --hold")
    p.add_argument("--buckets", type=int, default=0, help="hold out the groups K at a time (protocol.buckets) instead of one at a time")
    p.add_argument("--max-bags", type=int, default=0, help="train on at most this many bags, chosen at random (the fine-tune's budget)")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    started = time.time()

    def log(m):
        print(f"[{time.time() - started:.1f}s] {m}", flush=True)

    head_options = {"dropout": args.dropout, **({"pool_dim": args.pool_dim} if args.pool_dim else {})}
    dump = read_dump(args.dump)
    texts = texts_of(dump)
    features = Features(args.dump, len(dump.windows), dump.meta.get("ngramBits", 18)) if args.ngrams else None
    # What the app would say of each text: retrieved data (issue 23's tool role) or a prompt.
    role_column = torch.tensor([[1.0 if w["kind"] in DATA_KINDS else 0.0] for w in dump.windows])
    plan = dump.meta["plan"]
    fold_groups, untrained = folds(plan, not args.without_round4)
    never = {s for sources in untrained.values() for s in sources}
    only = {g for g in args.only.split(",") if g}
    log(f"{len(texts)} texts, {len(dump.windows)} windows; head {args.head}")
    rows = []

    def run(group_sources: dict, held: set, label_suffix: str):
        train, calibration = split(texts, held)
        log(f"fit without {sorted(held - never) or 'the never-trained sets'}: {len(train)} train, {len(calibration)} calibration texts")
        extra = with_ngrams(features, dump, train, args.seed, log) if features else None
        if args.role:
            extra = role_column if extra is None else torch.cat([extra, role_column], dim=1)
        model = fit(HEADS[args.head], dump, train, args.seed, args.epochs, log, max_bags=args.max_bags, extra=extra, options=head_options)
        threshold = pooled_threshold(calibration, score_texts(model, dump, calibration, extra))
        head = args.head + ("+ngrams" if features else "") + ("+role" if args.role else "")
        score = lambda members: score_texts(model, dump, members, extra)  # noqa: E731
        for row in held_out_rows(texts, group_sources, score, threshold, head, label_suffix):
            rows.append(row)
            m = row["m"]
            log(f"{row['group']}: n {m['n']}, recall {fmt(m['recall'])}, FPR {fmt(m['fpr'])}, AUC {fmt(m['auc'])}")
            append_row(args.out, row)

    if args.buckets or args.hold:
        # Every fold's model scores the never-trained sets too; their rows are per fold.
        folds_run = held_together(fold_groups, args.hold) if args.hold else buckets(fold_groups, args.buckets)
        for k, bucket in enumerate(folds_run):
            if only and str(k) not in only:
                continue
            held = never | {s for sources in bucket.values() for s in sources}
            run({**bucket, **{f"{g} (fold {k})": s for g, s in untrained.items()}}, held, "")
    else:
        for group, sources in fold_groups.items():
            if only and group not in only:
                continue
            run({group: sources}, never | set(sources), "")
        if not only or "untrained" in only:
            run(untrained, set(never), " (never trained)")

    print("\n| held-out source | n | attacks | threshold | ROC-AUC | precision | recall | F1 | FPR |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        m = r["m"]
        f1 = m["f1"] if m["positives"] and m["fpr"] is not None else None
        print(f"| {r['group']} | {m['n']} | {m['positives']} | {r['threshold']:.3f} | {fmt(m['auc'])} | {fmt(m['precision'])} | {fmt(m['recall'])} | {fmt(f1)} | {fmt(m['fpr'])} |")
    s = summarise(rows)
    print(
        f"\nmacro attack recall {fmt(s['recall'])} over {s['counts'][0]}; macro FPR {fmt(s['fpr'])} over {s['counts'][1]}; "
        f"balanced accuracy {fmt(s['balanced'])}; macro F1 {fmt(s['f1'])} over {s['counts'][2]}"
    )


if __name__ == "__main__":
    main()
