"""One rule for every benchmark's verdict line, so CI reads them alike.

Gates are ratios measured in one run (Rotary's step ÷ LRU's step on the same routing, the
app's start ÷ an empty Qt window's start, ...), never absolute times: an absolute time
differs by 2-3x between machines of one kind, so such a gate blocks landings at random.
Absolute figures are printed as information (``info``); ``check`` refuses a time unit.

Each figure is labelled *measured* (in this run, on this machine) or *modelled* (the
residency cost model, calibrated to one published number). A result that misses its target
but stays inside the stated margin is printed as BELOW TARGET and does not fail: timings on
a shared 2-core machine move by ±15%. A result beyond the margin (the ``fail_at`` bound) is
FAR BELOW TARGET and makes the benchmark exit non-zero, so that CI catches a real regression.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

# Units of absolute time: printed by ``info``, never gated by ``check`` (issue 27).
TIME_UNITS = ("s", "ms", "us", "µs", "ns")


@dataclass
class Verdicts:
    lines: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)

    def check(self, name: str, value: float, target: float, fail_at: float, *,
              higher_is_better: bool = True, unit: str = "", kind: str = "measured",
              guard: bool = False) -> bool:
        """Print and record one figure; returns False when it is beyond ``fail_at``.

        ``guard``: the target is not met yet and ``fail_at`` is a regression guard set from
        today's measurement, not a noise margin around the target; the line says so."""
        if unit.strip() in TIME_UNITS:
            raise ValueError(f"{name}: an absolute time is information (Verdicts.info), "
                             "not a gate; gate on a ratio measured in the same run")
        meets = value >= target if higher_is_better else value <= target
        far = value < fail_at if higher_is_better else value > fail_at
        sign = ">=" if higher_is_better else "<="
        within = "not met; above the regression guard" if guard else "within margin"
        word = "OK" if meets else ("FAR BELOW TARGET" if far else f"BELOW TARGET ({within})")
        bound = "regression guard" if guard else "fails CI beyond"
        line = (f"{name}: {value:.3f}{unit} [{kind}]  target {sign} {target:g}{unit}, "
                f"{bound} {fail_at:g}{unit}  {word}")
        print(line, flush=True)
        self.lines.append(line)
        if far:
            self.failed.append(name)
        return not far

    def info(self, name: str, value: float, unit: str = "", kind: str = "measured") -> None:
        """An absolute figure, for people: it never fails a run."""
        line = f"{name}: {value:.3f}{unit} [{kind}, information: not a gate]"
        print(line, flush=True)
        self.lines.append(line)

    def exit_code(self) -> int:
        if self.failed:
            print(f"FAILED (far below target): {', '.join(self.failed)}", flush=True)
            return 1
        return 0


def reference_ms(repeats: int = 5) -> float:
    """Milliseconds of a fixed pure-Python workload (sorting 50,000 pseudo-random numbers),
    best of ``repeats``: the yardstick of this machine, now, for the benchmarks whose work
    has no natural same-run twin (a plan, a GUI stall). Measure it beside the work it scales."""
    values = [(i * 2654435761) % 1_000_003 for i in range(50_000)]
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        sorted(values)
        best = min(best, (time.perf_counter() - start) * 1000)
    return best
