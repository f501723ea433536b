"""Graph re-reserves in the middle of a conversation, on one back-end, in a process of its own
(tests/engine/test_vulkan_rereserve.py).

``python -m tests.support.rereserve_child MODEL CASE [CASE ...]`` runs each case on a freshly
loaded model (the slot layout of tests/support/stress_child.py: all layers on the device, every
layer's routed experts in slots) and prints one line ``@@ {json}`` per case. The build is the
environment's choice (``LLAMA_CPP_LIB_PATH``, ``GGML_VK_VISIBLE_DEVICES``). Cases:

- ``force``: forced routing (trace replay) switched on after a prompt and decoded tokens, then
  off again: each switch changes the decode graph and llama.cpp reserves its graphs again;
- ``batch``: a prompt in batches of 16, then 240 tokens in batches of 64 (from 32 tokens
  ggml-vulkan also takes the CPU experts' matmuls, so the graph's split between the back-ends
  changes and ggml's scheduler reserves again), then a batch of 5, each followed by tokens;
- ``reload``: the model closed and loaded again with another context size in the same process,
  the conversation read again and continued;
- ``switch``: a 200-word prompt (~240 tokens) in one conversation, a turn in another, then back
  to the first (the engine's chat path: the slot cache switches conversations).

Each case answers its decoded tokens in segments (one per prompt or switch), each token's top-1
margin (logits), the slot cache's counters (one entry per load) and ``reserves``: how often
llama.cpp logged "sched_reserve: reserving" after the first load.
"""

from __future__ import annotations

import json
import random
import sys
import time

import numpy as np

N_CTX = 512
OTHER_N_CTX = 1024     # the reload's context size
N_BATCH = 64           # the batch case's long prompt; the others go in batches of 16
SMALL_BATCH = 16
STEPS = 4              # decoded tokens per segment
LONG_TOKENS = 240      # the batch case's long prompt


def words(seed: int, n: int) -> str:
    """n words of the test vocabulary (seeds chosen so that no top-1 margin is a near-tie on
    tests/engine/test_vulkan_device_path.py's model)."""
    from engine.demo.tiny_moe import MERGE_WORDS

    return " ".join(random.Random(seed).choices(MERGE_WORDS, k=n))


def load(path: str, n_ctx: int = N_CTX):
    from engine.api import LoadRequest
    from engine.model.inspect_gguf import inspect_model
    from engine.runtime.loader import load_with_fallback
    from tests.conftest import make_cpu_recipe

    facts = inspect_model(path)
    slots = max(facts.n_expert_used + 1, facts.n_expert // 3)   # hits and misses both happen
    recipe = make_cpu_recipe(n_gpu_layers=-1, cpu_expert_layers=tuple(range(facts.n_layers)),
                             expert_slots=(slots,) * facts.n_layers, residency_policy="lru",
                             use_mmap=False, n_ctx=n_ctx, n_batch=N_BATCH, n_ubatch=N_BATCH)
    return load_with_fallback(LoadRequest(path, recipe=recipe), lambda *_: None,
                              lambda *_: None)


class Conversation:
    """Greedy decoding on a NativeModel, kept as segments of tokens and their margins."""

    def __init__(self, loaded) -> None:
        self.segments: list[dict] = []
        self.counters: list[dict] = []
        self.use(loaded)

    def use(self, loaded) -> None:
        from engine.runtime.llama_model import Sampling

        self.loaded, self.native = loaded, loaded.native
        self.native.set_sampling(Sampling(temperature=0))

    def prompt(self, tokens: list[int], batch: int = SMALL_BATCH) -> None:
        for at in range(0, len(tokens), batch):
            self.native.decode(tokens[at:at + batch])
        self.native.after_prompt()

    def steps(self, n: int = STEPS) -> None:
        from engine.runtime.bindings import llama_cpp_module

        llama, native = llama_cpp_module(), self.native
        segment: dict = {"tokens": [], "margins": []}
        for _ in range(n):
            row = np.ctypeslib.as_array(llama.llama_get_logits_ith(native.ctx.ctx, -1),
                                        shape=(native.n_vocab,))
            top = np.partition(row, -2)[-2:]
            token = native.sample()
            segment["tokens"].append(int(token))
            segment["margins"].append(float(top[1] - top[0]))
            native.decode([token], step=True)
        self.segments.append(segment)

    def close(self) -> None:
        self.counters.append(self.native.slot_cache.counters())
        self.loaded.close()


def case_force(path: str, chat: Conversation) -> None:
    from tests.support.long_prompt_child import replayed_routing
    from tools.routing_replay import RoutingReplay

    chat.prompt(chat.native.tokenize(words(80, 40))[:SMALL_BATCH])   # one batch
    chat.steps()
    cache = chat.native.slot_cache
    facts = chat.loaded.facts
    replay = RoutingReplay(chat.native, replayed_routing(
        2 * STEPS, len(cache.layers), facts.n_expert_used, facts.n_expert)).start()
    chat.steps()            # the first forced step reserves the graphs again
    replay.stop()
    chat.steps()            # and the first routed one again


def case_batch(path: str, chat: Conversation) -> None:
    chat.prompt(chat.native.tokenize(words(2, 40)))
    chat.steps()
    chat.prompt(chat.native.tokenize(words(3, 240))[:LONG_TOKENS], batch=N_BATCH)
    chat.steps()
    chat.prompt(chat.native.tokenize(words(4, 5))[:5], batch=5)
    chat.steps()


def case_reload(path: str, chat: Conversation) -> None:
    chat.prompt(chat.native.tokenize(words(54, 40)))
    chat.steps()
    history = list(chat.native.tokens)
    chat.close()
    chat.use(load(path, OTHER_N_CTX))
    chat.prompt(history)
    chat.steps()


def case_switch(path: str, chat: Conversation) -> None:
    chat_turns(chat, ((1, 200, 138), (2, 20, 139), (1, 10, 140)))


def chat_turns(chat: Conversation, turns) -> None:
    """(conversation, words, seed) turns through the engine's chat path, STEPS tokens each."""
    from tests.support.stress_child import turn

    histories: dict[int, list] = {}
    for conv, length, seed in turns:
        spec = {"conv": conv, "length": length, "seed": seed, "answer": STEPS, "stop": None}
        done = turn(chat.loaded, histories.setdefault(conv, []), spec)
        chat.segments.append({"tokens": done["tokens"], "margins": done["margins"]})


CASES = {"force": case_force, "batch": case_batch, "reload": case_reload, "switch": case_switch}


def run_case(path: str, name: str) -> dict:
    from engine.runtime.bindings import native_log

    started = time.perf_counter()
    chat = Conversation(load(path))
    mark = native_log().mark()
    try:
        CASES[name](path, chat)
    finally:
        chat.close()
    reserves = sum("sched_reserve: reserving ..." in line for line in native_log().since(mark))
    return {"case": name, "segments": chat.segments, "counters": chat.counters,
            "reserves": reserves, "run_s": round(time.perf_counter() - started, 2)}


def main(argv: list[str]) -> int:
    from engine.native import backends

    choice = backends.select()
    print("@@ " + json.dumps({"device": choice.device_name, "variant": choice.variant.name}),
          flush=True)
    for name in argv[1:]:
        print("@@ " + json.dumps(run_case(argv[0], name)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
