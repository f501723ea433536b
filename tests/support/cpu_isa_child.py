"""One run of the CPU back-end in a process of its own, with the processor variant that
``ROTARY_CPU_ISA`` names (engine/native/cpu_isa.py): a process keeps the libggml-cpu it loaded.

    python -m tests.support.cpu_isa_child greedy MODEL OUT_DIR STEPS
    python -m tests.support.cpu_isa_child speed MODEL OUT_DIR ROUNDS PROMPT_TOKENS DECODE_TOKENS

``greedy`` (tests/engine/test_cpu_isa.py): the prompt, then STEPS greedy tokens and their
logits (OUT_DIR/logits.npy). ``speed`` (bench/bench_cpu_isa.py): per round, a fresh context,
a prompt of PROMPT_TOKENS tokens and DECODE_TOKENS greedy tokens, timed on the wall clock and
on this thread's CPU clock (one thread: ggml computes in the calling thread). Both print one
JSON line: what ran (the choice, and every libggml-cpu mapped into the process, read from
/proc/self/maps after the model ran) and the results.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

PROMPT = "hello the model and the expert, and the expert again and the model"


def recipe(n_batch: int = 128):
    from tests.conftest import make_cpu_recipe

    return make_cpu_recipe(n_ctx=1024, n_batch=n_batch, n_ubatch=n_batch, use_mmap=False)


def greedy(path: str, out: Path, steps: int) -> dict:
    from engine.runtime.bindings import llama_cpp_module
    from engine.runtime.llama_model import NativeModel, Sampling

    llama = llama_cpp_module()
    model = NativeModel(path, recipe())
    try:
        model.set_sampling(Sampling(temperature=0))
        model.decode(model.tokenize(PROMPT))
        tokens, logits = [], []
        for _ in range(steps):
            token = model.sample()
            row = llama.llama_get_logits_ith(model.ctx.ctx, -1)
            logits.append(np.ctypeslib.as_array(row, shape=(model.n_vocab,)).copy())
            tokens.append(int(token))
            model.decode([token], step=True)
    finally:
        model.close()
    np.save(out / "logits.npy", np.array(logits))
    return {"tokens": tokens}


def speed(path: str, rounds: int, prompt_tokens: int, decode_tokens: int) -> dict:
    from engine.runtime.llama_model import NativeModel, Sampling

    model = NativeModel(path, recipe(n_batch=max(prompt_tokens, 32)))
    results: dict[str, list[float]] = {"prompt_wall": [], "prompt_cpu": [],
                                       "decode_wall": [], "decode_cpu": []}
    try:
        model.set_sampling(Sampling(temperature=0))
        words = model.tokenize(PROMPT * 40)
        prompt = (words * (prompt_tokens // len(words) + 1))[:prompt_tokens]
        for _ in range(rounds + 1):                # the first round warms caches: dropped
            model.reuse_prefix([-1, -1])           # a fresh context every round
            wall, cpu = time.perf_counter(), time.thread_time()
            model.decode(prompt)
            prompt_times = (time.perf_counter() - wall, time.thread_time() - cpu)
            wall, cpu = time.perf_counter(), time.thread_time()
            for _ in range(decode_tokens):
                model.decode([model.sample()], step=True)
            decode_times = (time.perf_counter() - wall, time.thread_time() - cpu)
            for key, n, (w, c) in (("prompt", prompt_tokens, prompt_times),
                                   ("decode", decode_tokens, decode_times)):
                results[f"{key}_wall"].append(n / w)
                results[f"{key}_cpu"].append(n / max(c, 1e-9))
    finally:
        model.close()
    return {name: values[1:] for name, values in results.items()}


def main(argv: list[str]) -> int:
    from engine.native import backends, cpu_isa

    mode, path, out = argv[0], argv[1], Path(argv[2])
    backends.select()
    if mode == "greedy":
        result = greedy(path, out, int(argv[3]))
    else:
        result = speed(path, int(argv[3]), int(argv[4]), int(argv[5]))
    choice = cpu_isa.active()
    print(json.dumps({"isa": choice.name if choice else None,
                      "loaded": bool(choice and choice.loaded),
                      "reason": choice.reason if choice else "",
                      "variant_folder": choice.variant.folder if choice and choice.variant else None,
                      "backend_folder": backends.selected().variant.folder,
                      "mapped": list(cpu_isa.mapped()), **result}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
