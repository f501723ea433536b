"""Greedy tokens and the slot cache's routing of a tiny model, as JSON (bench/gpu_slotcache.py
--smoke runs it with the CPU build and with a carried CUDA wheel, and compares).

    python bench/gpu_slotcache_check.py WORK_DIR OUT.json
"""

from __future__ import annotations

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.demo.tiny_moe import write_tiny_moe  # noqa: E402
from engine.recipe import MemoryEstimate, Recipe  # noqa: E402
from engine.runtime.llama_model import NativeModel, Sampling  # noqa: E402


def main(work: pathlib.Path, out: pathlib.Path) -> int:
    path = write_tiny_moe(work / "check-moe.gguf", "test")
    recipe = Recipe(preset="check", n_gpu_layers=0, cpu_expert_layers=(), n_ctx=256,
                    flash_attn=True, kv_type="f16", n_batch=64, n_ubatch=64, n_threads=1,
                    n_threads_batch=1, vram=MemoryEstimate(), ram=MemoryEstimate(),
                    expert_slots=(3, 3, 3, 3), residency_policy="lru")
    model = NativeModel(str(path), recipe)
    try:
        model.set_sampling(Sampling(temperature=0))
        model.slot_cache.routing_log, model.slot_cache.prompt_log = [], []
        model.decode(model.tokenize("hello the model and the expert"))
        model.after_prompt()
        tokens = []
        for _ in range(32):
            tokens.append(model.sample())
            model.decode([tokens[-1]], step=True)
        routing = [ids.tolist() for ids, _ in model.slot_cache.routing_log]
        prompt = [p.tolist() for p in model.slot_cache.prompt_log]
    finally:
        model.close()
    out.write_text(json.dumps({"tokens": tokens, "routing": routing, "prompt": prompt}))
    return 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])))
