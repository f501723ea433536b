"""One run of the CPU back-end in a process of its own, with the processor variant that
``ROTARY_CPU_ISA`` names (engine/native/cpu_isa.py): a process keeps the libggml-cpu it loaded.

    python -m tests.support.cpu_isa_child greedy MODEL OUT_DIR STEPS

``greedy`` (tests/engine/test_cpu_isa.py): the prompt, then STEPS greedy tokens and their
logits (OUT_DIR/logits.npy). Prints one JSON line: what ran (the choice, and every libggml-cpu
mapped into the process, read from /proc/self/maps after the model ran) and the tokens. The
speeds of each build are measured by engine/runtime/devices/cpu_calibration_child.py.
"""

from __future__ import annotations

import json
import sys
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


def main(argv: list[str]) -> int:
    from engine.native import backends, cpu_isa

    mode, path, out = argv[0], argv[1], Path(argv[2])
    backends.select()
    if mode != "greedy":
        raise SystemExit(f"unknown mode {mode}")
    result = greedy(path, out, int(argv[3]))
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
