"""The measuring half of bench/gpu_slotcache.py (run with the patched llama_cpp on the path).

For each model shape (Qwen3.6-35B-A3B Q4_K_M; gpt-oss-20b MXFP4), written as a sparse
synthetic GGUF with the real tensor shapes and types, planned for an 8 GB card:

- decode tokens/s: *tuned stock* (the planner's whole-layer recipe and its --n-cpu-moe
  neighbours, the best of them), slots + LRU, slots + rotary (and rotary with the experts in
  page-locked memory, uploaded without staging), with the cached layers'
  routing replayed from a trace (real gpt-oss-20b routing from shared/traces for gpt-oss;
  the residency simulator's Qwen3.6-shaped generator otherwise; ``--trace FILE`` for any
  trace of matching shape);
- prompt tokens/s for a 4,096-token prompt: stock micro-batch (512) and the planner's, each
  with and without the slot cache;
- the transfer probe (pinned and pageable host->GPU, the CPU's expert rate), host waits per
  token, and where a token's time goes: wall-clock pieces measured on the host (llama_decode,
  the step after the token, sampling) and the shares of uploads and CPU misses *modelled*
  from the probe's rates (no GPU timer reaches the host without a sync).

Each phase is skipped (and says so) when the time limit would be passed.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pathlib
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.verdict import Verdicts  # noqa: E402
from tests.support.loadable_shapes import MINI, gptoss_spec, qwen36_spec, write_loadable  # noqa: E402
from engine.model.inspect_gguf import inspect_model  # noqa: E402
from engine.plan import plan  # noqa: E402
from engine.plan.hardware import HardwareInfo  # noqa: E402
from tools.residency_sim.synth import SynthSpec, synth_trace  # noqa: E402
from tools.routing_replay import RoutingReplay, cached_columns  # noqa: E402
from engine.residency.trace import load_trace  # noqa: E402
from engine.runtime.experts import slot_cache  # noqa: E402
from engine.runtime.llama_model import NativeModel, Sampling  # noqa: E402

DECODE_WARMUP, DECODE_TOKENS = 16, 96
PROMPT_TOKENS, SMOKE_PROMPT_TOKENS = 4096, 512
STOCK_UBATCH = 512
PHASE_RESERVE_S = 45          # a phase is started only with this much time left


@dataclasses.dataclass
class Shape:
    name: str
    path: pathlib.Path
    facts: object
    replay: np.ndarray        # [tokens, moe layers, k] routing of the cached layers
    replay_source: str


def make_shape(name: str, work: pathlib.Path, smoke: bool, trace_file: str | None) -> Shape:
    spec = {"qwen3.6": qwen36_spec, "gpt-oss-20b": gptoss_spec}[name](MINI if smoke else None)
    path = write_loadable(spec, work / f"{spec.name}.gguf")
    facts = inspect_model(str(path))
    replay, source = _routing(facts, name, trace_file)
    return Shape(name, path, facts, replay, source)


def _routing(facts, name: str, trace_file: str | None) -> tuple[np.ndarray, str]:
    layers, k, n_expert = len(facts.moe_layers), facts.n_expert_used, facts.n_expert
    candidates = [trace_file] if trace_file else []
    if name == "gpt-oss-20b":
        candidates.append(str(ROOT / ".gpu" / "traces" / "gptoss_all.npz"))
    for candidate in candidates:
        if candidate and pathlib.Path(candidate).exists():
            trace = load_trace(candidate)
            if (trace.n_layers, trace.k, trace.n_expert) == (layers, k, n_expert):
                return trace.ids.astype(np.int32), pathlib.Path(candidate).name
            print(f"{candidate}: shape {trace.n_layers}x{trace.k} of {trace.n_expert} does not "
                  f"match {name} ({layers}x{k} of {n_expert}); synthetic routing instead")
    spec = SynthSpec(n_expert=n_expert, k=k, n_layers=layers, n_tokens=512, seed=1)
    return synth_trace(spec).ids.astype(np.int32), "synthetic (tools.residency_sim.synth)"


def recipes(shape: Shape, hw: HardwareInfo, smoke: bool) -> dict:
    """name -> recipe. Stock: the planner's whole-layer layout and its neighbours (the
    tuning a careful user does with --n-cpu-moe); slots with LRU and rotary. The smoke run
    gives the layout by hand (nothing to plan for): all layers on the device, every routed
    expert in system memory, half of them in slots; the slots sit on the device where
    llama.cpp lists one (Mesa's software Vulkan device in the Vulkan pass), else in memory."""
    stock = plan(shape.facts, hw)
    if smoke:
        stock = dataclasses.replace(stock, n_gpu_layers=-1,
                                    cpu_expert_layers=tuple(shape.facts.moe_layers))
    out = {"stock (planner)": stock}
    in_ram = len(stock.cpu_expert_layers)
    for delta in ((-2, 2) if not smoke else ()):
        n = in_ram + delta
        if 0 < n < len(shape.facts.moe_layers):
            out[f"stock (--n-cpu-moe {n})"] = plan(shape.facts, hw, overrides={"n_cpu_moe": n})
    for policy in ("lru", "rotary"):
        slotted = plan(shape.facts, hw, overrides={"slot_layout": True, "policy": policy})
        if smoke:
            counts = tuple(shape.facts.n_expert // 2 if i in shape.facts.moe_layers else 0
                           for i in range(shape.facts.n_layers))
            slotted = dataclasses.replace(stock, expert_slots=counts, residency_policy=policy)
        out[f"slots + {policy}"] = slotted
    if not smoke:   # last, as it reads the whole file into page-locked memory first
        out["slots + rotary, pinned experts"] = dataclasses.replace(
            out["slots + rotary"], pinned_experts=True, use_mmap=False)
    return out


def decode_row(shape: Shape, recipe) -> dict:
    model = NativeModel(str(shape.path), recipe)
    try:
        model.set_sampling(Sampling(temperature=0))
        cache = model.slot_cache
        if cache is not None:
            columns = cached_columns(shape.facts.moe_layers, shape.replay.shape[2], cache)
            RoutingReplay(model, shape.replay[:, columns, :]).start()
        model.decode(list(range(100, 164)))
        model.after_prompt()
        timers, waits = np.zeros(3), 0
        started = time.perf_counter()
        for i in range(DECODE_WARMUP + DECODE_TOKENS):
            if i == DECODE_WARMUP:
                timers[:], waits, started = 0, 0, time.perf_counter()
                before = dataclasses.replace(cache.totals) if cache is not None else None
            t0 = time.perf_counter()
            token = model.sample()
            t1 = time.perf_counter()
            model.decode([token], step=True)
            timers += (t1 - t0, model.decode_s, time.perf_counter() - t1 - model.decode_s)
            waits += model.last_residency.host_waits if model.last_residency else 0
        wall = time.perf_counter() - started
        row = {"decode_tps": DECODE_TOKENS / wall, "ms_per_token": 1e3 * wall / DECODE_TOKENS,
               "host_ms": dict(zip(("sample", "llama_decode", "after_token"),
                                   (round(1e3 * t / DECODE_TOKENS, 3) for t in timers))),
               "host_waits_per_token": waits / DECODE_TOKENS}
        if cache is not None:
            row.update(_slot_figures(cache, before, recipe))
            row.update(banks_on_device=model.slot_banks_on_gpu, native=cache.counters())
        return row
    finally:
        model.close()


def _slot_figures(cache, before, recipe) -> dict:
    t = cache.totals
    steps = max(1, t.steps - before.steps)
    hits, misses = t.hits - before.hits, t.misses - before.misses
    uploaded = t.uploaded_bytes - before.uploaded_bytes
    expert = sum(cache.expert_bytes) / len(cache.expert_bytes)
    out = {"hit_rate": hits / max(1, hits + misses), "uploads_per_token": (t.uploads - before.uploads) / steps,
           "slot_gib": cache.bank_bytes / 2**30, "upload_cap": cache.policy.upload_cap}
    rule = cache.transfer
    if rule is not None:   # modelled from the probe's rates, not timed on the GPU
        out["transfer"] = dataclasses.asdict(rule)
        out["modelled_ms"] = {
            "uploads": round(1e3 * uploaded / steps / max(rule.link_gbs, 1e-9) / 1e9, 3),
            "cpu_misses": round(1e3 * misses / steps * expert / max(rule.figures.cpu_gbs, 1e-9) / 1e9, 3)}
    return out


def prompt_row(shape: Shape, recipe, n_tokens: int) -> dict:
    model = NativeModel(str(shape.path), recipe)
    try:
        tokens = [int(t) for t in np.random.default_rng(0).integers(300, 2000, n_tokens)]
        started = time.perf_counter()
        for at in range(0, n_tokens, recipe.n_batch):
            model.decode(tokens[at:at + recipe.n_batch])
        model.after_prompt()
        seconds = time.perf_counter() - started
        return {"prompt_tps": n_tokens / seconds, "n_ubatch": recipe.n_ubatch,
                "slots": bool(recipe.expert_slots)}
    finally:
        model.close()


def run_shape(shape: Shape, hw: HardwareInfo, smoke: bool, deadline: float) -> dict:
    result = {"model": shape.path.name, "routing": shape.replay_source, "decode": {},
              "prompt": {}, "skipped": []}
    table = recipes(shape, hw, smoke)
    for name, recipe in table.items():
        if time.monotonic() > deadline - PHASE_RESERVE_S:
            result["skipped"].append(f"decode: {name}")
            continue
        result["decode"][name] = decode_row(shape, recipe)
        print(f"  {shape.name} decode {name}: {json.dumps(result['decode'][name])}", flush=True)
    n_tokens = SMOKE_PROMPT_TOKENS if smoke else PROMPT_TOKENS
    planned = {"stock": table["stock (planner)"], "slots": table["slots + rotary"]}
    for label, base in planned.items():
        for ubatch in sorted({STOCK_UBATCH, base.n_ubatch}):
            name = f"{label}, micro-batch {ubatch}"
            if time.monotonic() > deadline - PHASE_RESERVE_S:
                result["skipped"].append(f"prompt: {name}")
                continue
            recipe = dataclasses.replace(base, n_batch=max(ubatch, base.n_batch), n_ubatch=ubatch,
                                         n_ctx=max(base.n_ctx, n_tokens + 256))
            result["prompt"][name] = prompt_row(shape, recipe, n_tokens)
            print(f"  {shape.name} prompt {name}: {result['prompt'][name]['prompt_tps']:.1f} tok/s",
                  flush=True)
    result["planner_ubatch"] = {k: v.n_ubatch for k, v in planned.items()}
    return result


def verdict(results: dict) -> int:
    verdicts = Verdicts()
    for shape, r in results["shapes"].items():
        decode, prompt = r["decode"], r["prompt"]
        stock = max((row["decode_tps"] for name, row in decode.items() if name.startswith("stock")),
                    default=None)
        rotary, lru = decode.get("slots + rotary"), decode.get("slots + lru")
        if stock and rotary:
            verdicts.check(f"{shape}: slots + rotary / tuned stock, decode", rotary["decode_tps"] / stock,
                           target=1.3, fail_at=1.0)
        if rotary and lru:
            verdicts.check(f"{shape}: slots + rotary / slots + LRU, decode",
                           rotary["decode_tps"] / lru["decode_tps"], target=1.05, fail_at=0.9)
        ub = r.get("planner_ubatch", {})
        base = prompt.get(f"stock, micro-batch {STOCK_UBATCH}")
        chosen = prompt.get(f"stock, micro-batch {ub.get('stock')}")
        if base and chosen and ub.get("stock") != STOCK_UBATCH:
            verdicts.check(f"{shape}: prompt, planner's micro-batch / stock 512",
                           chosen["prompt_tps"] / base["prompt_tps"], target=2.0, fail_at=1.0)
        slots = prompt.get(f"slots, micro-batch {ub.get('slots')}")
        if chosen and slots:
            verdicts.check(f"{shape}: prompt, slot cache / no slot cache (same micro-batch)",
                           slots["prompt_tps"] / chosen["prompt_tps"], target=0.95, fail_at=0.8)
    return verdicts.exit_code()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--limit-s", type=float, default=480)
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--trace", help="replay this routing trace where its shape matches")
    parser.add_argument("--shapes", default="qwen3.6,gpt-oss-20b")
    args = parser.parse_args()
    deadline = time.monotonic() + args.limit_s
    work, out = pathlib.Path(args.work), pathlib.Path(args.out)
    work.mkdir(parents=True, exist_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    if not slot_cache.available():
        print(slot_cache.STOCK_MESSAGE)
        return 1
    hw = (HardwareInfo.pretend(vram_gb=0, ram_gb=16, cores=2) if args.smoke
          else HardwareInfo.pretend(vram_gb=8, ram_gb=32, cores=8, name="8 GB budget on this GPU"))
    results = {"shapes": {}}
    for name in args.shapes.split(","):
        shape = make_shape(name, work, args.smoke, args.trace)
        results["shapes"][name] = run_shape(shape, hw, args.smoke, deadline)
        shape.path.unlink(missing_ok=True)
    (out / "gpu_slotcache.json").write_text(json.dumps(results, indent=2))
    if args.smoke:   # the smoke run checks the path on the CPU, not the speed
        print("smoke run: every phase ran; no GPU, so no verdict")
        return 0
    return verdict(results)


if __name__ == "__main__":
    sys.exit(main())
