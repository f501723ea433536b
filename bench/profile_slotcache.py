"""Where a decode token's time goes with the slot cache, per side of bench_slotcache.py.

Per decode step (this thread's CPU time, the fixture and sides of bench_slotcache.py):
llama_decode (the graph), and inside SlotCache.after_token the policy calls and each
native call (read_routing, upload, stage, commit). The rest of after_token is the driver's
own Python. Instrumented: every timer adds about a microsecond, so the parts are upper
bounds; bench_slotcache.py gives the uninstrumented ratios. A diagnostic, not a verdict.
Usage: python bench/profile_slotcache.py [--rounds 6] [--tokens 48] [--slots 16]
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import pathlib
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_engine import PROMPT, bench_recipe  # noqa: E402
from engine.demo.tiny_moe import SPECS, write_tiny_moe  # noqa: E402
from engine.residency.policy import Snapshot  # noqa: E402
from engine.runtime.generation.generate import stream_generate  # noqa: E402
from engine.runtime.llama_model import NativeModel, Sampling  # noqa: E402

clock = time.thread_time


def timed(function, seconds: dict, name: str, when=lambda *args: True):
    def wrapper(*args):
        start = clock()
        result = function(*args)
        if when(*args):
            seconds[name] += clock() - start
            seconds[name + " calls"] += 1
        return result
    return wrapper


class _Timed:
    """Stands in for a ctypes library or module: the named functions are timed."""

    def __init__(self, target, seconds: dict, names, when=lambda *args: True) -> None:
        self._target = target
        for name in names:
            setattr(self, name, timed(getattr(target, name), seconds, name, when))

    def __getattr__(self, name):
        return getattr(self._target, name)


def instrument(model: NativeModel, seconds: dict) -> None:
    one_token = lambda ctx, batch: batch.n_tokens == 1   # noqa: E731 - decode steps only
    model._llama = _Timed(model._llama, seconds, ["llama_decode"], one_token)
    cache = model.slot_cache
    if cache is None:
        return
    cache._api = _Timed(cache._api, seconds, [f"llama_slot_cache_{n}" for n in
                                              ("read_routing", "upload", "stage", "commit")])
    cache.policy.after_token = timed(cache.policy.after_token, seconds, "policy.after_token")
    cache.after_token = timed(cache.after_token, seconds, "SlotCache.after_token")


def answer(model: NativeModel, tokens: int) -> None:
    model.reuse_prefix([-1, -1])
    for _ in stream_generate(model, PROMPT, max_tokens=tokens, sampling=Sampling(temperature=0)):
        pass


def recipes(slots: int) -> dict:
    spec, stock = SPECS["bench"], bench_recipe(1)
    out = {"off": stock}
    for policy in ("lru", "rotary"):
        out[policy] = dataclasses.replace(stock, expert_slots=(slots,) * spec.n_layer,
                                          residency_policy=policy)
    out["all-hit"] = dataclasses.replace(stock, expert_slots=(spec.n_expert,) * spec.n_layer,
                                         residency_policy="lru")
    out["all-miss"] = dataclasses.replace(out["lru"], upload_cap=0)
    return out


def report(name: str, seconds: dict) -> None:
    steps = seconds["llama_decode calls"]
    print(f"== {name}: {steps} decode steps, microseconds per token (CPU time, instrumented)")
    for part in sorted(k for k in seconds if not k.endswith(" calls")):
        print(f"   {part:32s} {1e6 * seconds[part] / steps:8.1f}")
    if seconds["policy.after_token calls"]:
        per_layer = seconds["policy.after_token"] / seconds["policy.after_token calls"]
        print(f"   policy per layer call            {1e6 * per_layer:8.1f}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--tokens", type=int, default=48)
    parser.add_argument("--slots", type=int, default=16)
    args = parser.parse_args()
    spec = SPECS["bench"]
    seconds = {}
    with tempfile.TemporaryDirectory() as folder:
        path = write_tiny_moe(pathlib.Path(folder) / "bench-moe.gguf", "bench")
        models = {name: NativeModel(str(path), r) for name, r in recipes(args.slots).items()}
        models["all-hit"].slot_cache.restore(Snapshot([list(range(spec.n_expert))] * spec.n_layer))
        try:
            for name, model in models.items():
                answer(model, 8)                               # warm up, untimed
                seconds[name] = collections.defaultdict(float)
                instrument(model, seconds[name])
            for _ in range(args.rounds):
                for model in models.values():
                    answer(model, args.tokens)
        finally:
            for model in models.values():
                model.close()
    for name, part in seconds.items():
        report(name, part)
    return 0


if __name__ == "__main__":
    sys.exit(main())
