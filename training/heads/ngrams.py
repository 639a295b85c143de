"""The hashed n-gram model beside a head: a logistic regression over each window's n-gram features
(training/llm/window-features.ts), whose logit the head reads as an input.

As the shipped trainer does (training/llm/stage-mlp.ts), the logit a head trains on is out of fold:
the training texts are dealt into `folds` by family, and each is scored by an n-gram model fitted
without its fold, so the head learns how far to trust n-grams on text they have not memorised.
Calibration and held-out texts are scored by the model fitted on every training text.
"""

import os
import random

import numpy as np
import torch
from torch import nn

from bags import BagLoss

CUE_COUNT = 13


class Features:
    def __init__(self, folder: str, windows: int, bits: int = 18):
        self.index = torch.from_numpy(np.fromfile(os.path.join(folder, "ngrams.i32"), dtype=np.int32).astype(np.int64))
        self.value = torch.from_numpy(np.fromfile(os.path.join(folder, "ngrams.f32"), dtype=np.float32))
        self.offsets = np.fromfile(os.path.join(folder, "ngrams.off.i32"), dtype=np.int32).astype(np.int64)
        self.cues = torch.from_numpy(np.fromfile(os.path.join(folder, "cues.f32"), dtype=np.float32).reshape(-1, CUE_COUNT))
        if len(self.offsets) != windows + 1 or self.cues.shape[0] != windows:
            raise ValueError(f"{folder}: n-gram or cue files do not match the dump: run dump-states.ts --features-only")
        self.dim = 1 << bits

    def bag(self, window_ids):
        """EmbeddingBag inputs of these windows: indices, offsets, per-sample weights."""
        parts = [(self.offsets[i], self.offsets[i + 1]) for i in window_ids]
        index = torch.cat([self.index[a:b] for a, b in parts]) if parts else torch.zeros(0, dtype=torch.int64)
        value = torch.cat([self.value[a:b] for a, b in parts]) if parts else torch.zeros(0)
        offsets = torch.tensor(np.cumsum([0] + [b - a for a, b in parts[:-1]]), dtype=torch.int64)
        return index, offsets, value


class NgramModel(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.w = nn.EmbeddingBag(dim, 1, mode="sum")
        nn.init.zeros_(self.w.weight)
        self.b = nn.Parameter(torch.zeros(1))

    def forward(self, index, offsets, value):
        return self.w(index, offsets, per_sample_weights=value).squeeze(-1) + self.b


def fit_ngrams(features: Features, bags, seed: int, epochs: int = 4, batch: int = 256, l2: float = 1e-6):
    """A logistic regression over windows (a multi-window bag trains its maximum), classes equal."""
    torch.manual_seed(seed)
    rng = random.Random(seed)
    model = NgramModel(features.dim)
    opt = torch.optim.Adagrad(model.parameters(), lr=0.2)
    bag_loss = BagLoss(bags)
    order = list(bags)
    for _ in range(epochs):
        rng.shuffle(order)
        for i in range(0, len(order), batch):
            part = order[i : i + batch]
            ids, owner = BagLoss.windows(part)
            loss = bag_loss(part, owner, model(*features.bag(ids))) + l2 * model.w.weight.pow(2).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
    return model


def ngram_logits(model, features: Features, window_ids, batch: int = 2048) -> torch.Tensor:
    out = []
    with torch.no_grad():
        for i in range(0, len(window_ids), batch):
            out.append(model(*features.bag(window_ids[i : i + batch])))
    return torch.cat(out) if out else torch.zeros(0)
