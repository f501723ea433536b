"""Expert residency: which routed experts live in GPU slots, plus tools to compare policies.

Per token, for each MoE layer in order, the engine calls::

    policy = make_policy("rotary", Budget.from_fraction(n_layers, n_expert, 0.25), n_expert, k)
    result = policy.step(layer, expert_ids, weights, hidden)   # StepResult
    # upload result.admits [(expert, slot)] before the layer's matmul; compute expert_ids[i]
    # from slot result.slots[i] (-1: on the CPU); start result.prefetches [(layer, expert, slot)]

Around prompt processing call ``begin_prompt()`` / ``end_prompt()`` (returns prewarm
uploads); on a conversation switch ``switch_context(conversation_id)`` (returns uploads).
Traces: ``load_trace`` / ``save_trace`` (optional ``pred``: recorded next-layer predictions,
served to rotary's prefetch by ``TracePredictor``); the simulator CLI is
``python -m engine.residency``.
"""

from engine.residency.budget import QWEN36_Q4KM_EXPERT_BYTES, Budget
from engine.residency.policy import REGISTRY, ResidencyPolicy, Snapshot, make_policy
from engine.residency.predictors import TracePredictor, prediction_accuracy
from engine.residency.rotary import RotaryConfig, RotaryPolicy
from engine.residency.slots import FREE, SlotTable, StepResult
from engine.residency.trace import Trace, load_trace, save_trace

__all__ = ["Budget", "FREE", "QWEN36_Q4KM_EXPERT_BYTES", "REGISTRY", "ResidencyPolicy",
           "RotaryConfig", "RotaryPolicy", "SlotTable", "Snapshot", "StepResult", "Trace",
           "TracePredictor", "load_trace", "make_policy", "prediction_accuracy", "save_trace"]
