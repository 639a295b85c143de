"""Reads the dumps the TypeScript side writes for the heads.

`read_vector_dump`: rows and their vectors, as training/lib/vector-dump.ts writes them
(content_moderation's and system_prompt_protection's dump-vectors.ts).

`read_dump`: a token-state dump written by training/lib/token-states.ts.

The dump holds one row per encoder window (windows.jsonl), each window's token states (states.f16,
float16, `dim` per token row) and its sentence vector (vectors.f32). Texts are rebuilt from the
windows' `ex` field: a text is the windows that share it, in order.
"""

import json
import os
from dataclasses import dataclass

import numpy as np
import torch


def read_vector_dump(folder: str):
    """(rows, vectors): the rows of rows.jsonl, and every vector as one [vectors, 512] array."""
    with open(os.path.join(folder, "rows.jsonl"), encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    vectors = np.fromfile(os.path.join(folder, "vectors.f32"), dtype="<f4").reshape(-1, 512)
    return rows, vectors


@dataclass
class Dump:
    meta: dict
    windows: list  # dicts from windows.jsonl
    states: torch.Tensor  # [token rows, dim] float16
    vectors: torch.Tensor  # [windows, dim] float32
    first: np.ndarray  # first token row of each window
    tokens: np.ndarray  # token rows of each window
    texts: list  # per text: the window indices, in order


def read_dump(folder: str) -> Dump:
    with open(os.path.join(folder, "meta.json"), encoding="utf-8") as f:
        meta = json.load(f)
    with open(os.path.join(folder, "windows.jsonl"), encoding="utf-8") as f:
        windows = [json.loads(line) for line in f]
    dim = meta["dim"]
    states = np.fromfile(os.path.join(folder, "states.f16"), dtype=np.float16)
    vectors = np.fromfile(os.path.join(folder, "vectors.f32"), dtype=np.float32)
    if states.size != meta["tokenRows"] * dim or vectors.size != len(windows) * dim:
        raise ValueError(f"{folder}: the state or vector file does not match meta.json (an interrupted dump?)")
    texts: dict = {}
    for i, w in enumerate(windows):
        texts.setdefault(w["ex"], []).append(i)
    return Dump(
        meta=meta,
        windows=windows,
        states=torch.from_numpy(states.reshape(-1, dim)),
        vectors=torch.from_numpy(vectors.reshape(-1, dim)),
        first=np.array([w["first"] for w in windows], dtype=np.int64),
        tokens=np.array([w["tokens"] for w in windows], dtype=np.int64),
        texts=[texts[k] for k in sorted(texts)],
    )


def padded_states(dump: Dump, window_ids, max_tokens: int = 128):
    """The states of `window_ids` as a zero-padded [n, T, dim] float32 batch and its [n, T] mask."""
    lengths = [min(int(dump.tokens[i]), max_tokens) for i in window_ids]
    width = max(1, max(lengths))
    dim = dump.states.shape[1]
    out = torch.zeros(len(window_ids), width, dim)
    mask = torch.zeros(len(window_ids), width, dtype=torch.bool)
    for row, (i, n) in enumerate(zip(window_ids, lengths)):
        if n:
            start = int(dump.first[i])
            out[row, :n] = dump.states[start : start + n].float()
            mask[row, :n] = True
    return out, mask
