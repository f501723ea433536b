"""Writing speed of one model on the processor and on a software Vulkan device (Mesa's
lavapipe), in two processes (a process holds one back-end): the measurement behind the
software device's share in engine/plan/speed.py (SOFTWARE_SHARE) and docs/backends.md.

    python bench/bench_software_device.py [MODEL.gguf]

Without a model it writes the 213 MB bench fixture (engine/demo/tiny_moe.py, "bench").
Prints one JSON line per device and the ratio; both runs in one call, so read the ratio,
not the figures, on a shared machine."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TOKENS = 64

CHILD = """
import json, sys, threading
from engine.native import backends
choice = backends.select()
from engine.api import ChatMessage
from engine.recipe import MemoryEstimate, Recipe
from engine.runtime.generation.generate import GenerationRun
from engine.runtime.llama_model import NativeModel, Sampling
on_device = choice.device is not None
recipe = Recipe(preset="bench", n_gpu_layers=-1 if on_device else 0, cpu_expert_layers=(),
                n_ctx=1024, flash_attn=True, kv_type="f16", n_batch=256, n_ubatch=256,
                n_threads=2, n_threads_batch=2, vram=MemoryEstimate(), ram=MemoryEstimate())
native = NativeModel(sys.argv[1], recipe)
speeds = []
for _ in range(2):
    run = GenerationRun(native, (ChatMessage("user", "Tell me about the budget."),),
                        int(sys.argv[2]), Sampling(temperature=0.7, seed=3), threading.Event(),
                        1, stop_loops=False)
    for _ in run.records():
        pass
    speeds.append(round(run.stats.decode_tps, 2))
native.close()
print(json.dumps({"device": choice.device_name,
                  "kind": choice.device.kind if on_device else "cpu", "decode_tps": speeds}))
"""


def run(model: str, software: bool) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("LLAMA_CPP_LIB_PATH", "ROTARY_DEVICE")}
    env.update(GGML_VK_VISIBLE_DEVICES="0", ROTARY_SOFTWARE_GPU="1" if software else "0",
               PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p))
    done = subprocess.run([sys.executable, "-c", CHILD, model, str(TOKENS)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str]) -> int:
    model = argv[0] if argv else ""
    if not model:
        from engine.demo.tiny_moe import write_tiny_moe
        model = str(write_tiny_moe(Path(tempfile.mkdtemp()) / "bench-moe.gguf", "bench"))
    processor, software = run(model, False), run(model, True)
    print(json.dumps(processor))
    print(json.dumps(software))
    if software["kind"] != "software":
        print("no software device here (install mesa-vulkan-drivers for lavapipe)")
        return 1
    ratio = max(software["decode_tps"]) / max(processor["decode_tps"])
    print(json.dumps({"software_over_processor": round(ratio, 3)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
