"""Growth over a long session with the slot cache on (issue 34, item 2): RSS, device objects.

``python bench/slot_growth.py [--steps 5000] [--mark 500] [--vulkan FOLDER]``

Writes the test fixture model (engine/demo/tiny_moe.py, the device-path test's seed), loads it
with 3 slots of 8 per layer (every few tokens an eviction, so uploads and events every step
that misses) and decodes ``--steps`` greedy tokens, starting the conversation over every 400
tokens (the context holds 512). Measured at ``--mark`` and at the end:

- RSS of this process (psutil: resident set, includes the Vulkan driver's host allocations;
  lavapipe's "device memory" is host memory too);
- the native counters: device events and command buffers created (ggml-vulkan's own counts,
  0 on the CPU build), and the slot banks' bytes.

``--vulkan FOLDER`` runs on that Vulkan variant's folder with lavapipe named
(GGML_VK_VISIBLE_DEVICES=0); without it, the CPU build this Python imports. One JSON line.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RESTART_EVERY = 400
PROMPT = "hello the model and the expert, and the expert again and the model"


def snapshot(model, process) -> dict:
    counters = model.slot_cache.counters()
    return {"rss_mib": round(process.memory_info().rss / 2**20, 2),
            "device_events": counters["device_events"],
            "device_cmd_buffers": counters["device_cmd_buffers"],
            "bank_bytes": model.slot_cache.bank_bytes, "order_violations": counters["order_violations"],
            "async_copies": counters["async_copies"], "sync_copies": counters["sync_copies"]}


def run(steps: int, mark: int) -> dict:
    import psutil

    from engine.demo.tiny_moe import SPECS, write_tiny_moe
    from engine.native import backends
    from engine.runtime.llama_model import NativeModel, Sampling
    from tests.support.device_path_child import SLOTS, recipe

    choice = backends.select()
    spec = dataclasses.replace(SPECS["test"], seed=2, layer_scale=0.3)
    path = write_tiny_moe(Path(tempfile.mkdtemp()) / "growth.gguf", spec)
    model = NativeModel(str(path), recipe(spec.n_layer, SLOTS))
    process, marks, started = psutil.Process(), {}, time.perf_counter()
    try:
        model.set_sampling(Sampling(temperature=0))
        for step in range(steps):
            if step % RESTART_EVERY == 0:
                model.ctx.kv_cache_clear()
                model.tokens = []
                model.decode(model.tokenize(PROMPT))
            if step == mark:
                marks["mark"] = snapshot(model, process)
            model.decode([model.sample()], step=True)
        marks["end"] = snapshot(model, process)
    finally:
        model.close()
    return {"device": choice.device_name, "steps": steps, "mark_step": mark, **marks,
            "seconds": round(time.perf_counter() - started, 1)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--mark", type=int, default=500)
    parser.add_argument("--vulkan", metavar="FOLDER")
    args = parser.parse_args()
    if args.vulkan:
        os.environ.update({"LLAMA_CPP_LIB_PATH": args.vulkan, "GGML_VK_VISIBLE_DEVICES": "0"})
    print(json.dumps(run(args.steps, args.mark)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
