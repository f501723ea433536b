"""Replay traces through policies in the engine's semantics and count what happens.

Decode token t is counted against the tables staged after token t-1 (misses run on the
CPU that token); then ``after_token`` stages the uploads for t+1 (capped per layer).
Prompt-processing tokens (``meta['prompt_spans']``) go to ``observe_prompt`` (the warm
start; not counted); a context start (``meta['contexts']``) calls ``switch_context``. Hit
rate and modelled time are about decode tokens. ``replay`` is the counting rule the engine
obeys.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from engine.errors import BudgetError
from engine.residency.base import ResidencyPolicy
from engine.residency.budget import Budget
from tools.residency_sim.costmodel import RTX4060_LAPTOP, CostModel
from engine.residency.policy import make_policy
from tools.residency_sim.prefetch import (CoOccurrence, NextRouter, replay_predicted,
                                          replay_with_prefetch)
from engine.residency.trace import Trace, load_trace


@dataclass
class Counts:
    steps: int = 0      # layer steps (after_token calls)
    hits: int = 0
    misses: int = 0     # computed on the CPU that token
    uploads: int = 0    # staged for the next token
    evictions: int = 0
    syncs: int = 0      # layer steps that need the host (routing read or CPU work)
    prefetches: int = 0  # intra-token uploads (tools.residency_sim.prefetch; simulator only)

    def add(self, decision, dynamic: bool) -> None:
        self.steps += 1
        self.hits += decision.hits
        self.misses += decision.misses
        self.uploads += len(decision.uploads)
        self.evictions += len(decision.evictions)
        self.syncs += dynamic or decision.misses > 0

    @property
    def hit_rate(self) -> float:
        total = self.hits + self.misses
        return self.hits / total if total else 0.0


def replay(policy: ResidencyPolicy, ids, probs=None, counts: Counts | None = None) -> Counts:
    """Decode ids [tokens, layers, k] (probs [tokens, layers, n_expert] or None) through
    ``after_token``, token by token and layer by layer; the engine's counts equal these."""
    counts = counts or Counts()
    rows = ids.tolist() if hasattr(ids, "tolist") else ids
    dynamic, after_token = policy.admits_misses, policy.after_token
    for t, token in enumerate(rows):
        for layer, routed in enumerate(token):
            counts.add(after_token(layer, routed, None if probs is None else probs[t][layer]), dynamic)
    return counts


@dataclass
class RunResult:
    trace: str
    policy: str
    slots: tuple[int, ...]
    n_expert: int
    k: int
    n_layers: int
    decode_tokens: int
    prompt_tokens: int
    decode: Counts = field(default_factory=Counts)
    bulk_uploads: int = 0      # context restores between conversations
    warm_uploads: int = 0      # observe_prompt's uploads before a turn's first decode token
    step_seconds: float = 0.0

    @property
    def hit_rate(self) -> float:
        return self.decode.hit_rate

    @property
    def fraction(self) -> float:
        return sum(self.slots) / (self.n_layers * self.n_expert)

    def total_uploads(self) -> int:
        return self.decode.uploads + self.decode.prefetches + self.bulk_uploads + self.warm_uploads

    def token_seconds(self, model: CostModel = RTX4060_LAPTOP, overlap: str = "overlapped") -> float:
        """MODELLED seconds per decode token: every upload of the run (after-token, restores,
        warm start) spread over the decode tokens; misses on the CPU (see costmodel)."""
        n = max(1, self.decode_tokens)
        d = self.decode
        per_token = {"hits": d.hits / n, "cpu": d.misses / n, "syncs": d.syncs / n,
                     "uploads": self.total_uploads() / n}
        return model.token_seconds(per_token, self.n_layers, overlap)

    def tokens_per_s(self, model: CostModel = RTX4060_LAPTOP, overlap: str = "overlapped") -> float:
        """MODELLED decode tokens/s (see token_seconds)."""
        return 1.0 / self.token_seconds(model, overlap)

    def row(self, model: CostModel = RTX4060_LAPTOP) -> dict:
        """One flat, JSON-ready line of results."""
        n = max(1, self.decode_tokens)
        return {"trace": self.trace, "policy": self.policy, "fraction": round(self.fraction, 4),
                "slots_per_layer": round(sum(self.slots) / self.n_layers, 2),
                "hit_rate": round(self.hit_rate, 4),
                "decode_tokens": self.decode_tokens, "prompt_tokens": self.prompt_tokens,
                "uploads_per_token": round(self.total_uploads() / n, 3),
                "warm_uploads": self.warm_uploads, "restore_uploads": self.bulk_uploads,
                "cpu_per_token": round(self.decode.misses / n, 3),
                "upload_gib": round(self.total_uploads() * model.expert_bytes / 2**30, 3),
                "tokens_per_s": round(self.tokens_per_s(model), 2),
                "ms_per_token_overlapped": round(1e3 * self.token_seconds(model, "overlapped"), 3),
                "ms_per_token_serialised": round(1e3 * self.token_seconds(model, "serialised"), 3),
                "us_per_step": round(1e6 * self.step_seconds / max(1, self.decode.steps), 2)}


