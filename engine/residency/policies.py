"""Imports every policy module so that the registry is complete, then checks its names."""

# Each registers on import; native_rotary adds rotary's C step to NATIVE.
from engine.residency import baselines, native_rotary, opt, rotary  # noqa: F401
from engine.residency.policy import REGISTRY

POLICY_NAMES = ("rotary", "lru", "lfu", "lfru", "static", "layer", "opt")

if set(REGISTRY) != set(POLICY_NAMES):    # vLLM eplb style: the registry is checked at import
    raise ImportError(f"residency registry {sorted(REGISTRY)} != allowed {sorted(POLICY_NAMES)}")
