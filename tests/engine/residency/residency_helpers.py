"""Small trace builders shared by the residency tests."""

from __future__ import annotations

import numpy as np

from engine.residency.trace import Trace


def random_trace(rng: np.random.Generator, n_tokens: int, n_layers: int, n_expert: int, k: int,
                 hot: int | None = None, meta: dict | None = None) -> Trace:
    """ids drawn from a small hot set (so that hits happen), distinct within each row."""
    hot = min(n_expert, hot or 2 * k + 2)
    pool = rng.choice(n_expert, size=hot, replace=False)
    ids = np.array([[rng.choice(pool, size=k, replace=False) for _ in range(n_layers)]
                    for _ in range(n_tokens)], dtype=np.int16)          # [tokens, layers, k]
    weights = rng.random(ids.shape).astype(np.float32)
    return Trace(ids, weights, {"n_expert": n_expert, "k": k, **(meta or {})}, "random")