def run_policy(trace: Trace, policy: ResidencyPolicy, label: str | None = None,
               prefetch: bool = False, predicted: bool = False) -> RunResult:
    """Replay ``trace`` as the engine runs it: at a context start ``switch_context`` (its
    uploads are restores), a prompt span through ``observe_prompt`` (the warm start: its
    uploads land before the first decode token; no hits counted), decode spans through
    ``replay``. Context names become conversation ids 0, 1, ... in order of appearance.
    ``prefetch``: also upload layer l + 1's predicted experts while layer l computes
    (tools.residency_sim.prefetch; a study the engine does not do). ``predicted``: the
    engine's hidden-state prefetch from the trace's ``pred`` within the same upload cap
    (prefetch.replay_predicted; the policy must be a Python one)."""
    if predicted and trace.pred is None:
        raise ValueError(f"{trace.name} records no hidden-state predictions (pred)")
    prompt, contexts = trace.prompt_mask(), trace.context_starts()
    decode_at = np.flatnonzero(~prompt)
    policy.prepare(trace.ids[decode_at])                 # offline policies see decode tokens
    out = RunResult(trace.name, label or policy.name, policy.budget.slots, trace.n_expert, trace.k,
                    trace.n_layers, len(decode_at), int(prompt.sum()))
    probs = trace.probs
    predictor = _predictor(trace, decode_at) if prefetch else None
    conversation_ids: dict[str, int] = {}
    started = time.perf_counter()
    for start, stop in _spans(prompt, contexts):
        if start in contexts:
            conversation = conversation_ids.setdefault(contexts[start], len(conversation_ids))
            out.bulk_uploads += len(policy.switch_context(conversation))
        if prompt[start]:
            out.warm_uploads += len(policy.observe_prompt(trace.ids[start:stop].astype(np.int32)))
        elif predicted:
            replay_predicted(policy, trace.ids[start:stop], trace.pred[start:stop], out.decode)
        elif predictor is not None:
            predictor.offset = int(np.searchsorted(decode_at, start))
            replay_with_prefetch(policy, trace.ids[start:stop], predictor, out.decode)
        else:
            replay(policy, trace.ids[start:stop], None if probs is None else probs[start:stop], out.decode)
    out.step_seconds = time.perf_counter() - started
    return out


def _predictor(trace: Trace, decode_at: np.ndarray):
    if trace.pred is not None:
        return NextRouter(trace.pred[decode_at])
    return CoOccurrence(trace.n_layers, trace.n_expert)


def _spans(prompt: np.ndarray, contexts: dict) -> list[tuple[int, int]]:
    """[start, stop) runs with one phase and no context start inside."""
    cuts = sorted({0, len(prompt), *contexts, *np.flatnonzero(np.diff(prompt.astype(np.int8))) + 1})
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if a < b]


def layer_shares(ids: np.ndarray, window: int = 64) -> list[float]:
    """Per layer: mean distinct experts per ``window`` tokens, a measure of how much room it needs."""
    n_tokens = ids.shape[0]
    starts = range(0, max(1, n_tokens - window + 1), window)
    return [float(np.mean([len(np.unique(ids[s:s + window, layer])) for s in starts]))
            for layer in range(ids.shape[1])]


def lru_hit_curves(ids: np.ndarray, n_expert: int) -> np.ndarray:
    """int64 [layers, n_expert + 1]: hits LRU would get with s slots (column s), per layer,
    from one pass of stack distances (Mattson): a use at stack depth d hits when s > d."""
    n_layers = ids.shape[1]
    depth_counts = np.zeros((n_layers, n_expert + 1), dtype=np.int64)
    for layer in range(n_layers):
        stack: list[int] = []                                    # most recent first
        for row in ids[:, layer].tolist():
            for depth in [stack.index(e) for e in row if e in stack]:
                depth_counts[layer, depth + 1] += 1
            stack = row + [e for e in stack if e not in row]
    return np.cumsum(depth_counts, axis=1)                      # column s: uses at depth < s


