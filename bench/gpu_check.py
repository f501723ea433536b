"""One prepared check for a machine with an NVIDIA GPU (run it where one is lent).

What it shows, on the bench fixture (no model hub is reachable anywhere we run):
1. NVML sees the card (name, VRAM, PCIe) and read_vram() answers;
2. the 8 GB-style placement takes effect on CUDA: the chosen layers' expert tensors are
   reported on CPU, everything else on the GPU;
3. writing speed all-on-GPU vs experts-half-in-RAM, and routing record on vs off.
Without a GPU it says so and still runs the CPU path. Prints ratios from one run.

    python bench/gpu_check.py            # after: python3 bootstrap.py test (CUDA build if nvcc)
"""

from __future__ import annotations

import pathlib
import sys
import tempfile
from dataclasses import replace

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_engine import EngineSide, bench_recipe  # noqa: E402
from engine.demo.tiny_moe import SPECS, write_tiny_moe  # noqa: E402
from engine.plan.hardware import probe, read_vram  # noqa: E402
from engine.runtime.llama_model import NativeModel  # noqa: E402


def describe_hardware() -> bool:
    hardware = probe()
    print(f"NVML: {hardware.nvml_status}")
    for gpu in hardware.gpus:
        print(f"  GPU {gpu.index}: {gpu.name}, {gpu.total_bytes / 2**30:.1f} GiB, "
              f"free {gpu.free_bytes / 2**30:.1f} GiB, PCIe gen {gpu.pcie_gen} x{gpu.pcie_width}")
    print(f"read_vram(): {read_vram(0)}")
    return bool(hardware.gpus)


def check_placement(path: pathlib.Path, has_gpu: bool) -> None:
    half = tuple(range(SPECS["bench"].n_layer // 2))
    recipe = replace(bench_recipe(1), n_gpu_layers=-1 if has_gpu else 0, cpu_expert_layers=half)
    model = NativeModel(str(path), recipe)
    try:
        placed = model.placement.overridden
    finally:
        model.close()
    expected = {f"blk.{i}.ffn_{p}_exps.weight" for i in half for p in ("gate", "up", "down")}
    print(f"placement: {len(placed)} expert tensors overridden to {sorted(set(placed.values()))}; "
          f"{'as planned' if set(placed) == expected else 'NOT as planned'}")


def speed(path: pathlib.Path, recipe, record: bool) -> float:
    side = EngineSide(path, recipe, record_routing=record)
    try:
        return max(side.decode_tps(96, record) for _ in range(3))
    finally:
        side.close()


def main() -> int:
    has_gpu = describe_hardware()
    with tempfile.TemporaryDirectory() as folder:
        path = write_tiny_moe(pathlib.Path(folder) / "bench-moe.gguf", "bench")
        check_placement(path, has_gpu)
        base = replace(bench_recipe(1), n_gpu_layers=-1 if has_gpu else 0)
        half = replace(base, cpu_expert_layers=tuple(range(SPECS["bench"].n_layer // 2)))
        all_gpu, half_ram = speed(path, base, False), speed(path, half, False)
        recorded = speed(path, base, True)
    print(f"writing speed: all layers {all_gpu:.0f} tok/s, half the experts in RAM "
          f"{half_ram:.0f} tok/s (ratio {half_ram / all_gpu:.2f})")
    print(f"routing record on / off: {recorded / all_gpu:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
