"""Rotary with and without hidden-state prediction against LRU, LFU, LFRU and OPT on one trace
that records ``pred`` (the next layer's router on the hidden state, as the engine computes it),
and the share of the gap from the best simple policy to OPT that rotary closes: in hit rate
(measured by replay) and in decode time (MODELLED, costmodel: copies overlapped, serialised).

With prediction (``prefetch.replay_predicted``) the policy uploads predicted experts while the
token runs, out of the same per-token upload cap as its after-token uploads, so it may pass OPT
(OPT decides after the token only): shares above 1 are possible and printed as they are.
"""

from __future__ import annotations

from engine.residency.policy import make_policy
from engine.residency.trace import Trace
from tools.residency_sim.costmodel import OVERLAPS
from tools.residency_sim.simulate import make_budget, run_policy

SIMPLE = ("lru", "lfu", "lfru")
LABELS = ("rotary + prediction", "rotary", *SIMPLE, "opt")


def run_all(trace: Trace, fraction: float = 0.25) -> dict[str, dict]:
    """label -> {"hit", "uploads" per decode token, "ms_overlapped", "ms_serialised"}."""
    budget = make_budget(trace, fraction)
    rows: dict[str, dict] = {}
    for label in LABELS:
        name, predicted = label.split(" ")[0], label.endswith("prediction")
        policy = make_policy(name, budget, trace.n_expert, trace.k, native=not predicted)
        result = run_policy(trace, policy, label, predicted=predicted)
        n = max(1, result.decode_tokens)
        rows[label] = {"hit": result.hit_rate, "uploads": result.total_uploads() / n,
                       "prefetches": result.decode.prefetches / n,
                       **{f"ms_{o}": 1e3 * result.token_seconds(overlap=o) for o in OVERLAPS}}
    return rows


def gap_shares(rows: dict[str, dict], label: str) -> dict[str, float | None]:
    """Share of the gap best simple -> OPT that ``label`` closes: "hit" (higher is better) and
    "ms_<overlap>" (lower is better); None where OPT leaves no room."""
    out: dict[str, float | None] = {}
    for key, better in (("hit", max), *((f"ms_{o}", min) for o in OVERLAPS)):
        best = better(rows[p][key] for p in SIMPLE)
        room = rows["opt"][key] - best
        out[key] = (rows[label][key] - best) / room if abs(room) > 1e-9 else None
    return out


def print_rows(rows: dict[str, dict], title: str) -> None:
    print(title)
    print(f"  {'policy':<22}{'hit %':>8}{'uploads/tok':>13}{'prefetched':>12}"
          f"{'ms overlapped':>15}{'ms serialised':>15}   (ms: MODELLED)")
    for label, r in rows.items():
        print(f"  {label:<22}{100 * r['hit']:>8.1f}{r['uploads']:>13.2f}{r['prefetches']:>12.2f}"
              f"{r['ms_overlapped']:>15.2f}{r['ms_serialised']:>15.2f}")
    for label in LABELS[:2]:
        shares = gap_shares(rows, label)
        print(f"  share of the gap best simple -> OPT closed by {label}: " + ", ".join(
            f"{key.replace('ms_', 'time, ')} {'n/a' if v is None else f'{v:+.3f}'}"
            for key, v in shares.items()))
