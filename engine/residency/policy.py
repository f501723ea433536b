"""The residency policies by name: one explicit table (vLLM eplb style), checked at import.

``make_policy(name, budget, n_expert, k)`` builds one. A policy whose step also exists in C
(``native``: a factory returning None where the library can't be built or the sizes are
beyond it) gets that one unless ``native=False``; the Python class stays the reference.
The interface itself (ResidencyPolicy, Snapshot) lives in ``engine.residency.base``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.errors import BudgetError
from engine.recipe import DEFAULT_POLICY
from engine.residency import native_rotary
from engine.residency.base import ResidencyPolicy, Snapshot
from engine.residency.baselines import LayerPolicy, LFRUPolicy, LFUPolicy, LRUPolicy, StaticPolicy
from engine.residency.budget import Budget
from engine.residency.opt import OptPolicy
from engine.residency.rotary import RotaryPolicy

__all__ = ["POLICIES", "POLICY_NAMES", "PolicyEntry", "ResidencyPolicy", "Snapshot", "make_policy"]

POLICY_NAMES = ("rotary", "lru", "lfu", "lfru", "static", "layer", "opt")   # what settings may name


@dataclass(frozen=True)
class PolicyEntry:
    reference: type[ResidencyPolicy]                              # the Python class
    native: Callable[..., ResidencyPolicy | None] | None = None   # the same decisions in C


POLICIES: dict[str, PolicyEntry] = {
    "rotary": PolicyEntry(RotaryPolicy, native_rotary.make_native),
    "lru": PolicyEntry(LRUPolicy),
    "lfu": PolicyEntry(LFUPolicy),
    "lfru": PolicyEntry(LFRUPolicy),
    "static": PolicyEntry(StaticPolicy),
    "layer": PolicyEntry(LayerPolicy),
    "opt": PolicyEntry(OptPolicy),
}


def _check_table() -> None:
    if tuple(POLICIES) != POLICY_NAMES:
        raise ImportError(f"residency policies {list(POLICIES)} != allowed {list(POLICY_NAMES)}")
    for name, entry in POLICIES.items():
        if entry.reference.name != name:
            raise ImportError(f"policy '{name}' is {entry.reference.__name__} named '{entry.reference.name}'")
    if DEFAULT_POLICY not in POLICIES:
        raise ImportError(f"the default policy {DEFAULT_POLICY!r} is not in the registry")


_check_table()


def make_policy(name: str, budget: Budget, n_expert: int, k: int, native: bool = True,
                **options) -> ResidencyPolicy:
    """Build a policy by name; unknown names raise BudgetError listing the known ones.
    A policy with a native step gets it unless ``native=False`` (the Python reference)."""
    entry = POLICIES.get(name)
    if entry is None:
        raise BudgetError(f"Unknown residency policy '{name}'", f"known: {', '.join(POLICY_NAMES)}")
    if native and entry.native is not None:
        policy = entry.native(budget, n_expert, k, **options)
        if policy is not None:
            return policy
    return entry.reference(budget, n_expert, k, **options)
