"""Fits a window head (models.py) on a set of texts, and scores texts with it.

Training rows are bags of windows with one label, as the `llm` trainer builds its window rows
(training/llm/stage-mlp.ts): a benign text gives each of up to 8 of its windows as a bag of
label 0; a payload planted in a document gives each planted window as a bag of label 1 and each
other window as a bag of label 0; any other attack is one bag of up to 8 of its windows whose
maximum logit is trained towards 1 (the attack is somewhere in it). A text's score is its worst
window's logit, as the guardrail scores it.
"""

import random
import time

import numpy as np
import torch

from bags import BagLoss
from dump import padded_states

MAX_WINDOWS = 8


def bags_of(texts, rng: random.Random):
    bags = []
    for t in texts:
        ws = t.windows if len(t.windows) <= MAX_WINDOWS else rng.sample(t.windows, MAX_WINDOWS)
        if t.label == 0:
            bags += [([w], 0) for w in ws]
        elif t.planted:
            bags += [([w], 1) for w in t.planted]
            bags += [([w], 0) for w in ws if w not in t.planted]
        else:
            bags.append((ws, 1))
    return bags


def sample_bags(bags, max_bags: int, rng: random.Random):
    """At most `max_bags` of `bags`, chosen at random (all of them when 0)."""
    return bags if not max_bags or len(bags) <= max_bags else rng.sample(bags, max_bags)


def forward(model, dump, ids, extra):
    vectors = dump.vectors[ids]
    more = extra[ids] if extra is not None else None
    if model.uses_states:
        states, mask = padded_states(dump, ids)
        return model(vectors, states, mask, more)
    return model(vectors, extra=more)


def window_logits(model, dump, window_ids, extra=None, batch: int = 256):
    model.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(window_ids), batch):
            out.append(forward(model, dump, window_ids[i : i + batch], extra))
    return torch.cat(out).numpy() if out else np.zeros(0)


def score_texts(model, dump, texts, extra=None) -> np.ndarray:
    """Each text's worst window logit."""
    ids = [w for t in texts for w in t.windows]
    # Sorting by length pads less; the logits go back to their texts by index.
    order = sorted(range(len(ids)), key=lambda i: dump.tokens[ids[i]])
    logits = np.empty(len(ids), dtype=np.float32)
    logits[order] = window_logits(model, dump, [ids[i] for i in order], extra)
    scores, k = np.empty(len(texts), dtype=np.float32), 0
    for j, t in enumerate(texts):
        scores[j] = logits[k : k + len(t.windows)].max()
        k += len(t.windows)
    return scores


def fit(head_class, dump, texts, seed: int, epochs: int, log, batch: int = 64, rate: float = 1e-3, decay: float = 1e-4, max_bags: int = 0, extra=None, options=None):
    """`extra`: per window (indexed by window id) inputs the head reads beside the encoder's."""
    torch.manual_seed(seed)
    rng = random.Random(seed)
    model = head_class(dim=dump.states.shape[1], extra=0 if extra is None else extra.shape[1], **(options or {}))
    opt = torch.optim.AdamW(model.parameters(), lr=rate, weight_decay=decay)
    bags = sample_bags(bags_of(texts, rng), max_bags, rng)
    bag_loss = BagLoss(bags)
    started = time.time()
    for epoch in range(epochs):
        model.train()
        rng.shuffle(bags)
        total = 0.0
        for i in range(0, len(bags), batch):
            part = bags[i : i + batch]
            ids, owner = BagLoss.windows(part)
            loss = bag_loss(part, owner, forward(model, dump, ids, extra))
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss) * len(part)
        log(f"  epoch {epoch + 1}/{epochs}: loss {total / len(bags):.4f} ({time.time() - started:.0f}s, {len(bags)} bags, {bag_loss.positives} positive)")
    return model