def slots_by_gain(ids: np.ndarray, n_expert: int, k: int, total: int) -> tuple[int, ...]:
    """Split ``total`` slots: k per layer, then each further slot to the layer whose LRU hit
    curve on ``ids`` (a routing profile) gains most from it."""
    curves = lru_hit_curves(ids, n_expert)
    slots = [k] * ids.shape[1]
    for _ in range(max(0, total - k * len(slots))):
        gains = [curves[j, s + 1] - curves[j, s] if s < n_expert else -1 for j, s in enumerate(slots)]
        best = int(np.argmax(gains))
        if gains[best] < 0:
            break
        slots[best] += 1
    return tuple(slots)


def make_budget(trace: Trace, fraction: float | None = None, slots: int | None = None,
                upload_cap: int | None = None, gib: float | None = None,
                expert_bytes: int = RTX4060_LAPTOP.expert_bytes, split: str = "even") -> Budget:
    """Slots per layer, a fraction of each layer's experts, or GiB split over layers:
    ``even`` (the default: on the real traces nothing routing-based did better, see
    bench_residency_quality) or ``diversity`` (by layer_shares of the trace itself)."""
    if gib is not None:
        shares = layer_shares(trace.ids) if split == "diversity" else None
        floor = trace.n_layers * trace.k * expert_bytes        # every layer needs k slots
        if split == "diversity" and int(gib * 2**30) >= floor:   # k each, the rest by shares
            extra = Budget.from_bytes(int(gib * 2**30) - floor, expert_bytes, trace.n_layers,
                                      trace.n_expert - trace.k, shares)
            budget = Budget(tuple(trace.k + s for s in extra.slots), upload_cap)
        else:
            budget = Budget.from_bytes(int(gib * 2**30), expert_bytes, trace.n_layers,
                                       trace.n_expert, shares, upload_cap)
    elif slots is not None:
        budget = Budget.uniform(trace.n_layers, slots, upload_cap)
    else:
        budget = Budget.from_fraction(trace.n_layers, trace.n_expert, fraction, upload_cap)
    budget.check(trace.n_expert, trace.k, trace.n_layers)
    return budget


@dataclass(frozen=True)
class Job:
    """One (trace, policy, budget) run; picklable so that runs can go to worker processes."""

    trace_path: str
    policy: str
    fraction: float | None = None
    slots: int | None = None
    upload_cap: int | None = None
    gib: float | None = None
    expert_bytes: int = RTX4060_LAPTOP.expert_bytes
    split: str = "even"                         # with gib: "even" or "diversity" (see make_budget)
    options: tuple = ()                         # (name, value) policy options, e.g. a config
    label: str | None = None


def run_job(job: Job, trace: Trace | None = None) -> RunResult | str:
    """Run one job; an impossible budget comes back as its message instead of a result."""
    trace = trace or load_trace(job.trace_path)
    try:
        budget = make_budget(trace, job.fraction, job.slots, job.upload_cap, job.gib,
                             job.expert_bytes, job.split)
    except BudgetError as exc:
        return f"{trace.name}: {exc.message}"          # the same for every policy
    policy = make_policy(job.policy, budget, trace.n_expert, trace.k, **dict(job.options))
    return run_policy(trace, policy, job.label)


def run_jobs(jobs: list[Job], workers: int = 1) -> list[RunResult | str]:
    if workers <= 1:
        cache: dict[str, Trace] = {}
        return [run_job(j, cache.setdefault(j.trace_path, load_trace(j.trace_path))) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(run_job, jobs, chunksize=1))


def simulate(trace: Trace, name: str, budget: Budget, **options) -> RunResult:
    """Convenience: one policy by name over an in-memory trace."""
    return run_policy(trace, make_policy(name, budget, trace.n_expert, trace.k, **options))


def plan_jobs(traces: list[str], policies: list[str], fractions: list[float] | None,
              slots: list[int] | None, upload_cap: int | None = None,
              gibs: list[float] | None = None,
              expert_bytes: int = RTX4060_LAPTOP.expert_bytes, split: str = "even") -> list[Job]:
    """Every trace x policy x budget."""
    if gibs:
        budgets = [{"gib": g, "expert_bytes": expert_bytes, "split": split} for g in gibs]
    else:
        budgets = [{"slots": s} for s in slots] if slots else [{"fraction": f} for f in fractions]
    return [Job(t, p, upload_cap=upload_cap, **b) for t in traces for p in policies for b in budgets]
