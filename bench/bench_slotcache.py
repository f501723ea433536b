"""Slot-cache overhead on the CPU build: decode tokens/s with the cache on ÷ off, one run.

Without a GPU nothing can get faster: the banks are a second CPU buffer and every routed
expert is still computed by the CPU, from a slot or from the original weights. What this
bounds is the price of the mechanism: the cached graph (two half-chains and an add per
expert matmul, table lookups, the routing copy), the uploads (a memcpy here), and the
policy step after every token (C for rotary, Python for LRU). Sides: cache off, on with LRU,
on with rotary, and two that isolate the mechanism from the uploads: every expert preloaded
(all hits, nothing uploaded) and uploads forbidden (all misses). All loaded at once and
driven through ``stream_generate`` in this thread, in alternating short rounds compared
pairwise. Two clocks: wall time, and this thread's CPU time (ggml runs in this thread with
one thread): on a shared 2-core machine the second is the steadier one, so the verdict uses
it; both are printed. Target >= 0.90 for rotary (issue 9). On this ~2 ms/token F16 fixture
the uploads alone (~2.6 a token, a memcpy of ~0.15 ms) cost ~7%. With the host banks wholly
in 2 MiB pages, 19 single runs (three in CI) gave 0.879-0.963, median 0.929, 16 of them at
least 0.90 (16 runs before that change: 0.877-0.927, median 0.894). CI fails beyond 0.80.
Usage: python bench/bench_slotcache.py [--rounds 30] [--tokens 48] [--slots 16]
"""

from __future__ import annotations

import argparse
import dataclasses
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_engine import PROMPT, bench_recipe  # noqa: E402
from bench.verdict import Verdicts  # noqa: E402
from engine.demo.tiny_moe import SPECS, write_tiny_moe  # noqa: E402
from engine.residency.policy import Snapshot  # noqa: E402
from engine.runtime.experts import slot_cache  # noqa: E402
from engine.runtime.generation.generate import stream_generate  # noqa: E402
from engine.runtime.llama_model import NativeModel, Sampling  # noqa: E402


def tokens_per_s(model: NativeModel, tokens: int) -> tuple[float, float]:
    """(wall, cpu) decode tokens/s of one answer, the first token (prompt) excluded."""
    model.reuse_prefix([-1, -1])    # a fresh context: both sides read the whole prompt
    records = stream_generate(model, PROMPT, max_tokens=tokens, sampling=Sampling(temperature=0))
    next(records)
    wall, cpu, n = time.perf_counter(), time.thread_time(), 0
    for _ in records:
        n += 1
    return n / (time.perf_counter() - wall), n / (time.thread_time() - cpu)


# Noise margin: paired medians moved by ±0.03 run to run on an idle machine, ±0.06 on a busy one.
FAIL_AT = 0.80


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--tokens", type=int, default=48)
    parser.add_argument("--slots", type=int, default=16, help="slots per layer (of 32 experts)")
    args = parser.parse_args()
    if not slot_cache.available():
        print(slot_cache.STOCK_MESSAGE)
        print("FAILED: the installed llama-cpp-python has no slot cache (run bootstrap.py)")
        return 1
    spec, stock = SPECS["bench"], bench_recipe(1)
    recipes = {"off": stock}
    for policy in ("lru", "rotary"):
        recipes[policy] = dataclasses.replace(stock, expert_slots=(args.slots,) * spec.n_layer,
                                              residency_policy=policy)
    recipes["all-hit"] = dataclasses.replace(stock, expert_slots=(spec.n_expert,) * spec.n_layer,
                                             residency_policy="lru")
    recipes["all-miss"] = dataclasses.replace(recipes["lru"], upload_cap=0)
    with tempfile.TemporaryDirectory() as folder:
        path = write_tiny_moe(pathlib.Path(folder) / "bench-moe.gguf", "bench")
        print(f"fixture: {spec.n_layer} layers, {spec.n_expert} experts top-{spec.n_expert_used}, "
              f"{args.slots} slots per layer, 1 thread, {args.rounds} rounds x {args.tokens} tokens")
        models = {name: NativeModel(str(path), recipe) for name, recipe in recipes.items()}
        every = Snapshot([list(range(spec.n_expert))] * spec.n_layer)
        models["all-hit"].slot_cache.restore(every)
        try:
            results = _rounds(models, args)
            totals = {n: m.slot_cache.totals for n, m in models.items() if m.slot_cache}
        finally:
            for model in models.values():
                model.close()
    return _report(results, totals)


def _rounds(models: dict, args) -> dict:
    results = {name: [] for name in models}
    for round_index in range(args.rounds):
        names = list(models)
        shift = round_index % len(names)
        for name in names[shift:] + names[:shift]:
            results[name].append(tokens_per_s(models[name], args.tokens))
    return results


def _report(results: dict, totals: dict) -> int:
    for name, runs in results.items():
        print(f"cache {name:>6}: wall median {statistics.median(w for w, _ in runs):7.1f} tok/s, "
              f"cpu median {statistics.median(c for _, c in runs):7.1f} tok/s")
    for name, t in totals.items():
        print(f"cache {name:>6}: hit rate {t.hit_rate:.3f}, {t.uploads / max(1, t.steps):.2f} "
              f"uploads per token over {t.steps} tokens [measured]")
    verdicts, off = Verdicts(), results["off"]
    for name in ("all-hit", "all-miss", "lru", "rotary"):
        on = results[name]
        wall = statistics.median(a[0] / b[0] for a, b in zip(on, off))
        cpu = statistics.median(a[1] / b[1] for a, b in zip(on, off))
        label = f"slot cache on ({name}) / off (CPU build), decode tokens/s"
        print(f"{label}, wall clock: {wall:.3f} [measured]")
        if name == "rotary":        # the engine's policy: the figure the target is about
            verdicts.check(f"{label} per CPU second", cpu, target=0.90, fail_at=FAIL_AT)
        else:
            print(f"{label} per CPU second: {cpu:.3f} [measured]")
    return verdicts.exit_code()


if __name__ == "__main__":
    sys.exit(main())
