"""A prompt of 64 tokens, then replayed decode steps, through the slot cache with the reference
model's architecture, in a process of its own.

``python -m tests.support.long_prompt_child MODEL`` with ``LLAMA_CPP_LIB_PATH`` naming a back-end
variant (tests/engine/test_vulkan_device_path.py: the Vulkan one on lavapipe) or none (the CPU
build). Two crashes on the Qwen3.6 shape with the slots on the device (lavapipe, segfault in its
queue thread): from 32 tokens a batch's CPU-resident experts are offloaded to the device, and the
prompt's routing record once put a CPU node into that graph (every run); and routing replayed
from a trace (the GPU check) switched on at the first step, after graphs had run (2 runs in 3):
that re-reserve left lavapipe reading freed buffers until patch 0006
(tests/engine/test_vulkan_rereserve.py), so the replay here starts after the prompt. Prints one
JSON line: where the slot banks are, the routing recorded for the warm start
``[tokens][layers][k]``, and the routing the replayed steps recorded.
"""

from __future__ import annotations

import json
import sys

import numpy as np

PROMPT_TOKENS = 64
REPLAY_STEPS = 4


def replayed_routing(steps: int, layers: int, k: int, n_expert: int) -> np.ndarray:
    """[steps, layers, k]: k distinct experts per layer, different at every step."""
    rows = np.arange(k)[None, None, :] + np.arange(layers)[None, :, None] + k * np.arange(steps)[:, None, None]
    return (rows % n_expert).astype(np.int32)


def main(argv: list[str]) -> int:
    from engine.model.inspect_gguf import inspect_model
    from engine.native import backends
    from engine.runtime.llama_model import NativeModel, Sampling
    from tests.support.device_path_child import recipe
    from tools.routing_replay import RoutingReplay

    path = argv[0]
    facts = inspect_model(path)
    choice = backends.select()
    model = NativeModel(path, recipe(facts.n_layers, facts.n_expert // 2))
    try:
        cache = model.slot_cache
        assert cache is not None
        replay = replayed_routing(REPLAY_STEPS, len(cache.layers), facts.n_expert_used, facts.n_expert)
        cache.prompt_log = []
        model.set_sampling(Sampling(temperature=0))
        model.decode(list(range(100, 100 + PROMPT_TOKENS)))
        model.after_prompt()
        RoutingReplay(model, replay).start()  # the first step re-reserves, after the prompt ran
        for _ in range(REPLAY_STEPS):
            model.decode([model.sample()], step=True)
        routing = cache.prompt_log[0] if cache.prompt_log else None
        print(json.dumps({"variant": choice.variant.name, "banks_on_device": model.slot_banks_on_gpu,
                          "n_expert": facts.n_expert, "replayed": replay.tolist(),
                          "steps": cache.totals.steps,
                          "routing": routing.tolist() if routing is not None else None}), flush=True)
    finally:
        model.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
