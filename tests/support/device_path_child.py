"""One run of the slot cache's device path, in a process of its own.

``python -m tests.support.device_path_child MODEL OUT_DIR [STEPS]`` with ``LLAMA_CPP_LIB_PATH``
naming a back-end variant's folder (tests/engine/test_vulkan_device_path.py runs it with the
Vulkan variant and ``GGML_VK_VISIBLE_DEVICES=0``; the test process itself already holds the
CPU build, and one process cannot hold two). Everything runs with the slot layout: all layers
on the device, every layer's routed experts in system memory:

1. stock (slots off): greedy tokens and their logits after the prompt;
2. slots on the device, loaded by the engine's loader (the transfer probe's figures land in
   the recipe): the same prompt, the warm start, greedy tokens, logits, native counters;
3. conversations: one, another, back to the first (its experts restored), with the counters
   around each switch.

Writes ``OUT_DIR/logits.npz`` (stock, slots) and prints one JSON line on stdout.
``... MODEL OUT_DIR STEPS slots-only`` runs step 2 alone (no conversations): the ordering
check's mutation run (ROTARY_SLOT_TEST_SKIP_WAIT=1) uses it; ``stock-only`` runs step 1 alone
(the validation layer's reference: one log per process).
"""

from __future__ import annotations

import dataclasses

import json
import sys
import threading
import time
from pathlib import Path

import numpy as np

PROMPT = "hello the model and the expert, and the expert again and the model"
OTHER_PROMPT = "system user assistant: you and the model say hello to the expert"
SLOTS = 3          # of 8 experts per layer: hits and misses both happen
WARM_STEPS = 16    # the native counters are also read here: what is created later is growth


def recipe(layers: int, slots: int, policy: str = "lru"):
    from tests.conftest import make_cpu_recipe

    return make_cpu_recipe(n_gpu_layers=-1, cpu_expert_layers=tuple(range(layers)),
                           expert_slots=(slots,) * layers if slots else (),
                           residency_policy=policy, use_mmap=False)


def greedy(model, steps: int, warm: dict | None = None):
    """Prompt, warm start, then ``steps`` greedy tokens: tokens, logits [steps, vocab], s/token,
    and per step (uploads, hits, host waits) of the slot cache."""
    from engine.runtime.bindings import llama_cpp_module
    from engine.runtime.llama_model import Sampling

    llama = llama_cpp_module()
    model.set_sampling(Sampling(temperature=0))
    model.decode(model.tokenize(PROMPT))
    model.after_prompt()
    tokens, logits, steps_seen = [], [], []
    started = time.perf_counter()
    for step in range(steps):
        if step == WARM_STEPS and warm is not None:
            warm.update(model.slot_cache.counters())
        token = model.sample()
        row = llama.llama_get_logits_ith(model.ctx.ctx, -1)
        logits.append(np.ctypeslib.as_array(row, shape=(model.n_vocab,)).copy())
        tokens.append(int(token))
        model.decode([token], step=True)
        step = model.last_residency
        steps_seen.append((step.uploads, step.hits, step.host_waits) if step is not None
                          else (0, 0, 0))
    return tokens, np.array(logits), (time.perf_counter() - started) / steps, steps_seen


def stock_run(path: str, layers: int, steps: int) -> dict:
    from engine.runtime.llama_model import NativeModel

    model = NativeModel(path, recipe(layers, 0))
    try:
        tokens, logits, per_token, _ = greedy(model, steps)
    finally:
        model.close()
    return {"tokens": tokens, "logits": logits, "tps": 1 / per_token}


