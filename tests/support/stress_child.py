"""Conversation life on one back-end, in a process of its own (tests/engine/test_device_stress.py).

``python -m tests.support.stress_child MODEL`` reads one sequence per line on stdin (JSON: a list
of turns) and answers each with one line ``@@ {json}`` on stdout (llama.cpp may print too).
Which build runs is the environment's choice (``LLAMA_CPP_LIB_PATH``, ``GGML_VK_VISIBLE_DEVICES``
as in tests/support/device_path_child.py). Each sequence loads the model afresh (the slot layout:
all layers on the device, every layer's routed experts in slots, as the device-path test), so a
sequence's result depends on that sequence alone: a failing case replays by itself.

A turn: ``{"conv": c, "length": n, "seed": s, "answer": m, "stop": null | ["prompt", j] |
["answer", k]}``: the user says n words (MERGE_WORDS drawn by ``random.Random(s)``, about a
token each) in conversation c through the engine's chat path (LoadedModel.start_chat: the slot cache switches
to the conversation, the prompt is read in batches after the cached prefix, the warm start
runs, then greedy tokens); Stop is pressed after the prompt's j-th batch check or after the
answer's k-th token. The assistant's turn kept in the history is the answer text itself.
``"reload": [n_ctx, n_batch]`` (optional): before the turn the model is closed and loaded again
with that context size and batch (the counters are summed over the loads).
"""

from __future__ import annotations

import collections
import json
import random
import sys
import threading
import time

import numpy as np

SLOTS = 3        # of 8 experts per layer: hits and misses both happen
# Prompt batches of 16 tokens: Stop can land between them. Batches of 64 (a reload's) used to
# crash lavapipe in this layout, slot cache or not, within a few hundred prompt tokens (4 runs
# of 5 on one 219-word prompt): ggml-vulkan's reused descriptor sets kept freed buffers in
# bindings lavapipe reads; patch 0006 fills them (0 of 4 since).
N_BATCH = 16
N_CTX = 512


class StopAfter(threading.Event):
    """Stop pressed after the ``checks``-th look at it (the engine looks once per prompt batch,
    then once per token): deterministic, the same on both builds."""

    def __init__(self, checks: int | None) -> None:
        super().__init__()
        self.left = checks

    def is_set(self) -> bool:
        if self.left is not None:
            if self.left <= 0:
                self.set()
            self.left -= 1
        return super().is_set()


def load(path: str, n_ctx: int = N_CTX, n_batch: int = N_BATCH):
    from engine.api import LoadRequest
    from engine.model.inspect_gguf import inspect_model
    from engine.runtime.loader import load_with_fallback
    from tests.conftest import make_cpu_recipe

    layers = inspect_model(path).n_layers
    recipe = make_cpu_recipe(n_gpu_layers=-1, cpu_expert_layers=tuple(range(layers)),
                             expert_slots=(SLOTS,) * layers, residency_policy="lru",
                             use_mmap=False, n_ctx=n_ctx, n_batch=n_batch, n_ubatch=n_batch)
    return load_with_fallback(LoadRequest(path, recipe=recipe), lambda *_: None,
                              lambda *_: None)


def turn(loaded, history: list, spec: dict) -> dict:
    """One user turn; returns the answer's tokens and each token's top-1 margin (logits)."""
    from engine.api import ChatMessage, ChatRequest
    from engine.demo.tiny_moe import MERGE_WORDS
    from engine.runtime.bindings import llama_cpp_module

    llama = llama_cpp_module()
    text = " ".join(random.Random(spec["seed"]).choices(MERGE_WORDS, k=spec["length"]))
    history.append(ChatMessage("user", text))
    stop_kind, stop_at = spec["stop"] or (None, None)
    stop = StopAfter(stop_at if stop_kind == "prompt" else None)
    request = ChatRequest(tuple(history), max_tokens=spec["answer"], temperature=0.0,
                          conversation_id=spec["conv"], stop_loops=False, record_routing=False)
    run = loaded.start_chat(request, stop)
    native = loaded.native
    tokens, margins, pieces = [], [], []
    for record in run.records():
        row = np.ctypeslib.as_array(llama.llama_get_logits_ith(native.ctx.ctx, -1),
                                    shape=(native.n_vocab,))
        top = np.partition(row, -2)[-2:]
        tokens.append(int(record.token))
        margins.append(float(top[1] - top[0]))
        pieces.append(record.text)
        if stop_kind == "answer" and len(tokens) >= stop_at:
            stop.set()
    history.append(ChatMessage("assistant", "".join(pieces)))
    return {"tokens": tokens, "margins": margins, "reason": str(run.state.stop_reason),
            "context": len(native.tokens)}


def sequence(path: str, turns: list[dict]) -> dict:
    started = time.perf_counter()
    loaded = load(path)
    loaded_s = time.perf_counter() - started
    histories: dict[int, list] = {}
    answers, counters = [], collections.Counter()
    try:
        for spec in turns:
            if spec.get("reload"):
                # another context size and batch in the same process: the new context reserves
                # its graphs while the old one's buffers are gone; the history is read again
                counters.update(loaded.native.slot_cache.counters())
                loaded.close()
                loaded = None
                loaded = load(path, *spec["reload"])
            answers.append(turn(loaded, histories.setdefault(spec["conv"], []), spec))
        counters.update(loaded.native.slot_cache.counters())
    finally:
        if loaded is not None:
            loaded.close()
    return {"answers": answers, "counters": dict(counters), "load_s": round(loaded_s, 2),
            "run_s": round(time.perf_counter() - started - loaded_s, 2)}


def main(argv: list[str]) -> int:
    from engine.native import backends

    choice = backends.select()
    print("@@ " + json.dumps({"device": choice.device_name, "variant": choice.variant.name}),
          flush=True)
    for line in sys.stdin:
        if line.strip():
            print("@@ " + json.dumps(sequence(argv[0], json.loads(line))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
