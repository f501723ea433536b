"""Does the writing-speed estimate (engine/plan/speed.py) match what this computer measures?

For fixture models of growing size (generated, never downloaded) this plans a recipe for
*this* computer exactly as the app's check does (real hardware probe, the preset the app
would pick), prints the estimated range, then loads the model through the engine thread
and measures the writing speed of one answer. Measured and estimated figures are labelled;
the estimate is a model (bandwidth + per-token overhead). Exits non-zero (bench/verdict.py)
when a measurement falls far outside its estimate (below low / 1.5 or above high x 1.5).
The larger fixtures are measured quantized to Q4_K_M by llama.cpp's own quantizer.

Then two figures that decide what the app shows once it has measured (app/speed_calibration.py):
how far apart three answers of one model lie (the app's range for a model it has measured),
and, printed for information, why a measurement is not carried over to another model: each
model's speed places this computer in its modelled range (0 = slow end, 1 = fast end, log
scale), that place gives every other model a figure, and it is compared with that model's
measurement.
Usage: python bench/bench_speed_estimate.py [--tokens 96] [--skip-large]
"""

from __future__ import annotations

import argparse
import pathlib
import queue
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.api import ChatMessage, ChatRequest, LoadRequest, RequestFailed, RequestFinished  # noqa: E402
from engine.demo.demo_model import ensure_demo_model  # noqa: E402
from engine.demo.tiny_moe import SPECS, TinyMoeSpec, write_tiny_moe  # noqa: E402
from engine.model.inspect_gguf import inspect_model  # noqa: E402
from engine.plan import describe, plan, resolve_preset  # noqa: E402
from engine.plan.hardware import probe  # noqa: E402
import math  # noqa: E402
from engine.runtime.service import EngineService  # noqa: E402
from bench.verdict import Verdicts  # noqa: E402

MARGIN = 1.5
MIN_TOKENS = 16
# ~1.2 GB of f16 experts, ~150 MB read per token: large enough that memory bandwidth,
# not the per-token overhead, decides the speed.
LARGE = TinyMoeSpec(n_layer=12, n_embd=1024, n_expert=32, n_expert_used=4, n_ff_exp=512,
                    n_head=8, n_head_kv=2, head_dim=128, name="rotary-calibration-moe")
PROMPT = (ChatMessage("user", "Write a long summary of the document for the question."),)


def quantize_q4_k_m(source: pathlib.Path) -> pathlib.Path:
    """The same model in Q4_K_M, the format real downloads use (llama.cpp's own quantizer)."""
    import llama_cpp
    target = source.with_name(source.stem + "-q4_k_m.gguf")
    params = llama_cpp.llama_model_quantize_default_params()
    params.ftype = llama_cpp.LLAMA_FTYPE_MOSTLY_Q4_K_M
    if llama_cpp.llama_model_quantize(str(source).encode(), str(target).encode(), params) != 0:
        raise SystemExit("quantizing the calibration model failed")
    return target


def measure(path: pathlib.Path, recipe, tokens: int) -> list[float]:
    events: queue.Queue = queue.Queue()
    service = EngineService(events.put)
    try:
        service.load(LoadRequest(model_path=str(path), recipe=recipe))
        _wait(events, "ModelLoaded")
        speeds = []
        for _ in range(3):          # the first answer warms caches; keep the median
            service.chat(ChatRequest(messages=PROMPT, max_tokens=tokens, temperature=0,
                                     stop_loops=False))     # random weights repeat themselves
            stats = _wait(events, "RequestFinished").stats
            if stats.generated_tokens >= MIN_TOKENS:     # a short answer times nothing
                speeds.append(stats.decode_tps)
        if not speeds:
            raise SystemExit(f"{path.name}: every answer was shorter than {MIN_TOKENS} tokens")
        return sorted(speeds)
    finally:
        service.shutdown()


def _wait(events: queue.Queue, name: str):
    while True:
        event = events.get(timeout=900)
        if isinstance(event, RequestFailed):
            raise SystemExit(f"engine failed: {event.error} {event.error.details}")
        if type(event).__name__ == name or (name == "RequestFinished"
                                            and isinstance(event, RequestFinished)):
            return event


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tokens", type=int, default=96)
    parser.add_argument("--skip-large", action="store_true")
    args = parser.parse_args()
    hardware = probe()
    preset = resolve_preset(None, hardware).name
    print(f"this computer: {hardware.cpu_physical_cores} physical cores, "
          f"{hardware.ram_total_bytes / 2**30:.0f} GiB RAM, {len(hardware.gpus)} NVIDIA GPU(s); "
          f"preset {preset}")
    specs = [("test", SPECS["test"]), ("bench", SPECS["bench"])]
    if not args.skip_large:
        specs.append(("large", LARGE))
    # Real downloads are quantized (Q4_K_M below); the fixtures are plain f16.
    verdicts = Verdicts()
    with tempfile.TemporaryDirectory() as directory:
        models = [("demo", ensure_demo_model(directory))]     # the app's own demo
        written = {name: write_tiny_moe(pathlib.Path(directory) / f"{name}.gguf", spec)
                   for name, spec in specs}
        models += [("test", written["test"]), ("bench-q4", quantize_q4_k_m(written["bench"]))]
        if not args.skip_large:
            models += [("large", written["large"]),
                       ("large-q4", quantize_q4_k_m(written["large"]))]
        results = []
        for name, path in models:
            facts = inspect_model(str(path))
            recipe = plan(facts, hardware, preset=preset)
            low, high = describe(recipe, facts, hardware).expected_tps
            speeds = measure(path, recipe, args.tokens)
            measured = speeds[len(speeds) // 2]
            results.append((name, (low, high), measured))
            print(f"{name:8s} three answers {', '.join(f'{v:.1f}' for v in speeds)} tokens/s "
                  f"[measured]: the highest is {speeds[-1] / speeds[0]:.2f}x the lowest")
            print(f"{name:8s} {path.stat().st_size / 2**20:8.1f} MiB  threads {recipe.n_threads}  "
                  f"estimate {low:6.1f}–{high:6.1f} tokens/s [modelled]  "
                  f"writing {measured:6.1f} tokens/s [measured]")
            verdicts.check(f"{name}: measured ÷ estimate's low end", measured / low,
                           target=1.0, fail_at=1 / MARGIN, kind="measured ÷ modelled")
            verdicts.check(f"{name}: measured ÷ estimate's high end", measured / high,
                           target=1.0, fail_at=MARGIN, higher_is_better=False,
                           kind="measured ÷ modelled")
        check_calibration(results, verdicts)
    return verdicts.exit_code()


def check_calibration(results, verdicts: Verdicts) -> None:
    """For information (no verdict): one model's measurement carried over to another."""
    print("\none model's measurement carried over to another (not done by the app):")
    for source, (low, high), source_speed in results:
        position = math.log(source_speed / low) / math.log(high / low)
        for name, (other_low, other_high), measured in results:
            if name != source:
                figure = other_low * (other_high / other_low) ** position
                print(f"  from {source:8s} (place {position:+.2f}) to {name:8s}: figure "
                      f"{figure:7.1f} tokens/s [modelled from a measurement], measured "
                      f"{measured:7.1f}: measured ÷ figure {measured / figure:.2f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
