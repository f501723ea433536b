"""Route a model's decode steps from a recorded trace: benchmarks of the slot cache on real routing.

``python -m engine trace`` records which experts a model chose for each token; replaying those
ids through the slot cache (``force_routing``) measures a residency policy or a device on that
routing, whatever the weights would choose (random test weights, another quantisation).

    python -m tools.routing_replay TRACE.npz MODEL.gguf --slots 16 --json

runs ``python -m engine chat`` (same options after the trace) with every decode step replayed.
bench/gpu_slotcache_run.py uses ``RoutingReplay`` on a NativeModel directly.
"""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

import numpy as np

from engine.cli import main as engine_cli
from engine.residency.trace import load_trace
from engine.runtime.llama_model import NativeModel


class ReplayError(ValueError):
    """The model cannot replay this trace (no slot cache, other layers or k)."""


class RoutingReplay:
    """Decode steps of ``model`` routed from ``ids`` [tokens, cached layers, k], cycled."""

    def __init__(self, model: NativeModel, ids: np.ndarray) -> None:
        if model.slot_cache is None:
            raise ReplayError("routing can only be replayed with the expert slot cache "
                              "(single experts kept on the graphics card)")
        self.model, self.ids, self.at = model, np.asarray(ids, dtype=np.int32), 0
        self.cache = model.slot_cache

    def start(self) -> RoutingReplay:
        """Route from the next decode step on; any time, also mid-conversation."""
        # Forced routing changes the decode graph: llama.cpp reserves its graphs again at that
        # step (on lavapipe this crashed until patch 0006; tests/engine/test_vulkan_rereserve.py).
        self.model.before_step = self._step
        return self

    def _step(self) -> None:
        self.cache.force_routing(self.ids[self.at % len(self.ids)])
        self.at += 1

    def stop(self) -> None:
        """The router chooses again from the next decode on."""
        self.model.before_step = None
        self.cache.force_routing(None)


def cached_columns(trace_layers: Sequence[int], trace_k: int, cache) -> list[int]:
    """The trace's columns of the cache's layers, in the cache's order."""
    missing = [layer for layer in cache.layers if layer not in trace_layers]
    if missing or trace_k != cache.k:
        raise ReplayError(f"the trace does not match the model's expert layers: trace layers "
                          f"{list(trace_layers)}, k {trace_k}; cached {cache.layers}, k {cache.k}")
    return [list(trace_layers).index(layer) for layer in cache.layers]


def replay_trace(loaded, path: str) -> RoutingReplay:
    """Replay the trace in ``path`` on a loaded model (engine.runtime.loader.LoadedModel)."""
    trace = load_trace(path)
    if loaded.native.slot_cache is None:
        raise ReplayError("routing can only be replayed with the expert slot cache (--slots N)")
    layers = list(trace.meta.get("layers", loaded.facts.moe_layers))
    columns = cached_columns(layers, trace.k, loaded.native.slot_cache)
    return RoutingReplay(loaded.native, trace.ids[:, columns, :]).start()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.routing_replay",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("trace", help="a routing trace from `python -m engine trace`")
    known, chat_options = parser.parse_known_args(argv)
    args = engine_cli.build_parser().parse_args(["chat", *chat_options])
    args.prepare = [lambda loaded: replay_trace(loaded, known.trace)]
    try:
        return engine_cli.run(args)
    except ReplayError as error:
        print(error, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
