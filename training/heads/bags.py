"""Bags of windows and their loss, shared by every trainer here (train.py, ngrams.py, finetune.py).

A bag is (window ids, label): its logit is its worst window's, and the loss weights the two
classes equally whatever their counts, with weights that average 1 over an epoch, so a learning
rate means the same for any class balance.
"""

import torch
from torch import nn


class BagLoss:
    def __init__(self, bags):
        positives = sum(1 for _, y in bags if y == 1)
        self.positives = positives
        self.weight = {1: 0.5 / max(positives, 1) * len(bags), 0: 0.5 / max(len(bags) - positives, 1) * len(bags)}
        self.loss = nn.BCEWithLogitsLoss(reduction="none")

    @staticmethod
    def windows(part):
        """The windows of a batch of bags, and the bag each belongs to."""
        ids = [w for ws, _ in part for w in ws]
        owner = torch.tensor([b for b, (ws, _) in enumerate(part) for _ in ws])
        return ids, owner

    def __call__(self, part, owner, z):
        """The batch's mean weighted loss, given its windows' logits `z`."""
        bag_z = torch.full((len(part),), float("-inf")).scatter_reduce(0, owner, z, reduce="amax")
        y = torch.tensor([float(label) for _, label in part])
        w = torch.tensor([self.weight[label] for _, label in part])
        return (self.loss(bag_z, y) * w).mean()
