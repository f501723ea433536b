"""Replay traces through policies and count hits, misses, uploads and CPU work.

Prompt-processing tokens (``meta['prompt_spans']``) run in prompt mode and are counted
apart; hit rate and modelled speed are about decode tokens.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from engine.errors import BudgetError
from engine.residency.budget import Budget
from engine.residency.costmodel import RTX4060_LAPTOP, CostModel
from engine.residency.policy import ResidencyPolicy, make_policy
from engine.residency.predictors import NoisyOracle, TracePredictor, prediction_accuracy
from engine.residency.trace import Trace, load_trace

TRACE_LABEL = "rotary+pred(trace)"    # the trace's recorded hidden-state prediction


@dataclass
class Counts:
    steps: int = 0      # layer steps
    hits: int = 0
    misses: int = 0
    uploads: int = 0    # demand uploads (admits)
    cpu: int = 0        # misses computed on the CPU
    syncs: int = 0      # layer steps that need the host (routing read or CPU work)
    prefetches: int = 0  # speculative uploads (counted in bytes, not in hits)

    def add(self, result, dynamic: bool) -> None:
        self.steps += 1
        self.hits += result.hits
        self.misses += result.misses
        uploads = len(result.admits)
        self.uploads += uploads
        self.cpu += result.misses - uploads
        self.syncs += dynamic or result.misses > uploads
        self.prefetches += len(result.prefetches)

    @property
    def hit_rate(self) -> float:
        total = self.hits + self.misses
        return self.hits / total if total else 0.0


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
    prompt: Counts = field(default_factory=Counts)
    bulk_uploads: int = 0      # prewarm and context restores between phases
    step_seconds: float = 0.0
    pred_accuracy: float | None = None   # of the trace's recorded pred, decode tokens; None: no pred

    @property
    def hit_rate(self) -> float:
        return self.decode.hit_rate

    @property
    def fraction(self) -> float:
        return sum(self.slots) / (self.n_layers * self.n_expert)

    def total_uploads(self) -> int:
        d, p = self.decode, self.prompt
        return d.uploads + d.prefetches + p.uploads + p.prefetches + self.bulk_uploads

    def tokens_per_s(self, model: CostModel = RTX4060_LAPTOP) -> float:
        n = max(1, self.decode_tokens)
        d = self.decode
        per_token = {"hits": d.hits / n, "uploads": d.uploads / n, "prefetches": d.prefetches / n,
                     "cpu": d.cpu / n, "syncs": d.syncs / n, "bulk": self.bulk_uploads / n}
        return 1.0 / model.token_seconds(per_token, self.n_layers)

    def row(self, model: CostModel = RTX4060_LAPTOP) -> dict:
        """One flat, JSON-ready line of results."""
        n = max(1, self.decode_tokens)
        return {"trace": self.trace, "policy": self.policy, "fraction": round(self.fraction, 4),
                "slots_per_layer": round(sum(self.slots) / self.n_layers, 2),
                "hit_rate": round(self.hit_rate, 4), "prompt_hit_rate": round(self.prompt.hit_rate, 4),
                "decode_tokens": self.decode_tokens, "prompt_tokens": self.prompt_tokens,
                "uploads_per_token": round((self.decode.uploads + self.decode.prefetches) / n, 3),
                "cpu_per_token": round(self.decode.cpu / n, 3),
                "upload_gib": round(self.total_uploads() * model.expert_bytes / 2**30, 3),
                "tokens_per_s": round(self.tokens_per_s(model), 2),
                "us_per_step": round(1e6 * self.step_seconds / max(1, self.decode.steps + self.prompt.steps), 2),
                **({} if self.pred_accuracy is None else {"pred_accuracy": round(self.pred_accuracy, 4)})}


def run_policy(trace: Trace, policy: ResidencyPolicy, label: str | None = None,
               predictor_hidden: bool = False) -> RunResult:
    """Replay ``trace``; with ``predictor_hidden`` the token index goes in as ``hidden``."""
    policy.prepare(trace.ids)
    prompt, contexts = trace.prompt_mask(), trace.context_starts()
    ids = trace.ids.tolist()                                     # [tokens][layers][k]
    weights = trace.weights.tolist() if trace.weights is not None else None
    out = RunResult(trace.name, label or policy.name, policy.budget.slots, trace.n_expert, trace.k,
                    trace.n_layers, int((~prompt).sum()), int(prompt.sum()))
    if trace.pred is not None:                 # decode tokens: the only ones rotary prefetches for
        out.pred_accuracy = prediction_accuracy(trace.ids, trace.pred, ~prompt)
    dynamic = policy.admits_misses
    started = time.perf_counter()
    for t in range(trace.n_tokens):
        _phase_change(policy, out, t, bool(prompt[t]), contexts)
        counts = out.prompt if prompt[t] else out.decode
        hidden = t if predictor_hidden else None
        for layer, row in enumerate(ids[t]):
            result = policy.step(layer, row, weights[t][layer] if weights else None, hidden)
            counts.add(result, dynamic)
    if policy.in_prompt:
        out.bulk_uploads += len(policy.end_prompt())
    out.step_seconds = time.perf_counter() - started
    return out


def _phase_change(policy, out: RunResult, t: int, in_prompt: bool, contexts: dict) -> None:
    if t in contexts:
        out.bulk_uploads += len(policy.switch_context(contexts[t]))
    if in_prompt and not policy.in_prompt:
        policy.begin_prompt()
    elif not in_prompt and policy.in_prompt:
        out.bulk_uploads += len(policy.end_prompt())


def layer_shares(ids: np.ndarray, window: int = 64) -> list[float]:
    """Per layer: mean distinct experts per ``window`` tokens, a measure of how much room it needs."""
    n_tokens = ids.shape[0]
    starts = range(0, max(1, n_tokens - window + 1), window)
    return [float(np.mean([len(np.unique(ids[s:s + window, layer])) for s in starts]))
            for layer in range(ids.shape[1])]


def make_budget(trace: Trace, fraction: float | None = None, slots: int | None = None,
                upload_cap: int | None = None, gib: float | None = None,
                expert_bytes: int = RTX4060_LAPTOP.expert_bytes) -> Budget:
    """Slots per layer, a fraction of each layer's experts, or GiB split by layer_shares."""
    if gib is not None:
        budget = Budget.from_bytes(int(gib * 2**30), expert_bytes, trace.n_layers, trace.n_expert,
                                   layer_shares(trace.ids), upload_cap)
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
    predictor_accuracy: float | None = None    # modelled NoisyOracle of this accuracy
    gib: float | None = None
    expert_bytes: int = RTX4060_LAPTOP.expert_bytes
    predictor: str | None = None               # "trace": the trace's recorded pred


