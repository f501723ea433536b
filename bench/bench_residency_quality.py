"""Residency policies on real routing, scored on the worst case (engine semantics, one run).

Traces, all from ../shared/traces (the only tuning data; nothing else is read):
* the stress suite (tools/residency_sim/stress.py) cut from the four families and the three chat
  logs: the first 128 decode tokens of each conversation (for a chat log: the log itself,
  prompt included), those in 32-token segments shuffled, and two conversations interleaved;
* the four original families whole (2048 greedy tokens each), against today's rotary too.

Per trace and budget (12.5/25/50% of a layer's experts): hit rate and uploads per decode
token (MEASURED by replaying the routing: decide after the token, misses on the CPU, a
conversation switch restores its set, the prompt goes through observe_prompt), and decode
ms per token (MODELLED by tools/residency_sim/costmodel.py for Qwen3.6-35B-A3B on the RTX 4060
laptop) with copies overlapped with compute and with copies serialised. The headline is the
stress suite's worst cell. Then: the warm start, intra-token prefetch (simulator only; the
engine gets it only if it gains >= 10% on the worst trace with serialised copies) and slots
per layer; then, apart from the shared traces, the small MoE trained here (resources/models):
rotary with and without hidden-state prefetch against the others on its held-out routing (the
engine's trace; bench/bench_hidden_prefetch.py measures the same in the engine). Exits non-zero
when a goal is far missed.
Run: python bench/bench_residency_quality.py [--traces-dir DIR] [--out artifacts/bench]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.verdict import Verdicts  # noqa: E402
from engine.errors import BudgetError  # noqa: E402
from tools.residency_sim import presets, report  # noqa: E402
from engine.residency.budget import Budget  # noqa: E402
from engine.residency.policy import make_policy  # noqa: E402
from tools.residency_sim.predicted import gap_shares, print_rows, run_all  # noqa: E402
from tools.residency_sim.simulate import RunResult, make_budget, run_policy  # noqa: E402
from tools.residency_sim.stress import stress_suite  # noqa: E402
from tools.residency_sim.synth import synth_trace  # noqa: E402
from engine.residency.trace import Trace, load_trace  # noqa: E402

TRAINED_TRACE = ROOT / "resources" / "models" / "rotary-tiny-moe.heldout.npz"
FAMILIES = ("olmoe", "granite", "qwen", "gptoss")
CHATS = ("qwen", "gemma", "gptoss")
FRACTIONS = (0.125, 0.25, 0.5)
SIMPLE = ("lru", "lfu", "lfru")
POLICIES = ("rotary", *SIMPLE, "opt")
OVERLAPS = ("overlapped", "serialised")
GAP_ROOM = 0.01     # the gap share is taken where OPT leaves the best simple policy >= 1 point
PREFETCH_BAR = 0.10  # modelled decode gain (serialised, worst trace) that earns an engine build
# Today's rotary (v1: forecast + LRFU half-life 8, sampled victims) on the four families,
# hit rate % at each budget, measured by this bench's previous version (commit 2e718cc).
TODAYS_ROTARY = {("olmoe_all", 0.125): 52.27, ("olmoe_all", 0.25): 72.17, ("olmoe_all", 0.5): 89.85,
                 ("granite_all", 0.25): 60.53, ("granite_all", 0.5): 85.02,
                 ("qwen_all", 0.125): 51.29, ("qwen_all", 0.25): 66.23, ("qwen_all", 0.5): 84.74,
                 ("gptoss_all", 0.125): 50.02, ("gptoss_all", 0.25): 71.27, ("gptoss_all", 0.5): 91.06}

_TRACES: dict[str, Trace] = {}


def build_traces(traces_dir: str) -> dict[str, tuple[str, Trace]]:
    """name -> (set, trace): 'stress' (the suite) and 'family' (the four whole)."""
    families = [load_trace(os.path.join(traces_dir, f"{f}_all.npz")) for f in FAMILIES]
    chats = [load_trace(os.path.join(traces_dir, "chat", f"{c}.route.csv")) for c in CHATS]
    chats = [Trace(t.ids, t.weights, {**t.meta, "name": f"chat-{t.name}"}, t.path) for t in chats]
    out = {t.name: ("stress", t) for t in stress_suite(families + chats)}
    out.update({t.name: ("family", t) for t in families})
    return out


def _init(traces_dir: str) -> None:
    _TRACES.update({name: trace for name, (_, trace) in build_traces(traces_dir).items()})


def _row(result: RunResult) -> dict:
    n = max(1, result.decode_tokens)
    return {"hit": result.hit_rate, "uploads": result.total_uploads() / n,
            "warm": result.warm_uploads, "prefetches": result.decode.prefetches / n,
            **{f"ms_{o}": 1e3 * result.token_seconds(overlap=o) for o in OVERLAPS}}


def _run(job: tuple) -> dict | None:
    """(trace, policy, fraction, variant) -> one row; None where the budget is below top-k.
    variant: '' plain, 'cold' without the prompt, 'prefetch', or 'ramp' slots."""
    name, policy, fraction, variant = job
    trace = _TRACES[name]
    if variant == "cold":
        trace = without_prompt(trace)
    try:
        budget = make_budget(trace, fraction)
    except BudgetError:
        return None
    if variant == "ramp":
        budget = ramp_budget(trace, fraction)
    result = run_policy(trace, make_policy(policy, budget, trace.n_expert, trace.k),
                        prefetch=variant == "prefetch")
    return {"trace": name, "policy": policy, "fraction": fraction, "variant": variant, **_row(result)}


def without_prompt(trace: Trace) -> Trace:
    """The same decode tokens with the prompt phase left out (no warm start)."""
    keep = ~trace.prompt_mask()
    starts = trace.context_starts()
    new_at = np.cumsum(keep) - keep                         # decode index of each token
    contexts = [[int(new_at[s]), c] for s, c in sorted(starts.items())]
    return Trace(trace.ids[keep], None, {**trace.meta, "prompt_spans": [], "contexts": contexts},
                 trace.path)


def ramp_budget(trace: Trace, fraction: float, tilt: float = 0.5) -> Budget:
    """The even budget's slots moved towards deeper layers: shares 1 - tilt .. 1 + tilt."""
    n_layers, k = trace.n_layers, trace.k
    total = round(fraction * trace.n_expert) * n_layers
    shares = [1 + tilt * (2 * layer / max(1, n_layers - 1) - 1) for layer in range(n_layers)]
    extra = Budget.from_bytes(total - n_layers * k, 1, n_layers, trace.n_expert - k, shares)
    return Budget(tuple(k + s for s in extra.slots))


