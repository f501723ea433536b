"""One candidate build of the CPU back-end, measured in a process of its own
(engine/runtime/devices/cpu_calibration.py starts it with ``ROTARY_CPU_ISA`` naming the build, and
bench/bench_cpu_isa.py with larger models and more rounds).

Per weight kind: the model loads with one thread, then per round a fresh context reads a
prompt of ``prompt`` tokens and writes ``decode`` greedy tokens, timed on this thread's CPU
clock (ggml computes in the calling thread with one thread) and on the wall clock; the first
round warms caches and is dropped; each figure is the best of the rest (other work on the
machine only ever slows a round: it takes the core's caches, memory bandwidth or its sibling). A quantized model
that does not exist yet is made first from the f16 one by llama.cpp's own quantizer (the
first child makes them; the others find them; ``"measure": false`` only makes them). Prints
one JSON line: what ran (the choice,
and every libggml-cpu mapped into the process) and the speeds.

Kept apart from cpu_calibration.py: the loader imports that module, and this one loads llama.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from engine.native import backends, cpu_isa
from engine.recipe import MemoryEstimate, Recipe
from engine.runtime.bindings import llama_cpp_module
from engine.runtime.llama_model import NativeModel, Sampling

PROMPT = "hello the model and the expert, and the expert again and the model"
FTYPES = {"Q4_K": "LLAMA_FTYPE_MOSTLY_Q4_K_M", "Q8_0": "LLAMA_FTYPE_MOSTLY_Q8_0"}


def child_main(spec: dict[str, Any]) -> int:
    backends.select()
    models: dict[str, str] = spec["models"]
    for kind, path in models.items():
        if kind in FTYPES and not Path(path).exists():
            quantize(models["F16"], path, FTYPES[kind])
    speeds = {kind: speed(path, int(spec["rounds"]), int(spec["prompt"]), int(spec["decode"]))
              for kind, path in models.items() if spec.get("measure", True)}
    choice = cpu_isa.active()
    print(json.dumps({"isa": choice.name if choice else None,
                      "loaded": bool(choice and choice.loaded),
                      "reason": choice.reason if choice else "",
                      "mapped": list(cpu_isa.mapped()), "speeds": speeds}), flush=True)
    return 0


def quantize(source: str, target: str, ftype: str) -> None:
    llama = llama_cpp_module()
    params = llama.llama_model_quantize_default_params()
    params.ftype = getattr(llama, ftype)
    partial = f"{target}.partial"
    if llama.llama_model_quantize(source.encode(), partial.encode(), params) != 0:
        raise SystemExit(f"quantizing {source} to {ftype} failed")
    Path(partial).replace(target)


def recipe(n_batch: int) -> Recipe:
    return Recipe(preset="calibration", n_gpu_layers=0, cpu_expert_layers=(), n_ctx=1024,
                  flash_attn=True, kv_type="f16", n_batch=n_batch, n_ubatch=n_batch,
                  n_threads=1, n_threads_batch=1, vram=MemoryEstimate(), ram=MemoryEstimate(),
                  use_mmap=False)


def speed(path: str, rounds: int, prompt_tokens: int, decode_tokens: int) -> dict[str, Any]:
    """Best tokens/s of reading and writing over the rounds, on the CPU clock (``prompt``,
    ``decode``) and the wall clock, and every round's CPU-clock figures."""
    model = NativeModel(path, recipe(max(prompt_tokens, 32)))
    runs: dict[str, list[float]] = {"prompt": [], "decode": [], "prompt_wall": [], "decode_wall": []}
    try:
        model.set_sampling(Sampling(temperature=0))
        words = model.tokenize(PROMPT * 40)
        prompt = (words * (prompt_tokens // len(words) + 1))[:prompt_tokens]
        for _ in range(rounds + 1):                # the first round warms caches: dropped
            model.reuse_prefix([-1, -1])           # a fresh context every round
            wall, cpu = time.perf_counter(), time.thread_time()
            model.decode(prompt)
            read = (time.perf_counter() - wall, time.thread_time() - cpu)
            wall, cpu = time.perf_counter(), time.thread_time()
            for _ in range(decode_tokens):
                model.decode([model.sample()], step=True)
            wrote = (time.perf_counter() - wall, time.thread_time() - cpu)
            for key, n, (w, c) in (("prompt", prompt_tokens, read), ("decode", decode_tokens, wrote)):
                runs[key].append(n / max(c, 1e-9))
                runs[f"{key}_wall"].append(n / max(w, 1e-9))
    finally:
        model.close()
    result: dict[str, Any] = {key: max(values[1:]) for key, values in runs.items()}
    result.update({f"{key}_runs": values[1:] for key, values in runs.items() if "wall" not in key})
    return result
