"""Engine benchmarks: ratios measured in one run on this machine (absolute times are noisy).

1. Writing speed through the engine thread vs plain llama-cpp-python (``Llama``) on the
   same fixture, threads and prompt. Target: ratio >= 0.97.
2. Writing speed with the routing record on (recorder installed, ids copied every token)
   vs off (the model loaded without a recorder). Target: ratio >= 0.90.

Runs alternate between the sides several times, in an order rotated every round, and
compare them pairwise (the median of per-round ratios), so that a slow moment of the machine or a position in the order hits
every side alike. Two clocks: the wall clock, and the CPU time of the thread that computes
(one ggml thread computes in the calling thread: the engine thread for the engine, this
thread for plain llama-cpp-python), read at the first and the last token. On a busy shared
2-core machine the wall clock counts the time another process held the core, which moves
the wall-clock ratio by ±10%; the verdicts use the CPU clock, and the wall clock is printed
as information. Ten runs each on the busy 2-core machine (five helpers and a build sharing
it), 9 rounds of 192 tokens: CPU clock XXX (wall clock XXX).
Usage: python bench/bench_engine.py [--rounds 5] [--tokens 96]
"""

from __future__ import annotations

import argparse
import pathlib
import queue
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.api import (ChatMessage, ChatRequest, LoadRequest, RequestFailed,  # noqa: E402
                        RequestFinished, StepRecord)
from engine.demo.tiny_moe import SPECS, write_tiny_moe  # noqa: E402
from engine.recipe import MemoryEstimate, Recipe  # noqa: E402
from engine.runtime.service import EngineService  # noqa: E402
from bench.verdict import Verdicts  # noqa: E402

PROMPT = (ChatMessage("user", "Summarise the document for the question and the answer, "
                              "the model and the expert."),)


def bench_recipe(threads: int) -> Recipe:
    return Recipe(preset="bench", n_gpu_layers=0, cpu_expert_layers=(), n_ctx=1024,
                  flash_attn=True, kv_type="f16", n_batch=256, n_ubatch=256, n_threads=threads,
                  n_threads_batch=threads, vram=MemoryEstimate(), ram=MemoryEstimate())


class EngineSide:
    """The engine thread, driven exactly as the app drives it."""

    def __init__(self, path: pathlib.Path, recipe: Recipe, record_routing: bool = True) -> None:
        self.events: queue.Queue = queue.Queue()
        self.stamps: list[tuple[float, float]] = []   # (wall, engine thread's CPU) per token
        self.service = EngineService(self._listen)
        self.service.load(LoadRequest(model_path=str(path), recipe=recipe,
                                      record_routing=record_routing))
        self._wait()

    def _listen(self, event) -> None:
        """Called on the engine thread: both clocks (its own CPU clock) as each token is sent."""
        if isinstance(event, StepRecord):
            self.stamps.append((time.perf_counter(), time.thread_time()))
        self.events.put(event)

    def decode_tps(self, tokens: int, record_routing: bool) -> tuple[float, float]:
        """(wall, CPU) decode tokens/s from the first token sent to the last (the first pays
        for the prompt), as the plain side counts them."""
        # A fresh context each round, so that both sides read the whole prompt.
        self.service.model.loaded.native.reuse_prefix([-1, -1])
        self.stamps = []
        self.service.chat(ChatRequest(messages=PROMPT, max_tokens=tokens, temperature=0,
                                      record_routing=record_routing))
        self._wait()
        if len(self.stamps) < 2:
            return 0.0, 0.0
        (wall0, cpu0), (wall1, cpu1) = self.stamps[0], self.stamps[-1]
        n = len(self.stamps) - 1
        return n / max(wall1 - wall0, 1e-9), n / max(cpu1 - cpu0, 1e-9)

    def _wait(self):
        while True:
            event = self.events.get(timeout=600)
            if isinstance(event, RequestFailed):
                raise SystemExit(f"engine failed: {event.error} {event.error.details}")
            if type(event).__name__ in ("ModelLoaded",) or isinstance(event, RequestFinished):
                return event

    def close(self) -> None:
        self.service.shutdown()


