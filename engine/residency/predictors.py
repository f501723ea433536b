"""Cross-layer predictors for the rotary policy's prefetch: ``predictor(layer, hidden)``.

The rotary policy calls ``predictor(layer, hidden)`` after stepping ``layer`` and
prefetches the returned experts into ``layer + 1``. In replay the simulator passes the
token index as ``hidden``, so a predictor here is a table indexed by token:

* ``TracePredictor``  serves the trace's recorded ``pred`` array (measured: the engine
  applied layer i's router to layer i-1's hidden state, or synth's latent model did).
* ``NoisyOracle``     a MODELLED predictor: the true next-layer experts with injected
  noise at a chosen accuracy. Useful for "what if", never a measurement.
"""

from __future__ import annotations

import numpy as np

from engine.errors import TraceFormatError
from engine.residency.trace import Trace


class TracePredictor:
    """Serves ``pred[t, layer + 1]`` (the guess for the next layer) without the -1 holes."""

    def __init__(self, pred: np.ndarray) -> None:
        # -1 would index slot_of[-1] (the last expert) in the policy: drop it here, once.
        self.rows = [[[e for e in row if e >= 0] for row in token]
                     for token in np.asarray(pred).tolist()]          # [tokens][layers][<= k]

    @classmethod
    def from_trace(cls, trace: Trace) -> "TracePredictor":
        if trace.pred is None:
            raise TraceFormatError(f"Trace {trace.name} has no 'pred' array to predict from")
        return cls(trace.pred)

    def __call__(self, layer: int, hidden) -> list[int]:
        return self.rows[hidden][layer + 1]


class NoisyOracle:
    """Modelled stand-in for "next layer's router applied to this layer's hidden state".

    Returns the true experts of layer+1 for the token, each replaced by a wrong one with
    probability 1 - accuracy (published hidden-state predictors: 80-89%, anchors.md).
    The simulator passes the token index as ``hidden``.
    """

    def __init__(self, ids: np.ndarray, n_expert: int, accuracy: float, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        wrong = rng.random(ids.shape) > accuracy
        noise = rng.integers(0, n_expert, ids.shape)
        self.guess = np.where(wrong, noise, ids).tolist()        # [tokens][layers][k]

    def __call__(self, layer: int, hidden) -> list[int]:
        return self.guess[hidden][layer + 1]


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