def _add_synthetic() -> None:
    """A synthetic trace that records the next router on the hidden state (pred), so the
    prefetch study also shows that predictor; labelled synthetic wherever it is printed."""
    trace = synth_trace(presets.spec("latent-qwen3-30b-like", n_tokens=600, n_layers=12, prompt=0,
                                     mark_contexts=False))
    _TRACES["synthetic latent (pred)"] = Trace(trace.ids, None, {**trace.meta, "name": "synthetic"},
                                               "", trace.pred)


def plan(sets: dict[str, str]) -> list[tuple]:
    """Every job: the main table, the warm start, prefetch and slots-per-layer studies."""
    by_size = sorted(sets, key=lambda n: -_TRACES[n].ids[:, :, 0].size)
    jobs = [(n, p, f, "") for n in by_size for p in POLICIES for f in FRACTIONS]
    chats = [n for n in by_size if _TRACES[n].prompt_mask().any()]
    jobs += [(n, p, f, "cold") for n in chats for p in ("rotary", *SIMPLE) for f in FRACTIONS]
    jobs += [(n, "rotary", 0.25, "prefetch") for n in [*by_size, "synthetic latent (pred)"]]
    jobs += [("synthetic latent (pred)", "rotary", 0.25, "")]
    jobs += [(n, "rotary", 0.25, "ramp") for n in by_size if sets[n] == "stress"]
    return jobs


def cells_of(rows: list[dict]) -> dict[tuple, dict]:
    return {(r["trace"], r["fraction"], r["policy"], r["variant"]): r for r in rows}


