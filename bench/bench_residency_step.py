"""Cost of one ``after_token`` call for a 256-expert top-8 layer, as ratios of one run.

Prints measured microseconds per ``policy.after_token`` call: the best of several repeats
over a 3000-token synthetic layer (the machine is shared; the best repeat is the least
disturbed). Rotary is timed on 4 layers so that its per-token work (the context match at
layer 0) is shared as in the engine, with and without the router's probabilities, and on
a real trace where the context match fires; and the warm start (``observe_prompt``) per
prompt token and layer.

The gates are ratios measured in this run (issue 27: absolute microseconds differ 2-3x
between machines of one kind): rotary's step ÷ LRU's step on the same routing and budget,
and the step with the router's probabilities ÷ the step without. Absolute figures are
information. Why the probabilities cost ~3x: per layer call, a numpy top-k over 256 scores
(``near_miss_top``: numpy's fixed call cost, not the sort, is most of it) and 16 runners-up
credited in each of 4 half-lives (24 score updates a half-life instead of 8).
Run: python bench/bench_residency_step.py [--tokens N] [--repeats R]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.verdict import Verdicts
from tools.residency_sim import presets
from engine.residency.budget import Budget
from engine.residency.policy import make_policy
from tools.residency_sim.synth import synth_trace

# rotary ÷ LRU per after_token call, summed over the budgets (LRU: the cheapest useful
# policy, on the same routing; measured 2.7x here).
VS_LRU_TARGET, VS_LRU_FAIL = 4.0, 8.0
# with the router's probabilities ÷ without, summed over the budgets (2.1-3x measured).
PROBS_TARGET, PROBS_FAIL = 3.5, 6.0
LAYERS = 4


def time_policy(name: str, rows: np.ndarray, fraction: float, repeats: int, feed_kind: str) -> list[float]:
    """Microseconds per after_token call, one value per repeat (a fresh policy each time).

    rows: int16 [tokens, LAYERS, 8]; feed_kind: "list", "numpy" (int16 rows) or "probs"
    (lists plus a float32 [256] router distribution per call, as the slot cache passes)."""
    runs = []
    n_layers = rows.shape[1]
    feed = [list(token) for token in rows] if feed_kind == "numpy" else rows.tolist()
    probs = _probs_like(rows) if feed_kind == "probs" else None       # [tokens, layers, 256]
    for _ in range(repeats):
        policy = make_policy(name, Budget.from_fraction(n_layers, 256, fraction), 256, 8)
        policy.prepare(rows)
        start = time.process_time()
        for t, token in enumerate(feed):
            for layer, ids in enumerate(token):
                policy.after_token(layer, ids, None if probs is None else probs[t, layer])
        runs.append(1e6 * (time.process_time() - start) / (len(feed) * n_layers))
    return runs


def _warm_start_row(rows: np.ndarray, repeats: int) -> None:
    """observe_prompt on a prompt as long as the trace: the policy learns from its last
    ``prompt_learn`` tokens only, so the cost per learnt token and layer is what matters."""
    prompt = rows.astype(np.int32)
    runs = []
    for _ in range(repeats):
        policy = make_policy("rotary", Budget.from_fraction(rows.shape[1], 256, 0.25), 256, 8)
        start = time.process_time()
        policy.observe_prompt(prompt)
        learnt = min(len(prompt), policy.cfg.prompt_learn) * rows.shape[1]
        runs.append(1e6 * (time.process_time() - start) / learnt)
    print(f"rotary observe_prompt, {len(prompt)}-token prompt (the last {policy.cfg.prompt_learn} "
          f"learnt), 25%: best {min(runs):.1f} us, median {statistics.median(runs):.1f} us per "
          "learnt token and layer")


def _probs_like(rows: np.ndarray) -> np.ndarray:
    """A softmax over 256 experts whose top-8 are the routed ids (float32 [tokens, layers, 256])."""
    rng = np.random.default_rng(0)
    logits = rng.normal(0, 1, (*rows.shape[:2], 256)).astype(np.float32)
    np.put_along_axis(logits, rows.astype(np.int64), 4.0, axis=2)
    e = np.exp(logits)
    return e / e.sum(axis=2, keepdims=True)


def _real_trace_row(path: str, repeats: int) -> float | None:
    """Rotary on a real trace, where its context match fires on most tokens (64 experts)."""
    if not path or not os.path.exists(path):
        print(f"(real trace {path!r} not found: its row is skipped)")
        return None
    from engine.residency.trace import load_trace

    trace = load_trace(path)
    runs = time_policy_on(trace.ids, trace.n_expert, trace.k, 0.25, repeats)
    print(f"rotary on {trace.name} ({trace.n_expert} experts, top-{trace.k}, {trace.n_layers} layers, "
          f"25%): best {min(runs):.1f} us, median {statistics.median(runs):.1f} us")
    return min(runs)


def time_policy_on(ids: np.ndarray, n_expert: int, k: int, fraction: float, repeats: int) -> list[float]:
    feed = ids.tolist()
    runs = []
    for _ in range(repeats):
        policy = make_policy("rotary", Budget.from_fraction(ids.shape[1], n_expert, fraction), n_expert, k)
        start = time.process_time()
        for token in feed:
            for layer, routed in enumerate(token):
                policy.after_token(layer, routed)
        runs.append(1e6 * (time.process_time() - start) / ids[:, :, 0].size)
    return runs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tokens", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--real-trace", default=str(Path(__file__).resolve().parents[2] / "shared"
                                                    / "traces" / "olmoe_all.npz"))
    args = parser.parse_args()
    trace = synth_trace(presets.spec("qwen-like", n_tokens=args.tokens, n_layers=LAYERS, prompt=0,
                                     mark_contexts=False))
    rows = trace.ids                                                  # int16 [tokens, layers, 8]
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {args.tokens} tokens x "
          f"{LAYERS} layers x {args.repeats} repeats; 256 experts, top-8 (measured)")
    print(f"{'policy':<8}{'slots':>8}{'input':>8}{'best us':>10}{'median us':>11}")
    best: dict[tuple[str, float, str], float] = {}
    for name in ("rotary", "lru", "lfru", "opt"):
        for fraction in FRACTIONS:
            for kind in ("list", "numpy", "probs") if name == "rotary" else ("list",):
                runs = time_policy(name, rows, fraction, args.repeats, kind)
                best[name, fraction, kind] = min(runs)
                print(f"{name:<8}{round(fraction * 256):>8}{kind:>8}"
                      f"{min(runs):>10.1f}{statistics.median(runs):>11.1f}")
    _warm_start_row(rows, args.repeats)
    real = _real_trace_row(args.real_trace, args.repeats)
    return _verdicts(best, real)


FRACTIONS = (0.125, 0.25, 0.5)


def _verdicts(best: dict[tuple[str, float, str], float], real: float | None) -> int:
    verdicts = Verdicts()
    worst = max(best["rotary", f, k] for f in FRACTIONS for k in ("list", "numpy"))
    verdicts.info("rotary after_token, worst budget (best repeat)", worst, " us")
    verdicts.info("rotary after_token with router probs, worst budget",
                  max(best["rotary", f, "probs"] for f in FRACTIONS), " us")
    if real is not None:
        verdicts.info("rotary after_token on the real trace", real, " us")
    def total(name: str, kind: str) -> float:     # over the three budgets: steadier than one
        return sum(best[name, f, kind] for f in FRACTIONS)

    verdicts.check("rotary / LRU after_token, same routing, summed over the budgets",
                   total("rotary", "list") / total("lru", "list"),
                   target=VS_LRU_TARGET, fail_at=VS_LRU_FAIL, higher_is_better=False,
                   unit="x", kind="same-run ratio")
    verdicts.check("rotary after_token with / without router probs, summed over the budgets",
                   total("rotary", "probs") / total("rotary", "list"),
                   target=PROBS_TARGET, fail_at=PROBS_FAIL, higher_is_better=False, unit="x",
                   kind="same-run ratio")
    return verdicts.exit_code()


if __name__ == "__main__":
    sys.exit(main())
