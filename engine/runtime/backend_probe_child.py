"""One back-end probe, in a process of its own (engine/runtime/devices/backend_probe.py starts it).

The parent sets ``LLAMA_CPP_LIB_PATH`` to the variant's folder and ``ROTARY_DEVICE`` to the
card's device name, so ``backends.select()`` here takes exactly that pair. The model loads
through the engine's own loader (the plan's layout for this card, or the recipe the parent
was asked to load), reads a short prompt and writes a few greedy tokens. Prints one JSON line:
decode tokens/s (from the second token on: the first also pays for the prompt and the
back-end's first graphs) and the prompt's tokens/s.

Kept above the loader, apart from devices/backend_probe.py: the loader imports that module
(the devices folder sits below the loader), and this one imports the loader.
"""

from __future__ import annotations

import json
import sys
import threading
import time

from engine.api import ChatMessage, ChatRequest, LoadRequest
from engine.native import backends
from engine.recipe import recipe_from_dict
from engine.runtime.loader import LoadedModel, load_with_fallback


def child_main(argv: list[str]) -> int:
    spec = json.loads(argv[0])
    request = LoadRequest(spec["model"], preset=spec.get("preset"),
                          advanced=spec.get("advanced") or None,
                          recipe=recipe_from_dict(spec["recipe"]) if spec.get("recipe") else None)
    loaded = load_with_fallback(request, lambda *_: None, lambda *_: None)
    try:
        choice = backends.selected()
        ran = choice.device.name if choice is not None and choice.device is not None else "CPU"
        if choice is None or ran != spec["device"] or \
                choice.variant.folder != spec["folder"]:
            print(f"the variant in {spec['folder']} ran {ran}, not {spec['device']}",
                  file=sys.stderr)
            return 3
        result = measure(loaded, spec["prompt"], int(spec["tokens"]))
    finally:
        loaded.close()
    if result["timed_tokens"] < 2:
        print(f"the model wrote only {result['timed_tokens'] + 1} tokens", file=sys.stderr)
        return 4
    print(json.dumps(result), flush=True)
    return 0


def measure(loaded: LoadedModel, prompt: str, tokens: int) -> dict:
    """Greedy tokens after ``prompt``; the time between the first and the last token."""
    stop = threading.Event()
    run = loaded.start_chat(ChatRequest((ChatMessage("user", prompt),), max_tokens=tokens + 1,
                                        temperature=0.0, record_routing=False, think=False,
                                        stop_loops=False), stop)
    seen: list[float] = []
    prompt_tps = 0.0
    for record in run.records():
        seen.append(time.perf_counter())
        prompt_tps = record.prompt_tps
        if len(seen) > tokens:          # thinking tokens count too: the probe needs speed only
            stop.set()
    timed = len(seen) - 1
    span = seen[-1] - seen[0] if timed > 0 else 0.0
    return {"decode_tps": timed / span if span > 0 else 0.0, "prompt_tps": prompt_tps,
            "timed_tokens": timed}
