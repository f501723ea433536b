"""Slot-cache overhead on the CPU build: decode tokens/s with the cache on ÷ off, one run.

Without a GPU nothing can get faster: the banks are a second CPU buffer and every routed
expert is still computed by the CPU, from a slot or from the original weights. What this
bounds is the price of the cached graph (two half-chains and an add per matmul, the table
lookups, the routing copy) plus the Python policy step after every token. Both sides run
through the engine thread on the same fixture, alternating rounds, compared pairwise.
Target >= 0.90; below 0.80 the benchmark fails. Also prints the hit rate and uploads.
Usage: python bench/bench_slotcache.py [--rounds 5] [--tokens 192] [--slots 16]
"""

from __future__ import annotations

import argparse
import dataclasses
import pathlib
import statistics
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_engine import EngineSide, bench_recipe, median_ratio  # noqa: E402
from bench.verdict import Verdicts  # noqa: E402
from engine.fixtures.tiny_moe import SPECS, write_tiny_moe  # noqa: E402
from engine.runtime import slot_cache  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tokens", type=int, default=192)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--slots", type=int, default=16, help="slots per layer (of 32 experts)")
    parser.add_argument("--policy", default="rotary")
    args = parser.parse_args()
    if not slot_cache.available():
        print(slot_cache.STOCK_MESSAGE)
        print("FAILED: the installed llama-cpp-python has no slot cache (run bootstrap.py)")
        return 1
    spec = SPECS["bench"]
    stock = bench_recipe(args.threads)
    cached = dataclasses.replace(stock, expert_slots=(args.slots,) * spec.n_layer,
                                 residency_policy=args.policy)
    with tempfile.TemporaryDirectory() as folder:
        path = write_tiny_moe(pathlib.Path(folder) / "bench-moe.gguf", "bench")
        print(f"fixture: {spec.n_layer} layers, {spec.n_expert} experts top-{spec.n_expert_used}, "
              f"{args.slots} slots per layer, policy {args.policy}, threads={args.threads}")
        sides = {"off": EngineSide(path, stock, record_routing=False),
                 "on": EngineSide(path, cached, record_routing=False)}
        results = {name: [] for name in sides}
        for round_index in range(args.rounds):
            order = list(sides) if round_index % 2 == 0 else list(reversed(sides))
            for name in order:
                results[name].append(sides[name].decode_tps(args.tokens, record_routing=False))
        totals = sides["on"].service.worker.loaded.native.slot_cache.totals
        for side in sides.values():
            side.close()
    for name, values in results.items():
        print(f"cache {name:>3}: median {statistics.median(values):8.1f} tok/s  "
              f"(runs: {', '.join(f'{v:.0f}' for v in values)})")
    print(f"cache on, all rounds: {totals.steps} decode steps, hit rate {totals.hit_rate:.3f}, "
          f"{totals.uploads / max(1, totals.steps):.2f} uploads per token [measured]")
    verdicts = Verdicts()
    verdicts.check("slot cache on / off (CPU build), decode tokens/s",
                   median_ratio(results["on"], results["off"]), target=0.90, fail_at=0.80)
    return verdicts.exit_code()


if __name__ == "__main__":
    sys.exit(main())
