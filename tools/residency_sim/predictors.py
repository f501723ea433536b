"""How good a trace's recorded cross-layer prediction (``pred``) is.

``pred[t, i]`` guesses layer i's experts of token t from layer i-1's hidden state of the
same token. It exists only while token t runs, after the after-token decision for t was made,
so it can feed residency only by prefetching inside the token (``prefetch.replay_predicted``,
engine/runtime/experts/prefetch.py); ``stats`` reports its accuracy.
"""

from __future__ import annotations

import numpy as np


def prediction_accuracy(ids: np.ndarray, pred: np.ndarray,
                        tokens: np.ndarray | None = None) -> float | None:
    """Mean fraction of the true experts of layers 1.. that ``pred`` named (None: one layer).

    ``tokens`` is an optional bool mask [tokens] (e.g. decode tokens only).
    """
    if ids.shape[1] < 2:
        return None
    if tokens is not None:
        ids, pred = ids[tokens], pred[tokens]
    if ids.shape[0] == 0:
        return None
    # [tokens, layers-1, k_pred, 1] == [tokens, layers-1, 1, k_true] -> found [tokens, layers-1, k_true]
    found = (pred[:, 1:, :, None] == ids[:, 1:, None, :]).any(axis=2)
    return float(found.mean())
