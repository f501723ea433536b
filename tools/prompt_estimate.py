"""How well "about N s left" matched while a long prompt was read, on this computer.

``python -m tools.prompt_estimate``: the test model (engine/demo/tiny_moe.py) reads a
5,700-token prompt in 64-token batches on the processor; at each PromptProgress event it
prints the time left that Rotary said (engine/runtime/generation/prompt_progress.py, fitted a·r + c·r²),
what a plain rate so far would have said, and the time the rest really took (until the first
token, so it includes the first token's own pass), as ratios measured in this one run.
"""

from __future__ import annotations

import pathlib
import tempfile
import threading
import time

from engine.api import ChatMessage, PromptProgress
from engine.demo.tiny_moe import write_tiny_moe
from engine.recipe import MemoryEstimate, Recipe
from engine.runtime.generation.generate import GenerationRun
from engine.runtime.llama_model import NativeModel, Sampling
from engine.runtime.generation.prompt_progress import PromptMeter


def main() -> None:
    path = write_tiny_moe(pathlib.Path(tempfile.mkdtemp()) / "tiny-moe.gguf", "test")
    recipe = Recipe(preset="test", n_gpu_layers=0, cpu_expert_layers=(), n_ctx=8192,
                    flash_attn=True, kv_type="f16", n_batch=64, n_ubatch=64, n_threads=1,
                    n_threads_batch=1, vram=MemoryEstimate(), ram=MemoryEstimate())
    native = NativeModel(str(path), recipe)
    said: list[tuple[float, PromptProgress]] = []
    meter = PromptMeter(1, None, lambda event: said.append((time.perf_counter(), event)))
    message = ChatMessage("user", "the model reads every word of this message " * 190)
    try:
        run = GenerationRun(native, (message,), 1, Sampling(temperature=0), threading.Event(),
                            1, on_prompt=meter)
        started = time.perf_counter()
        first = started
        for _ in run.records():
            first = time.perf_counter()
            break
    finally:
        native.close()
    print(f"{len(run.prompt)} prompt tokens read in {first - started:.2f} s")
    print("read   said (fitted)   rate so far   took   ratios")
    for at, event in said:
        rate = (event.total - event.read) / (event.read / event.elapsed_s)
        took = first - at
        print(f"{event.fraction:4.0%}   {event.seconds_left:6.2f} s   {rate:10.2f} s  "
              f"{took:5.2f} s   {event.seconds_left / took:.2f}  {rate / took:.2f}")


if __name__ == "__main__":
    main()
