"""How long plan() takes on every shape fixture (target: under 50 ms each).

Run: python bench/bench_planner.py [--repeats N]. Each fixture is written and inspected
once; only plan() (and, separately, the whole fallback ladder) is timed. A script that
prints numbers, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.shapes import SHAPES, write_shape_fixture
from engine.model.inspect_gguf import inspect_model
from engine.plan import fallback_ladder, plan, pretend_hardware
from bench.verdict import Verdicts, reference_ms

BUDGET_MS = 50.0                  # information: the reference machine's budget
# The gate (issue 27: a ratio of one run, never an absolute time): the slowest plan() ÷ the
# machine's yardstick measured in the same run (bench/verdict.py::reference_ms).
RATIO_TARGET, RATIO_FAIL = 10.0, 40.0
MACHINES = ("8gb-laptop", "16gb-desktop", "cpu-only")


def time_ms(call, repeats: int) -> tuple[float, float]:
    """(median, worst) milliseconds over repeats."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), max(samples)


def bench_one(name: str, directory: Path, repeats: int) -> float:
    write_shape_fixture(name, directory)
    facts = inspect_model(str(directory / f"{name}.gguf"))
    slowest = 0.0
    for machine in MACHINES:
        hw = pretend_hardware(machine)
        median, worst = time_ms(lambda hw=hw, machine=machine: plan(facts, hw, preset=machine),
                                repeats)
        recipe = plan(facts, hw, preset=machine)
        ladder, _ = time_ms(lambda hw=hw, recipe=recipe: list(fallback_ladder(facts, hw, recipe)),
                            repeats)
        fast = worst < BUDGET_MS
        slowest = max(slowest, worst)
        print(f"{name:24} {machine:14} plan {median:6.2f} ms (worst {worst:6.2f})  "
              f"ladder {ladder:6.2f} ms  {'< 50 ms' if fast else 'SLOW'}")
    return slowest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        results = [bench_one(name, Path(directory), args.repeats) for name in sorted(SHAPES)]
    yardstick = reference_ms()
    verdicts = Verdicts()
    verdicts.info("slowest plan() over all fixtures and machines", max(results), " ms")
    verdicts.info("the yardstick (bench/verdict.py::reference_ms)", yardstick, " ms")
    verdicts.check("slowest plan() / the yardstick, same run", max(results) / yardstick,
                   target=RATIO_TARGET, fail_at=RATIO_FAIL, higher_is_better=False, unit="x",
                   kind="same-run ratio")
    return verdicts.exit_code()


if __name__ == "__main__":
    sys.exit(main())