def slots_run(path: str, steps: int, slots_only: bool = False) -> dict:
    from engine.api import LoadRequest
    from engine.runtime.loader import load_with_fallback

    from engine.model.inspect_gguf import inspect_model

    layers = inspect_model(path).n_layers
    loaded = load_with_fallback(LoadRequest(path, recipe=recipe(layers, SLOTS)),
                                lambda *_: None, lambda *_: None)
    try:
        cache = loaded.native.slot_cache
        before_prompt = cache.counters()
        loaded.native.decode(loaded.native.tokenize(PROMPT))
        warm_bytes = cache.warm_start()
        after_warm = cache.counters()
        loaded.native.ctx.kv_cache_clear()        # start over: the greedy run reads it again
        loaded.native.tokens = []
        warm: dict = {}
        tokens, logits, per_token, steps_seen = greedy(loaded.native, steps, warm)
        result = {"tokens": tokens, "logits": logits, "tps": 1 / per_token,
                  "steps": steps_seen, "counters": cache.counters(),
                  "warm_counters": warm,
                  "before_prompt": before_prompt, "after_warm": after_warm,
                  "warm_bytes": warm_bytes, "transfer": _transfer(cache),
                  "upload_cap": cache.policy.upload_cap,
                  "placement": _placement(loaded.placement)}
        if not slots_only:
            result["conversations"] = conversations(loaded)
    finally:
        loaded.close()
    return result


def _placement(placement) -> dict:
    gpu = placement.gpu
    return {"backend": placement.backend, "summary": str(placement.message),
            "gpu": None if gpu is None else {"device": gpu.device, "description": gpu.description,
                                             "model_bytes": gpu.model_bytes,
                                             "slot_bytes": gpu.slot_bytes},
            "ram_slot_bytes": placement.ram.slot_bytes}


def conversations(loaded) -> dict:
    """Conversation 1, conversation 2, back to 1: what was resident and what moved."""
    from engine.api import ChatMessage, ChatRequest

    cache = loaded.native.slot_cache

    def chat(conversation: int, prompt: str):
        request = ChatRequest((ChatMessage("user", prompt),), max_tokens=6, temperature=0.0,
                              conversation_id=conversation)
        run = loaded.start_chat(request, threading.Event())
        for _ in run.records():
            pass

    chat(1, PROMPT)
    first = [list(row) for row in cache.resident()]
    chat(2, OTHER_PROMPT)
    second = [list(row) for row in cache.resident()]
    before = cache.counters()
    restored = cache.switch_conversation(1)
    return {"first": first, "second": second, "restored": [list(r) for r in cache.resident()],
            "restored_bytes": restored, "before_switch": before, "after_switch": cache.counters()}


def _transfer(cache) -> dict | None:
    """The upload rule measured at load; it lives in the slot cache (engine chat --json)."""
    rule = cache.transfer
    return None if rule is None else dict(dataclasses.asdict(rule), reason=str(rule.reason))


def main(argv: list[str]) -> int:
    from engine.model.inspect_gguf import inspect_model
    from engine.native import backends

    path, out = argv[0], Path(argv[1])
    steps = int(argv[2]) if len(argv) > 2 else 48
    started = time.perf_counter()
    choice = backends.select()
    if len(argv) > 3 and argv[3] in ("slots-only", "stock-only"):
        if argv[3] == "slots-only":
            run = {"slots": slots_run(path, steps, slots_only=True)}
        else:
            run = {"stock": stock_run(path, inspect_model(path).n_layers, steps)}
        next(iter(run.values())).pop("logits")
        print(json.dumps({"device": choice.device_name, "variant": choice.variant.name, **run,
                          "total_s": round(time.perf_counter() - started, 2)}), flush=True)
        return 0
    stock = stock_run(path, inspect_model(path).n_layers, steps)
    stock_s = time.perf_counter() - started
    slots = slots_run(path, steps)
    np.savez(out / "logits.npz", stock=stock.pop("logits"), slots=slots.pop("logits"))
    print(json.dumps({"device": choice.device_name, "variant": choice.variant.name,
                      "stock": stock, "slots": slots, "first_run_s": round(stock_s, 2),
                      "total_s": round(time.perf_counter() - started, 2)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
