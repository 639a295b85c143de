"""The heads compared for issue 22, each a window → logit module over one encoder pass.

- `MeanHead`: an MLP over the sentence vector alone (the mean-pooled representation every
  model-backed guardrail reads today, without the `llm` model's n-grams and cues).
- Either reads `extra` inputs beside them when built with `extra=N`: the `llm` model's n-gram
  logit (out of fold for training rows, ngrams.py) and its 13 cues, as the shipped MLP does.
- `AttentionHead`: learned pooling over the window's token states: `heads` query vectors score
  every token, each head's softmax-weighted sum of the (layer-normed) states is one pooled vector,
  and the MLP reads them beside the sentence vector. One pass of the encoder still serves it.
"""

import torch
from torch import nn


def _join(parts, extra):
    return torch.cat(parts + ([extra] if extra is not None else []), dim=-1)


class MeanHead(nn.Module):
    def __init__(self, dim: int = 512, hidden: int = 256, dropout: float = 0.2, extra: int = 0):
        super().__init__()
        self.mlp = nn.Sequential(nn.Dropout(dropout), nn.Linear(dim + extra, hidden), nn.ReLU(), nn.Dropout(dropout), nn.Linear(hidden, 1))

    uses_states = False

    def forward(self, vectors, states=None, mask=None, extra=None):
        return self.mlp(_join([vectors], extra)).squeeze(-1)


class AttentionHead(nn.Module):
    def __init__(self, dim: int = 512, heads: int = 4, hidden: int = 256, dropout: float = 0.2, extra: int = 0, pool_dim: int = 0):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.score = nn.Linear(dim, heads)
        self.heads = heads
        # A narrower pooled vector (pool_dim < dim): fewer inputs for the MLP to overfit with.
        self.project = nn.Linear(dim, pool_dim) if pool_dim else None
        pooled = pool_dim or dim
        self.mlp = nn.Sequential(
            nn.Dropout(dropout),
            nn.Linear(pooled * heads + dim + extra, hidden),
            nn.ReLU(),
            nn.Dropout(dropout),
            nn.Linear(hidden, 1),
        )

    uses_states = True

    def pool(self, states, mask):
        x = self.norm(states)  # [n, T, dim]
        s = self.score(x)  # [n, T, heads]
        s = s.masked_fill(~mask.unsqueeze(-1), float("-inf"))
        a = torch.softmax(s, dim=1)
        a = torch.nan_to_num(a)  # a window with no tokens pools to zero
        values = self.project(x) if self.project is not None else x
        return torch.einsum("nth,ntd->nhd", a, values).reshape(states.shape[0], -1)

    def forward(self, vectors, states, mask, extra=None):
        return self.mlp(_join([self.pool(states, mask), vectors], extra)).squeeze(-1)


HEADS = {"mean": MeanHead, "attention": AttentionHead}
