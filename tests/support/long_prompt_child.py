"""A prompt of 64 tokens through the slot cache with the reference model's architecture, in a
process of its own.

``python -m tests.support.long_prompt_child MODEL`` with ``LLAMA_CPP_LIB_PATH`` naming a back-end
variant (tests/engine/test_vulkan_device_path.py: the Vulkan one on lavapipe) or none (the CPU
build). From 32 tokens a batch's CPU-resident experts are offloaded to the device, and the
prompt's routing record once put a CPU node into that graph: Vulkan crashed (segfault in
lavapipe's queue thread) on the Qwen3.6 shape. Prints one JSON line: where the slot banks are,
and the routing recorded for the warm start, ``[tokens][layers][k]``.
"""

from __future__ import annotations

import json
import sys

PROMPT_TOKENS = 64


def main(argv: list[str]) -> int:
    from engine.model.inspect_gguf import inspect_model
    from engine.native import backends
    from engine.runtime.llama_model import NativeModel, Sampling
    from tests.support.device_path_child import recipe

    path = argv[0]
    facts = inspect_model(path)
    choice = backends.select()
    model = NativeModel(path, recipe(facts.n_layers, facts.n_expert // 2))
    try:
        cache = model.slot_cache
        assert cache is not None
        cache.prompt_log = []
        model.set_sampling(Sampling(temperature=0))
        model.decode(list(range(100, 100 + PROMPT_TOKENS)))
        model.after_prompt()
        token = model.sample()
        model.decode([token], step=True)
        routing = cache.prompt_log[0] if cache.prompt_log else None
        print(json.dumps({"variant": choice.variant.name, "banks_on_device": model.slot_banks_on_gpu,
                          "n_expert": facts.n_expert, "first_token": int(token),
                          "routing": routing.tolist() if routing is not None else None}), flush=True)
    finally:
        model.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
