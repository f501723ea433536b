"""Hit rate, uploads and modelled decode speed of every policy on several synthetic settings.

Prints measured numbers (not a pass/fail test): per setting a table, the share of the
gap between the better of LRU/LFU and OPT that rotary closes, where rotary does NOT beat
LRU or LFU, and an ablation of rotary's parts. Writes artifacts/residency_quality.{json,png}.
Run: python bench/bench_residency_quality.py [--tokens N] [--layers L] [--workers W]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor

from engine.residency import presets, report
from engine.residency.rotary import RotaryConfig, RotaryPolicy
from engine.residency.simulate import NoisyOracle, make_budget, plan_jobs, run_jobs, run_policy
from engine.residency.synth import reuse_stats, synth_trace
from engine.residency.trace import load_trace, save_trace

POLICIES = ["rotary", "lru", "lfu", "lfru", "static", "layer", "opt"]
FRACTIONS = [0.125, 0.25, 0.375, 0.5]
ABLATION = {"demand only": RotaryConfig(prewarm=False),
            "default": RotaryConfig(),
            "+ghost backward rotation": RotaryConfig(return_votes=3)}


def write_traces(folder: str, tokens: int, layers: int) -> list[str]:
    paths = []
    for name in presets.SETTINGS:
        trace = synth_trace(presets.spec(name, n_tokens=tokens, n_layers=layers))
        path = os.path.join(folder, f"{name}.npz")
        save_trace(path, trace.ids, trace.weights, {**trace.meta, "name": name})
        stats = reuse_stats(trace.ids)
        print(f"{name:<17} {trace.n_expert:>3} experts top-{trace.k}: next-token repeat "
              f"{stats['repeat_next']:.2f}, within 8 {stats['within_8']:.2f}, "
              f"median reuse distance {stats['median_distance']:.0f}")
        paths.append(path)
    return paths


def verdicts(rows: list[dict]) -> list[str]:
    lines = []
    for trace in dict.fromkeys(r["trace"] for r in rows):
        cell = {(r["policy"], r["fraction"]): r["hit_rate"] for r in rows if r["trace"] == trace}
        for fraction in sorted({f for _, f in cell}):
            mine = cell.get(("rotary", fraction))
            for base in ("lru", "lfu", "lfru"):
                other = cell.get((base, fraction))
                if mine is not None and other is not None and mine <= other:
                    word = "ties" if abs(mine - other) < 1e-9 else "LOSES to"
                    lines.append(f"  {trace} at {fraction:.1%}: rotary {mine:.4f} {word} {base} {other:.4f}")
    return lines or ["  rotary beats LRU, LFU and LFRU in every cell"]


def _ablation_one(args) -> str:
    path, fraction = args
    trace = load_trace(path)
    budget = make_budget(trace, fraction)
    parts = []
    for label, config in ABLATION.items():
        run = run_policy(trace, RotaryPolicy(budget, trace.n_expert, trace.k, config=config))
        parts.append(f"{label} {run.hit_rate:.4f}/{run.tokens_per_s():.1f}")
    oracle = NoisyOracle(trace.ids, trace.n_expert, 0.85)
    run = run_policy(trace, RotaryPolicy(budget, trace.n_expert, trace.k, predictor=oracle),
                     predictor_hidden=True)
    parts.append(f"+prefetch(85%) {run.hit_rate:.4f}/{run.tokens_per_s():.1f}")
    return f"  {trace.name:<17} {fraction:>6.1%}: " + " | ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tokens", type=int, default=3000)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default="artifacts")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        paths = write_traces(folder, args.tokens, args.layers)
        results = run_jobs(plan_jobs(paths, POLICIES, FRACTIONS, None, None, 0.85), args.workers)
        rows = [r.row() for r in results if not isinstance(r, str)]
        errors = [r for r in results if isinstance(r, str)]
        print()
        print(report.table(rows, errors))
        print("Where rotary does not beat a recency/frequency baseline (decode hit rate):")
        print("\n".join(verdicts(rows)))
        print("\nAblation (hit rate / modelled t/s):")
        jobs = [(p, f) for p in paths if any(s in p for s in ("qwen-like", "switchy", "e64"))
                for f in (0.125, 0.25, 0.5)]
        with ProcessPoolExecutor(args.workers) as pool:
            print("\n".join(pool.map(_ablation_one, jobs)))
    report.write_json(os.path.join(args.out, "residency_quality.json"), rows,
                      {"tokens": args.tokens, "layers": args.layers, "fractions": FRACTIONS}, errors)
    report.plot(rows, os.path.join(args.out, "residency_quality.png"))
    print(f"\nwrote {args.out}/residency_quality.json and .png")


if __name__ == "__main__":
    main()
