"""Hit rate, uploads and modelled decode speed of every policy on several synthetic settings.

Prints measured numbers (not a pass/fail test): per setting a table, the share of the
gap between the better of LRU/LFU and OPT that rotary closes, where rotary does NOT beat
LRU or LFU, and an ablation of rotary's parts. Then cross-layer prefetch from a RECORDED
prediction (the trace's ``pred``: next layer's router on this layer's hidden state) on
the latent synthetic settings and on any ``--traces`` files (e.g. engine recordings),
next to the modelled 85% oracle. Writes artifacts/residency_quality.{json,png}.
Run: python bench/bench_residency_quality.py [--tokens N] [--layers L] [--workers W]
     [--traces artifacts/traces/engine_*.npz]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from concurrent.futures import ProcessPoolExecutor

from engine.residency import presets, report
from engine.residency.predictors import prediction_accuracy
from engine.residency.rotary import RotaryConfig, RotaryPolicy
from engine.residency.simulate import (TRACE_LABEL, NoisyOracle, make_budget, oracle_label,
                                       plan_jobs, run_jobs, run_policy)
from engine.residency.synth import reuse_stats, synth_trace
from engine.residency.trace import load_trace, save_trace

POLICIES = ["rotary", "lru", "lfu", "lfru", "static", "layer", "opt"]
FRACTIONS = [0.125, 0.25, 0.375, 0.5]
SUMMARY_FRACTIONS = [0.125, 0.25, 0.5]
ORACLE_ACCURACY = 0.85     # modelled predictor, for comparison with the recorded one
ABLATION = {"demand only": RotaryConfig(prewarm=False),
            "default": RotaryConfig(),
            "+ghost backward rotation": RotaryConfig(return_votes=3)}


def write_traces(folder: str, tokens: int, layers: int, settings) -> list[str]:
    paths = []
    for name in settings:
        trace = synth_trace(presets.spec(name, n_tokens=tokens, n_layers=layers))
        path = os.path.join(folder, f"{name}.npz")
        save_trace(path, trace.ids, trace.weights, {**trace.meta, "name": name}, trace.pred)
        describe(name, trace)
        paths.append(path)
    return paths


def describe(name: str, trace) -> None:
    stats = reuse_stats(trace.ids)
    extra = "" if trace.pred is None else \
        f", recorded pred accuracy {prediction_accuracy(trace.ids, trace.pred):.2f}"
    print(f"{name:<22} {trace.n_expert:>3} experts top-{trace.k}: next-token repeat "
          f"{stats['repeat_next']:.2f}, within 8 {stats['within_8']:.2f}, "
          f"median reuse distance {stats['median_distance']:.0f}{extra}")


def prediction_summary(rows: list[dict], traces: list[str]) -> list[str]:
    """Per trace with a recorded pred: hit rates per budget, gap closed at 25%, accuracy."""
    columns = ["rotary", TRACE_LABEL, oracle_label(ORACLE_ACCURACY), "lru", "lfu", "opt"]
    heads = ["rotary", "+pred(trace)", f"+pred(model {ORACLE_ACCURACY:g})", "lru", "lfu", "opt"]
    widths = [max(8, len(h) + 2) for h in heads]
    name_width = max([22] + [len(t) + 1 for t in traces])
    lines = ["Cross-layer prefetch from the recorded prediction (decode hit rate %; pred acc = share "
             "of the true next-layer experts it named, decode tokens)",
             f"{'trace':<{name_width}}{'pred acc':>9}{'budget':>8}"
             + "".join(f"{h:>{w}}" for h, w in zip(heads, widths))]
    for trace in traces:
        mine = [r for r in rows if r["trace"] == trace]
        if report.pred_accuracy(mine) is not None:
            lines += _summary_block(trace, mine, columns, widths, name_width)
    return lines


def _summary_block(trace: str, rows: list[dict], columns: list[str], widths: list[int],
                   name_width: int) -> list[str]:
    cell = {(r["policy"], r["fraction"]): r["hit_rate"] for r in rows}
    lines = []
    for i, fraction in enumerate(SUMMARY_FRACTIONS):
        blank = " " * (name_width + 9)
        head = f"{trace:<{name_width}}{report.pred_accuracy(rows):>9.1%}" if i == 0 else blank
        values = [cell.get((c, fraction)) for c in columns]
        lines.append(f"{head}{fraction:>8.1%}" + "".join(
            f"{'-':>{w}}" if v is None else f"{v * 100:>{w}.1f}" for v, w in zip(values, widths)))
    return lines + [" " * (name_width + 9) + _gap_line(rows, columns[:3])]


def _gap_line(rows: list[dict], policies: list[str]) -> str:
    gaps = [(p, report.gap_closed(rows, p).get(0.25)) for p in policies]
    text = ", ".join(f"{p} {'n/a' if g is None else f'{g:+.2f}'}" for p, g in gaps)
    beyond = any(0.25 in fractions for fractions in report.above_opt(rows).values())
    note = "; prefetch beats OPT, which bounds only demand-only policies" if beyond else ""
    return f"gap to OPT closed at 25%: {text}{note}"


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
    oracle = NoisyOracle(trace.ids, trace.n_expert, ORACLE_ACCURACY)
    run = run_policy(trace, RotaryPolicy(budget, trace.n_expert, trace.k, predictor=oracle),
                     predictor_hidden=True)
    parts.append(f"+prefetch(modelled {ORACLE_ACCURACY:.0%}) {run.hit_rate:.4f}/{run.tokens_per_s():.1f}")
    return f"  {trace.name:<17} {fraction:>6.1%}: " + " | ".join(parts)


def main() -> None:
    args = _args()
    os.makedirs(args.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        paths = write_traces(folder, args.tokens, args.layers, presets.SETTINGS)
        with_pred = write_traces(folder, args.tokens, args.layers, presets.LATENT_SETTINGS)
        with_pred += recorded_traces(args.traces, folder)
        rows, errors = _run(paths + with_pred, with_pred, args.workers)
        print()
        print(report.table(rows, errors))
        print("Where rotary does not beat a recency/frequency baseline (decode hit rate):")
        print("\n".join(verdicts(rows)))
        print()
        print("\n".join(prediction_summary(rows, [load_trace(p).name for p in with_pred])))
        print("\nAblation (hit rate / modelled t/s):")
        _ablation(paths, args.workers)
    report.write_json(os.path.join(args.out, "residency_quality.json"), rows,
                      {"tokens": args.tokens, "layers": args.layers, "fractions": FRACTIONS,
                       "recorded_traces": args.traces}, errors)
    report.plot(rows, os.path.join(args.out, "residency_quality.png"))
    print(f"\nwrote {args.out}/residency_quality.json and .png")


def _args():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tokens", type=int, default=3000)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default="artifacts")
    parser.add_argument("--traces", nargs="*", default=[],
                        help="recorded .npz traces (with 'pred' for the prefetch rows)")
    return parser.parse_args()


def recorded_traces(paths: list[str], folder: str) -> list[str]:
    """Copies named "file:<name>" so that rows never merge with a synthetic setting's."""
    copies = []
    for i, path in enumerate(paths):
        trace = load_trace(path)
        name = f"file:{trace.name}"
        copies.append(os.path.join(folder, f"recorded-{i}.npz"))
        save_trace(copies[-1], trace.ids, trace.weights, {**trace.meta, "name": name}, trace.pred)
        describe(name, trace)
    return copies


def _run(paths: list[str], with_pred: list[str], workers: int) -> tuple[list[dict], list[str]]:
    jobs = plan_jobs(paths, POLICIES, FRACTIONS, None, None, ORACLE_ACCURACY)
    jobs += [j for j in plan_jobs(with_pred, ["rotary"], FRACTIONS, None, predictor="trace")
             if j.predictor == "trace"]
    results = run_jobs(jobs, workers)
    return [r.row() for r in results if not isinstance(r, str)], [r for r in results if isinstance(r, str)]


def _ablation(paths: list[str], workers: int) -> None:
    jobs = [(p, f) for p in paths if any(s in p for s in ("qwen-like", "switchy", "e64"))
            for f in (0.125, 0.25, 0.5)]
    with ProcessPoolExecutor(workers) as pool:
        print("\n".join(pool.map(_ablation_one, jobs)))


if __name__ == "__main__":
    main()