def run_job(job: Job, trace: Trace | None = None) -> RunResult | str:
    """Run one job; an impossible budget comes back as its message instead of a result."""
    trace = trace or load_trace(job.trace_path)
    try:
        budget = make_budget(trace, job.fraction, job.slots, job.upload_cap, job.gib, job.expert_bytes)
    except BudgetError as exc:
        return f"{trace.name}: {exc.message}"          # the same for every policy
    if job.predictor == "trace" and trace.pred is None:
        return f"{trace.name}: has no recorded 'pred', so rotary+pred(trace) cannot run"
    options, label = _predictor_options(job, trace)
    policy = make_policy(job.policy, budget, trace.n_expert, trace.k, **options)
    return run_policy(trace, policy, label, predictor_hidden="predictor" in options)


def _predictor_options(job: Job, trace: Trace) -> tuple[dict, str]:
    """Policy options and row label; the modelled oracle is labelled so, never as a measurement."""
    if job.policy != "rotary":
        return {}, job.policy
    if job.predictor == "trace":
        return {"predictor": TracePredictor.from_trace(trace)}, TRACE_LABEL
    if job.predictor_accuracy is not None:
        oracle = NoisyOracle(trace.ids, trace.n_expert, job.predictor_accuracy)
        return {"predictor": oracle}, oracle_label(job.predictor_accuracy)
    return {}, job.policy


def oracle_label(accuracy: float) -> str:
    return f"rotary+pred(model {accuracy:g})"


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
              predictor_accuracy: float | None = None, gibs: list[float] | None = None,
              expert_bytes: int = RTX4060_LAPTOP.expert_bytes, predictor: str | None = None) -> list[Job]:
    """Every trace x policy x budget; rotary runs once more per predictor asked for
    (``predictor_accuracy``: the modelled oracle; ``predictor="trace"``: the recorded pred)."""
    if gibs:
        budgets = [{"gib": g, "expert_bytes": expert_bytes} for g in gibs]
    else:
        budgets = [{"slots": s} for s in slots] if slots else [{"fraction": f} for f in fractions]
    jobs = [Job(t, p, upload_cap=upload_cap, **b) for t in traces for p in policies for b in budgets]
    if predictor_accuracy is not None and "rotary" in policies:
        jobs += [Job(t, "rotary", upload_cap=upload_cap, predictor_accuracy=predictor_accuracy, **b)
                 for t in traces for b in budgets]
    if predictor == "trace" and "rotary" in policies:
        jobs += [Job(t, "rotary", upload_cap=upload_cap, predictor="trace", **b)
                 for t in traces for b in budgets]
    return jobs
