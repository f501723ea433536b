"""``python -m tools.residency_sim simulate|synth|stats|convert``: the residency tools' CLI.

Errors in inputs (bad trace files, impossible budgets) print one plain line and exit 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys

from engine.errors import BudgetError, EngineError
from tools.residency_sim import presets
from tools.residency_sim.costmodel import PRESETS
from engine.residency.policy import POLICY_NAMES


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tools.residency_sim", description=__doc__)
    sub = parser.add_subparsers(required=True, metavar="COMMAND")
    _simulate_parser(sub.add_parser("simulate", help="replay traces through policies"))
    _synth_parser(sub.add_parser("synth", help="write synthetic routing traces"))
    stats = sub.add_parser("stats", help="locality numbers of traces")
    stats.add_argument("traces", nargs="+", metavar="TRACE")
    stats.set_defaults(run=_run_stats)
    convert = sub.add_parser("convert", help="turn a CSV/JSONL routing log into a trace")
    convert.add_argument("log")
    convert.add_argument("out")
    convert.add_argument("--n-expert", type=int)
    convert.add_argument("--model", default="")
    convert.set_defaults(run=_run_convert)
    return parser


def _simulate_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("traces", nargs="+", metavar="TRACE", help=".npz trace files")
    p.add_argument("--policies", default="rotary,lru,lfu,lfru,static,layer,opt",
                   help=f"comma-separated, from: {','.join(POLICY_NAMES)}")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--fractions", default="0.125,0.25,0.5", help="slots as fractions of a layer's experts")
    budget.add_argument("--slots", help="slots per layer, comma-separated")
    budget.add_argument("--gib", help="GiB of expert slots across all layers, comma-separated; "
                                      "layers with more diverse routing get more slots")
    p.add_argument("--upload-cap", type=int, help="uploads per layer step; further misses run on the CPU")
    p.add_argument("--split", choices=["even", "diversity"], default="even",
                   help="with --gib: the same slots for every layer, or more where the trace's "
                        "routing is more diverse (did not pay on the real traces)")
    p.add_argument("--cost-model", default="rtx4060-laptop", choices=sorted(PRESETS))
    p.add_argument("--expert-bytes", type=int, help="bytes per expert (default: Qwen3.6 Q4_K_M, 1.78 MiB)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--json", metavar="OUT")
    p.add_argument("--plot", metavar="OUT.png")
    p.set_defaults(run=_run_simulate)


def _synth_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("out", help="output .npz (with --all: a folder)")
    p.add_argument("--preset", default="qwen-like", choices=sorted(presets.ALL_SETTINGS))
    p.add_argument("--all", action="store_true", help="write every preset into the folder OUT")
    p.add_argument("--mode", choices=["copy", "latent"], default=None,
                   help="latent: route from hidden states and record a next-layer 'pred'")
    for name, field in presets.SYNTH_FIELDS.items():
        if name == "mode":
            continue                                           # added above, with choices
        p.add_argument(f"--{name.replace('_', '-')}", dest=name, type=field, default=None)
    p.set_defaults(run=_run_synth)


def _run_simulate(args) -> int:
    from tools.residency_sim import report, simulate
    from engine.residency.trace import load_trace

    policies = [p.strip() for p in args.policies.split(",") if p.strip()]
    for name in policies:
        if name not in POLICY_NAMES:
            raise EngineError(f"Unknown policy '{name}'", f"known: {', '.join(POLICY_NAMES)}")
    for path in args.traces:
        load_trace(path)                                   # fail early with a clear message
    model = PRESETS[args.cost_model]
    if args.expert_bytes:
        model = dataclasses.replace(model, expert_bytes=args.expert_bytes)
    jobs = simulate.plan_jobs(args.traces, policies, _numbers(args.fractions, float),
                              _numbers(args.slots, int) if args.slots else None, args.upload_cap,
                              _numbers(args.gib, float) if args.gib else None,
                              model.expert_bytes, args.split)
    results = simulate.run_jobs(jobs, args.workers)
    rows = [r.row(model) for r in results if not isinstance(r, str)]
    errors = [r for r in results if isinstance(r, str)]
    if not rows:
        raise BudgetError("No budget can run on these traces", "; ".join(errors))
    print(report.table(rows, errors))
    settings = {"policies": policies, "cost_model": dataclasses.asdict(model), "traces": args.traces,
                "upload_cap": args.upload_cap, "split": args.split,
                "semantics": "decide after the token (misses on the CPU, uploads for the next token)"}
    if args.json:
        report.write_json(args.json, rows, settings, errors)
    if args.plot:
        report.plot(rows, args.plot)
    return 0


def _numbers(text: str, kind) -> list:
    try:
        return [kind(x) for x in text.split(",") if x.strip()]
    except ValueError as exc:
        raise EngineError(f"Cannot read the list '{text}'", str(exc)) from exc


def _run_synth(args) -> int:
    from tools.residency_sim.synth import synth_trace
    from engine.residency.trace import save_trace

    overrides = {k: getattr(args, k) for k in presets.SYNTH_FIELDS if getattr(args, k) is not None}
    names = sorted(presets.ALL_SETTINGS) if args.all else [args.preset]
    for name in names:
        out = f"{args.out.rstrip('/')}/{name}.npz" if args.all else args.out
        trace = synth_trace(presets.spec(name, **overrides))
        stem = os.path.splitext(os.path.basename(out))[0]
        save_trace(out, trace.ids, trace.weights, {**trace.meta, "name": stem, "preset": name}, trace.pred)
        extra = "" if trace.pred is None else " with pred"
        print(f"wrote {out}: {trace.n_tokens} tokens x {trace.n_layers} layers x k={trace.k} "
              f"of {trace.n_expert}{extra}")
    return 0


def _run_stats(args) -> int:
    from tools.residency_sim.predictors import prediction_accuracy
    from tools.residency_sim.synth import reuse_stats
    from engine.residency.trace import load_trace

    for path in args.traces:
        trace = load_trace(path)
        extra = {} if trace.pred is None else {"pred_accuracy": prediction_accuracy(trace.ids, trace.pred)}
        print(path, json.dumps({"tokens": trace.n_tokens, "layers": trace.n_layers, "k": trace.k,
                                "n_expert": trace.n_expert, **reuse_stats(trace.ids), **extra}))
    return 0


def _run_convert(args) -> int:
    from tools.residency_sim.logs import read_routing_log
    from engine.residency.trace import save_trace

    trace = read_routing_log(args.log, args.n_expert, args.model)
    save_trace(args.out, trace.ids, trace.weights, trace.meta)
    print(f"wrote {args.out}: {trace.n_tokens} tokens x {trace.n_layers} layers x k={trace.k}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
