"""Expert residency: which routed experts live in GPU slots (the policies the slot cache runs).

The engine's semantics, "decide after the token" (see ``base.py``; policies by name:
``policy.py``)::

    policy = make_policy("rotary", Budget.from_fraction(n_layers, n_expert, 0.25), n_expert, k)
    d = policy.after_token(layer, routed_ids, probs=None)     # Decision
    # d.hits/d.misses: against the tables published before; upload d.uploads before t + 1
    uploads = policy.observe_prompt(prompt_routing)           # once a prompt is read: [(layer, expert, slot)]

Traces: ``load_trace`` / ``save_trace`` (optional ``probs``: the full router softmax);
the simulator that compares policies on traces is a developer tool outside the engine
(tools/residency_sim: ``simulate.replay`` is the counting rule; ``python -m tools.residency_sim``).
"""

from engine.residency.base import ResidencyPolicy, Snapshot
from engine.residency.budget import QWEN36_Q4KM_EXPERT_BYTES, Budget
from engine.residency.policy import POLICIES, POLICY_NAMES, make_policy
from engine.residency.rotary import RotaryPolicy
from engine.residency.slots import FREE, Decision, SlotTable
from engine.residency.trace import Trace, load_trace, save_trace

__all__ = ["Budget", "Decision", "FREE", "POLICIES", "POLICY_NAMES", "QWEN36_Q4KM_EXPERT_BYTES",
           "ResidencyPolicy", "RotaryPolicy", "SlotTable", "Snapshot", "Trace", "load_trace",
           "make_policy", "save_trace"]
