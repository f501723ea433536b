"""Imports every policy module so that the registry is complete, then checks its names."""

from engine.residency import baselines, opt, rotary  # noqa: F401  (each registers on import)
from engine.residency.policy import REGISTRY

POLICY_NAMES = ("rotary", "lru", "lfu", "lfru", "static", "layer", "opt")

if set(REGISTRY) != set(POLICY_NAMES):    # vLLM eplb style: the registry is checked at import
    raise ImportError(f"residency registry {sorted(REGISTRY)} != allowed {sorted(POLICY_NAMES)}")