def compare(cell: dict, names: list[str]) -> list[dict]:
    """Per (trace, budget): rotary's lead over the best simple policy (points), the share of
    the gap to OPT it closes (where OPT leaves room), and its modelled time / the best's."""
    out = []
    for name in names:
        for fraction in FRACTIONS:
            if (name, fraction, "rotary", "") not in cell:
                continue
            mine, opt = cell[(name, fraction, "rotary", "")], cell[(name, fraction, "opt", "")]
            simple = [cell[(name, fraction, p, "")] for p in SIMPLE]
            best = max(r["hit"] for r in simple)
            room = opt["hit"] - best
            out.append({"trace": name, "fraction": fraction, "lead": 100 * (mine["hit"] - best),
                        "gap": (mine["hit"] - best) / room if room >= GAP_ROOM else None,
                        **{f"time_{o}": mine[f"ms_{o}"] / min(r[f"ms_{o}"] for r in simple)
                           for o in OVERLAPS}})
    return out


def print_table(title: str, cell: dict, names: list[str]) -> None:
    print(f"\n{title}")
    print("hit % / uploads per token (measured) | rotary - best simple (pts) | modelled decode ms "
          "per token, rotary vs best simple: copies overlapped, serialised")
    print(f"{'trace':<26}{'budget':>7}" + "".join(f"{p:>13}" for p in POLICIES)
          + f"{'lead':>8}{'overlapped':>16}{'serialised':>16}")
    for c in compare(cell, names):
        name, fraction = c["trace"], c["fraction"]
        parts = [cell[(name, fraction, p, "")] for p in POLICIES]
        simple = parts[1:4]
        times = "".join(f"{parts[0][f'ms_{o}']:>8.2f}|{min(r[f'ms_{o}'] for r in simple):<7.2f}"
                        for o in OVERLAPS)
        print(f"{name:<26}{fraction:>7.1%}" + "".join(f"{100 * r['hit']:>7.1f}/{r['uploads']:<5.1f}"
                                                     for r in parts)
              + f"{c['lead']:>+8.2f}{times}")
    skipped = sorted({n for n in names for f in FRACTIONS if (n, f, "rotary", "") not in cell})
    if skipped:
        print(f"(12.5% is fewer slots than experts per token on: {', '.join(skipped)})")


def summarise(rows: list[dict]) -> dict:
    gaps = [r["gap"] for r in rows if r["gap"] is not None]
    worst = min(rows, key=lambda r: r["lead"])
    out = {"worst_lead": worst["lead"], "worst_cell": f"{worst['trace']} {worst['fraction']:.1%}",
           "mean_lead": float(np.mean([r["lead"] for r in rows])),
           "mean_gap": float(np.mean(gaps)), "gap_cells": len(gaps), "cells": len(rows)}
    for o in OVERLAPS:
        slowest = max(rows, key=lambda r: r[f"time_{o}"])
        out[f"worst_time_{o}"] = slowest[f"time_{o}"]
        out[f"worst_time_{o}_cell"] = f"{slowest['trace']} {slowest['fraction']:.1%}"
    return out


def print_summary(label: str, s: dict) -> None:
    print(f"{label}: rotary - best simple: worst {s['worst_lead']:+.2f} pts ({s['worst_cell']}), "
          f"mean {s['mean_lead']:+.2f} pts over {s['cells']} cells; share of the gap to OPT "
          f"closed: mean {s['mean_gap']:.3f} over the {s['gap_cells']} cells where OPT leaves "
          f">= {100 * GAP_ROOM:g} pt; modelled time rotary / best simple, worst: overlapped "
          f"{s['worst_time_overlapped']:.3f} ({s['worst_time_overlapped_cell']}), serialised "
          f"{s['worst_time_serialised']:.3f} ({s['worst_time_serialised_cell']})")


def against_today(cell: dict) -> list[tuple[str, float, float]]:
    """(cell, v2 hit %, today's rotary hit %) on the four families."""
    return [(f"{name} {fraction:.1%}", 100 * cell[(name, fraction, "rotary", "")]["hit"], today)
            for (name, fraction), today in TODAYS_ROTARY.items() if (name, fraction, "rotary", "") in cell]


def print_warm(cell: dict, names: list[str]) -> None:
    print("\nWarm start (the traces with a prompt): hit % without -> with observe_prompt "
          "(measured); rotary learns from the whole prompt and steps its last 32 tokens, the "
          "simple policies step the last 32 (the base class's default)")
    for name in names:
        for fraction in FRACTIONS:
            if (name, fraction, "rotary", "cold") not in cell:
                continue
            parts = [f"{p} {100 * cell[(name, fraction, p, 'cold')]['hit']:.1f} -> "
                     f"{100 * cell[(name, fraction, p, '')]['hit']:.1f}" for p in ("rotary", *SIMPLE)]
            print(f"  {name:<24}{fraction:>7.1%}  " + " | ".join(parts))


