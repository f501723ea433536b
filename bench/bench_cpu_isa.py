"""The processor variant of the CPU back-end against the portable AVX2 baseline, one run.

Prompt and decode tokens/s of generated MoE models (engine/demo/tiny_moe.py): the speed
estimate's calibration model (12 layers, 1024 wide, 32 experts of 512) in Q4_K_M (llama.cpp's
own quantizer: what real downloads use) and the small "bench" model (8 layers, 512 wide) in
f16, each side in a child process of its own (a process keeps the libggml-cpu it
loaded: tests/support/cpu_isa_child.py), one thread, in both orders (baseline, variant,
variant, baseline) so that a machine getting busier favours neither. Ratios are variant ÷
baseline of the medians, on the child's CPU clock (ggml computes in the calling thread); wall
clock figures are printed too. The variant is the one this processor runs best of those
installed (engine/native/cpu_isa.py); with none, nothing is compared and the run says why.

Target: not slower (>= 1.0); CI fails only far below, at 0.85: a variant slower than the
baseline by more than the noise of a shared 2-core machine is a broken build or a bad choice.
Measured on this machine's AMD EPYC (Zen 4, shared and busy), icelake, CPU clock, two runs:
Q4_K_M calibration model prompt 1.18x / 1.19x, decode 1.17x / 1.04x; f16 bench model prompt
1.02x / 0.99x, decode 1.12x / 1.14x (on the small bench model in Q4_K_M the per-token overhead
dominates: prompt 1.06x, decode 0.98x).

Usage: python bench/bench_cpu_isa.py [--rounds 2] [--prompt 256] [--decode 16]
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_speed_estimate import LARGE  # noqa: E402
from bench.verdict import Verdicts  # noqa: E402
from engine.demo.tiny_moe import SPECS, write_tiny_moe  # noqa: E402
from engine.native import backends, cpu_isa  # noqa: E402

TARGET, FAIL_AT = 1.0, 0.85
CHILD_TIMEOUT_S = 600


def child(model: pathlib.Path, isa: str, out: pathlib.Path, args) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p), **{cpu_isa.ENV: isa})
    env.pop(backends.CHOICE_ENV, None)
    env.pop(backends.LIB_ENV, None)
    done = subprocess.run([sys.executable, "-m", "tests.support.cpu_isa_child", "speed", str(model),
                           str(out), str(args.rounds), str(args.prompt), str(args.decode)],
                          cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=CHILD_TIMEOUT_S, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the {isa} child failed: {done.stderr[-2000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if result["isa"] != isa or (isa != cpu_isa.BASELINE and not result["loaded"]):
        raise SystemExit(f"asked for {isa}, the child ran {result['isa']}: {result['reason']}")
    return result


def quantized(source: pathlib.Path) -> pathlib.Path:
    """Q4_K_M by llama.cpp's own quantizer, in a child (this process loads no llama.cpp)."""
    code = ("import sys; from bench.bench_speed_estimate import quantize_q4_k_m; "
            "print(quantize_q4_k_m(__import__('pathlib').Path(sys.argv[1])))")
    done = subprocess.run([sys.executable, "-c", code, str(source)], cwd=ROOT, capture_output=True,
                          text=True, timeout=CHILD_TIMEOUT_S, check=True)
    return pathlib.Path(done.stdout.strip().splitlines()[-1])


def compare(name: str, model: pathlib.Path, isa: str, args, verdicts: Verdicts, work: pathlib.Path) -> None:
    runs: dict[str, list[dict]] = {cpu_isa.BASELINE: [], isa: []}
    for side in (cpu_isa.BASELINE, isa, isa, cpu_isa.BASELINE):
        runs[side].append(child(model, side, work, args))
    for metric in ("prompt", "decode"):
        medians = {side: {clock: statistics.median(v for run in results for v in run[f"{metric}_{clock}"])
                          for clock in ("cpu", "wall")} for side, results in runs.items()}
        for side in (cpu_isa.BASELINE, isa):
            print(f"{name} {metric} {side}: {medians[side]['cpu']:.1f} tokens/s (CPU clock), "
                  f"{medians[side]['wall']:.1f} (wall clock)", flush=True)
        verdicts.info(f"{name} {metric} {isa} / baseline (wall clock)",
                      medians[isa]["wall"] / medians[cpu_isa.BASELINE]["wall"], "x")
        verdicts.check(f"{name} {metric} {isa} / baseline", medians[isa]["cpu"]
                       / medians[cpu_isa.BASELINE]["cpu"], TARGET, FAIL_AT, unit="x")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--prompt", type=int, default=256)
    parser.add_argument("--decode", type=int, default=16)
    args = parser.parse_args()
    choice = cpu_isa.plan(backends.backends_root(), wanted="")
    if choice.variant is None:
        print(f"processor variants: nothing to compare ({choice.reason})")
        return 0
    print(f"processor variant: {choice.name} ({choice.label}) against the {cpu_isa.BASELINE_LABEL} "
          f"baseline, {args.rounds} rounds of {args.prompt} prompt + {args.decode} decode tokens "
          "per child, one thread, both orders", flush=True)
    verdicts = Verdicts()
    with tempfile.TemporaryDirectory(prefix="rotary-bench-isa-") as tmp:
        work = pathlib.Path(tmp)
        large = write_tiny_moe(work / "calibration-f16.gguf", LARGE)
        compare("Q4_K_M", quantized(large), choice.name, args, verdicts, work)
        large.unlink()
        compare("f16", write_tiny_moe(work / "bench-f16.gguf", SPECS["bench"]), choice.name,
                args, verdicts, work)
    return verdicts.exit_code()


if __name__ == "__main__":
    sys.exit(main())
