"""The measuring half of bench/gpu_slotcache.py (run with the freshly built llama_cpp on the path).

Decode tokens/s: the planner's whole-layer layout for an 8 GB card, the published one
(--n-cpu-moe 32), and the slot layout with LRU and with rotary, at the same 8 GB budget;
routing of the cached layers replayed from a synthetic Qwen3.6-shaped trace. Then the
bandwidth of slot uploads and prompt reading at micro-batch 512 and 2,048. Each phase is
skipped (and says so) when the time limit would be passed.
"""

from __future__ import annotations

import argparse
import ctypes
import dataclasses
import json
import pathlib
import sys
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.verdict import Verdicts  # noqa: E402
from engine.fixtures.loadable_shapes import MINI, qwen36_spec, write_loadable  # noqa: E402
from engine.model.inspect_gguf import inspect_model  # noqa: E402
from engine.plan import plan  # noqa: E402
from engine.plan.hardware import HardwareInfo  # noqa: E402
from engine.residency.synth import SynthSpec, synth_trace  # noqa: E402
from engine.runtime import slot_cache  # noqa: E402
from engine.runtime.llama_model import NativeModel, Sampling  # noqa: E402

DECODE_WARMUP, DECODE_TOKENS = 16, 96


@dataclasses.dataclass
class Setup:
    facts: object
    hw: HardwareInfo
    smoke: bool
    replay: np.ndarray      # [tokens, moe layers, k]
    prompt_tokens: int


def recipes(s: Setup) -> dict:
    """name -> recipe; on the CPU smoke run, slots are given by hand (no GPU to plan for)."""
    stock = plan(s.facts, s.hw)
    out = {"stock (planner, whole layers)": stock}
    if not s.smoke:
        out["stock (published: n_cpu_moe 32)"] = plan(s.facts, s.hw, overrides={"n_cpu_moe": 32})
    for policy in ("lru", "rotary"):
        slotted = plan(s.facts, s.hw, overrides={"slot_layout": True, "policy": policy})
        if s.smoke:
            counts = tuple(s.facts.n_expert // 2 if i in s.facts.moe_layers else 0
                           for i in range(s.facts.n_layers))
            slotted = dataclasses.replace(stock, expert_slots=counts, residency_policy=policy)
        out[f"slots + {policy}"] = slotted
    return out


def decode_tps(path: pathlib.Path, recipe, s: Setup) -> dict:
    model = NativeModel(str(path), recipe)
    try:
        model.set_sampling(Sampling(temperature=0))
        cache = model.slot_cache
        if cache is not None:
            columns = [list(s.facts.moe_layers).index(layer) for layer in cache.layers]
            model.replay_routing(s.replay[:, columns, :].astype(np.int32))
        model.decode(list(range(100, 164)))
        started = None
        for i in range(DECODE_WARMUP + DECODE_TOKENS):
            if i == DECODE_WARMUP:
                started = time.perf_counter()
            model.decode([model.sample()], step=True)
        row = {"decode_tps": DECODE_TOKENS / (time.perf_counter() - started)}
        if cache is not None:
            t = cache.totals
            row.update(hit_rate=t.hit_rate, uploads_per_token=t.uploads / max(1, t.steps),
                       slot_gib=cache.bank_bytes / 2**30,
                       upload_gbs=upload_bandwidth(model))
        return row
    finally:
        model.close()


def upload_bandwidth(model: NativeModel) -> float:
    """GB/s of one layer's slots refilled through llama_slot_cache_upload (host -> slots)."""
    cache, api = model.slot_cache, slot_cache.native_api()
    layer, n = cache.layers[0], cache.slots[0]
    experts = (ctypes.c_int32 * n)(*range(n))
    slots = (ctypes.c_int32 * n)(*range(n))
    started = time.perf_counter()
    for _ in range(3):
        api.llama_slot_cache_upload(model.ctx.ctx, layer, n, experts, slots)
    seconds = time.perf_counter() - started
    return 3 * n * cache.expert_bytes[0] / seconds / 1e9


def prompt_tps(path: pathlib.Path, recipe, n_tokens: int) -> float:
    model = NativeModel(str(path), recipe)
    try:
        tokens = [int(t) for t in np.random.default_rng(0).integers(300, 2000, n_tokens)]
        started = time.perf_counter()
        for at in range(0, n_tokens, recipe.n_batch):
            model.decode(tokens[at:at + recipe.n_batch])
        return n_tokens / (time.perf_counter() - started)
    finally:
        model.close()


def setup(work: pathlib.Path, smoke: bool) -> tuple[pathlib.Path, Setup]:
    spec = qwen36_spec(MINI if smoke else None)
    path = write_loadable(spec, work / f"{spec.name}.gguf")
    facts = inspect_model(str(path))
    hw = (HardwareInfo.pretend(vram_gb=0, ram_gb=16, cores=2) if smoke
          else HardwareInfo.pretend(vram_gb=8, ram_gb=32, cores=8, name="8 GB budget on this GPU"))
    trace = synth_trace(SynthSpec(n_expert=facts.n_expert, k=facts.n_expert_used,
                                  n_layers=len(facts.moe_layers), n_tokens=512, seed=1))
    return path, Setup(facts, hw, smoke, trace.ids, 1024 if smoke else 4096)


def run(args) -> dict:
    deadline = time.monotonic() + args.limit_s
    path, s = setup(pathlib.Path(args.work), args.smoke)
    results: dict = {"model": str(path.name), "decode": {}, "prompt": {}, "skipped": []}
    for name, recipe in recipes(s).items():
        if time.monotonic() > deadline - 60:
            results["skipped"].append(f"decode: {name}")
            continue
        results["decode"][name] = decode_tps(path, recipe, s)
        print(name, results["decode"][name], flush=True)
    slot_recipe = recipes(s)["slots + rotary"]
    for ub in (512, 2048):
        for label, base in (("slots", slot_recipe), ("stock", recipes(s)["stock (planner, whole layers)"])):
            name = f"{label}, micro-batch {ub}"
            if time.monotonic() > deadline - 60:
                results["skipped"].append(f"prompt: {name}")
                continue
            r = dataclasses.replace(base, n_batch=ub, n_ubatch=ub, n_ctx=max(base.n_ctx, 8192))
            results["prompt"][name] = prompt_tps(path, r, s.prompt_tokens)
            print(f"prompt {name}: {results['prompt'][name]:.1f} tok/s", flush=True)
    return results


def verdict(results: dict) -> int:
    decode, verdicts = results["decode"], Verdicts()
    stock = decode.get("stock (planner, whole layers)", {}).get("decode_tps")
    for policy in ("lru", "rotary"):
        row = decode.get(f"slots + {policy}")
        if stock and row:
            verdicts.check(f"slots + {policy} / stock whole layers, decode tokens/s",
                           row["decode_tps"] / stock, target=1.6, fail_at=1.0)
    return verdicts.exit_code()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--limit-s", type=float, default=500)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    pathlib.Path(args.work).mkdir(parents=True, exist_ok=True)
    pathlib.Path(args.out).mkdir(parents=True, exist_ok=True)
    if not slot_cache.available():
        print(slot_cache.STOCK_MESSAGE)
        return 1
    results = run(args)
    (pathlib.Path(args.out) / "gpu_slotcache.json").write_text(json.dumps(results, indent=2))
    print(json.dumps(results, indent=2))
    if args.smoke:   # the smoke run checks the path on the CPU, not the speed
        print("smoke run: every phase ran; no GPU, so no verdict")
        return 0
    return verdict(results)


if __name__ == "__main__":
    sys.exit(main())