def prefetch_rows(cell: dict, names: list[str]) -> list[dict]:
    out = []
    for name in names:
        plain, ahead = cell.get((name, 0.25, "rotary", "")), cell.get((name, 0.25, "rotary", "prefetch"))
        if plain is None or ahead is None:
            continue
        out.append({"trace": name, "plain": plain, "prefetch": ahead,
                    **{f"gain_{o}": 1 - ahead[f"ms_{o}"] / plain[f"ms_{o}"] for o in OVERLAPS}})
    return out


def print_prefetch(rows: list[dict]) -> dict:
    print("\nIntra-token prefetch (simulator only), rotary at 25%: while layer l computes, upload "
          "layer l+1's predicted experts, as many as PCIe moves in layer l's modelled compute "
          "time after the previous token's uploads. Predictor: the previous layer's routing "
          "(co-occurrence, learned online; no real trace records the next router), the next "
          "router on the hidden state on the synthetic trace. hit % (measured), uploads/token "
          "(measured; prefetches of them), MODELLED decode gain with copies overlapped | serialised")
    for r in rows:
        p, a = r["plain"], r["prefetch"]
        print(f"  {r['trace']:<26} hit {100 * p['hit']:5.1f} -> {100 * a['hit']:5.1f}  uploads "
              f"{p['uploads']:6.1f} -> {a['uploads']:6.1f} ({a['prefetches']:.1f} prefetched)  gain "
              f"{100 * r['gain_overlapped']:+6.1f}% | {100 * r['gain_serialised']:+6.1f}%")
    real = [r for r in rows if not r["trace"].startswith("synthetic")]
    worst = min(real, key=lambda r: r["gain_serialised"])
    build = worst["gain_serialised"] >= PREFETCH_BAR
    print(f"  decision: {'BUILD into the engine' if build else 'not built into the engine'}: "
          f"worst real trace with serialised copies {worst['trace']} "
          f"{100 * worst['gain_serialised']:+.1f}% (the bar: {100 * PREFETCH_BAR:+.0f}%); "
          f"overlapped, worst {100 * min(r['gain_overlapped'] for r in real):+.1f}%, best "
          f"{100 * max(r['gain_overlapped'] for r in real):+.1f}%")
    return {"build": build, "worst_trace": worst["trace"], "worst_serialised_gain": worst["gain_serialised"]}


def print_split(cell: dict, names: list[str]) -> dict:
    deltas = [(100 * (cell[(n, 0.25, "rotary", "ramp")]["hit"] - cell[(n, 0.25, "rotary", "")]["hit"]), n)
              for n in names if (n, 0.25, "rotary", "ramp") in cell]
    mean, worst = float(np.mean([d for d, _ in deltas])), min(deltas)
    print(f"\nSlots per layer, stress suite at 25%: deeper layers favoured (shares 0.5 .. 1.5, "
          f"every layer >= top-k) minus the even split: mean {mean:+.2f} pts, worst {worst[0]:+.2f} "
          f"({worst[1]}), best {max(deltas)[0]:+.2f} (measured); the engine keeps the even split"
          + ("" if mean <= 0 else " (CHECK: the ramp paid here)"))
    return {"mean": mean, "worst": worst[0]}


def print_trained_model() -> dict:
    """Hidden-state prediction on a model whose router learned (not the shared traces: our own
    model, resources/models; the trace is the engine's, bench/bench_hidden_prefetch.py writes it)."""
    if not TRAINED_TRACE.exists():
        print(f"\n(no {TRAINED_TRACE.relative_to(ROOT)}: the trained model's row is skipped)")
        return {}
    rows = run_all(load_trace(str(TRAINED_TRACE)), 0.25)
    print()
    print_rows(rows, "Trained tiny MoE (resources/models, held-out text; 8 layers, 32 experts top-4) "
               "at 25%: rotary with hidden-state prefetch (pre-gating, same upload cap) and without")
    return {label: gap_shares(rows, label) for label in ("rotary + prediction", "rotary")}