class PlainSide:
    """llama-cpp-python's own facade with the same settings, streaming a completion."""

    def __init__(self, path: pathlib.Path, threads: int, prompt_text: str) -> None:
        from llama_cpp import Llama

        recipe = bench_recipe(threads)
        self.llama = Llama(model_path=str(path), n_gpu_layers=0, n_ctx=recipe.n_ctx,
                           n_batch=recipe.n_batch, n_ubatch=recipe.n_ubatch, n_threads=threads,
                           n_threads_batch=threads, flash_attn=True, verbose=False)
        self.prompt_text = prompt_text

    def decode_tps(self, tokens: int) -> tuple[float, float]:
        """(wall, CPU) decode tokens/s, the first token excluded (as the engine's)."""
        self.llama.reset()
        prompt = self.llama.tokenize(self.prompt_text.encode(), add_bos=False, special=True)
        first, count = None, 0
        for token in self.llama.generate(prompt, temp=0, top_k=1):
            count += 1
            if first is None:
                first = (time.perf_counter(), time.thread_time())
            if count >= tokens or token == self.llama.token_eos():
                break
        if first is None or count < 2:
            return 0.0, 0.0
        return ((count - 1) / (time.perf_counter() - first[0]),
                (count - 1) / max(time.thread_time() - first[1], 1e-9))

    def close(self) -> None:
        self.llama.close()


def median_ratio(a: list[float], b: list[float]) -> float:
    """Median of the per-round ratios: both sides of a round ran moments apart, so a slow
    spell of the machine (speeds drift by ±15% here) cancels out within each pair."""
    return statistics.median(x / y for x, y in zip(a, b))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tokens", type=int, default=192)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = write_tiny_moe(pathlib.Path(folder) / "bench-moe.gguf", "bench")
        spec = SPECS["bench"]
        print(f"fixture: {path.stat().st_size / 1e6:.0f} MB, {spec.n_layer} layers, "
              f"{spec.n_expert} experts top-{spec.n_expert_used}, threads={args.threads}")
        # Two engines, as the app would load them: without the routing recorder (no cb_eval
        # in the context at all) and with it.
        engine = EngineSide(path, bench_recipe(args.threads), record_routing=False)
        recording = EngineSide(path, bench_recipe(args.threads), record_routing=True)
        from engine.runtime.generate import render_chat

        plain = PlainSide(path, args.threads, render_chat(engine.service.model.loaded.native, PROMPT))
        results = {"engine": [], "plain": [], "routing_on": []}
        measure = {
            "plain": lambda: plain.decode_tps(args.tokens),
            "engine": lambda: engine.decode_tps(args.tokens, record_routing=False),
            "routing_on": lambda: recording.decode_tps(args.tokens, record_routing=True),
        }
        for round_index in range(args.rounds):
            # Rotate the order each round: whichever runs right after another side pays for
            # the switch (caches, page faults), so no side may always go first or second.
            names = list(measure)
            shift = round_index % len(names)
            for name in names[shift:] + names[:shift]:
                results[name].append(measure[name]())
        plain.close()
        engine.close()
        recording.close()
    return report(results)


def report(results: dict[str, list[tuple[float, float]]]) -> int:
    """Medians per side on both clocks; the gates on the CPU clock, the wall clock printed."""
    for name, values in results.items():
        for index, clock in enumerate(("wall", "CPU")):
            speeds = [v[index] for v in values]
            print(f"{name:>12}: median {statistics.median(speeds):8.1f} tok/s on the {clock} clock "
                  f"(runs: {', '.join(f'{v:.0f}' for v in speeds)})")
    verdicts = Verdicts()
    for label, side, other, target, fail_at in (
            ("engine / plain llama-cpp-python, decode tokens/s", "engine", "plain", 0.97, 0.85),
            ("routing record on / off, decode tokens/s", "routing_on", "engine", 0.90, 0.80)):
        wall = median_ratio([v[0] for v in results[side]], [v[0] for v in results[other]])
        cpu = median_ratio([v[1] for v in results[side]], [v[1] for v in results[other]])
        verdicts.info(f"{label}, wall clock", wall)
        verdicts.check(f"{label} per CPU second", cpu, target=target, fail_at=fail_at)
    return verdicts.exit_code()


if __name__ == "__main__":
    sys.exit(main())