def goals(stress: dict, family: dict, today: list, verdicts: Verdicts) -> None:
    verdicts.check("stress suite: rotary minus the best of LRU/LFU/LFRU, worst cell (headline)",
                   stress["worst_lead"], target=0.0, fail_at=-1.0, unit=" pts")
    verdicts.check("stress suite: mean share of the gap best simple -> OPT closed", stress["mean_gap"],
                   target=0.25, fail_at=0.05, guard=True)
    for o in OVERLAPS:
        verdicts.check(f"stress suite: modelled decode time rotary / best simple, worst cell, {o}",
                       stress[f"worst_time_{o}"], target=1.0, fail_at=1.02, higher_is_better=False,
                       kind="modelled")
        verdicts.check(f"families: modelled decode time rotary / best simple, worst cell, {o}",
                       family[f"worst_time_{o}"], target=1.0, fail_at=1.02, higher_is_better=False,
                       kind="modelled")
    verdicts.check("families: rotary minus the best of LRU/LFU/LFRU, worst cell", family["worst_lead"],
                   target=0.0, fail_at=-1.0, unit=" pts")
    worst = min(today, key=lambda c: c[1] - c[2])
    print("families, rotary now vs today's rotary (v1) per cell: "
          + ", ".join(f"{c} {v:.1f} ({v - t:+.2f})" for c, v, t in today))
    verdicts.check(f"families: rotary minus today's rotary, worst cell ({worst[0]})", worst[1] - worst[2],
                   target=-1.0, fail_at=-2.0, unit=" pts")


def main() -> int:
    args = _args()
    missing = [p for p in [os.path.join(args.traces_dir, f"{f}_all.npz") for f in FAMILIES]
               + [os.path.join(args.traces_dir, "chat", f"{c}.route.csv") for c in CHATS]
               if not os.path.exists(p)]
    if missing:
        print(f"real traces not found: {', '.join(missing)} (pass --traces-dir)")
        return 1
    sets = {name: kind for name, (kind, _) in build_traces(args.traces_dir).items()}
    _init(args.traces_dir)
    _add_synthetic()
    with ProcessPoolExecutor(args.workers, initializer=_init_worker, initargs=(args.traces_dir,)) as pool:
        rows = [r for r in pool.map(_run, plan(sets), chunksize=1) if r is not None]
    cell = cells_of(rows)
    stress_names = [n for n in sets if sets[n] == "stress"]
    family_names = [n for n in sets if sets[n] == "family"]
    print("Residency on real routing (../shared/traces only), engine semantics, one run")
    print_table("Stress suite (the headline; chat-* are the chat logs, prompt included)", cell, stress_names)
    print_table("The four families, whole", cell, family_names)
    stress, family = summarise(compare(cell, stress_names)), summarise(compare(cell, family_names))
    print()
    print_summary("stress suite", stress)
    print_summary("families", family)
    print_warm(cell, [n for n in stress_names if _TRACES[n].prompt_mask().any()])
    decision = print_prefetch(prefetch_rows(cell, [*stress_names, *family_names, "synthetic latent (pred)"]))
    split = print_split(cell, stress_names)
    trained = print_trained_model()
    print()
    verdicts = Verdicts()
    today = against_today(cell)
    goals(stress, family, today, verdicts)
    _write(args.out, rows, {"stress": stress, "families": family, "prefetch": decision, "split": split,
                            "trained_model": trained})
    return verdicts.exit_code()


def _init_worker(traces_dir: str) -> None:
    _init(traces_dir)
    _add_synthetic()


def _write(out: str, rows: list[dict], summary: dict) -> None:
    os.makedirs(out, exist_ok=True)
    plotted = [{"trace": r["trace"], "policy": r["policy"], "fraction": r["fraction"], "hit_rate": r["hit"]}
               for r in rows if r["variant"] == "" and r["trace"] in _TRACES
               and not r["trace"].startswith("synthetic")]
    report.plot(plotted, os.path.join(out, "residency_real.png"))
    with open(os.path.join(out, "residency_real.json"), "w", encoding="utf-8") as handle:
        json.dump({"rows": rows, "summary": summary}, handle, indent=1)
    print(f"wrote {out}/residency_real.png and .json")


def _args():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--traces-dir", default=str(ROOT.parent / "shared" / "traces"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default="artifacts/bench")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
