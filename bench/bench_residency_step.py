"""Cost of one policy step for a 256-expert top-8 layer (target: rotary <= 20 us in Python).

Prints measured microseconds per ``policy.step`` call: the best of several repeats over a
3000-token synthetic layer (the machine is shared; the best repeat is the least disturbed).
Run: python bench/bench_residency_step.py [--tokens N] [--repeats R]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from engine.residency import presets
from engine.residency.budget import Budget
from engine.residency.policy import make_policy
from engine.residency.synth import synth_trace

TARGET_US = 20.0


def time_policy(name: str, rows: list, fraction: float, repeats: int, as_numpy: bool) -> list[float]:
    """Microseconds per step, one value per repeat (a fresh policy each time)."""
    runs = []
    for _ in range(repeats):
        policy = make_policy(name, Budget.from_fraction(1, 256, fraction), 256, 8)
        policy.prepare(np.asarray(rows)[:, None, :])
        feed = [np.asarray(r, dtype=np.int16) for r in rows] if as_numpy else rows
        start = time.process_time()
        for ids in feed:
            policy.step(0, ids)
        runs.append(1e6 * (time.process_time() - start) / len(rows))
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tokens", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    trace = synth_trace(presets.spec("qwen-like", n_tokens=args.tokens, n_layers=1, prompt=0,
                                     mark_contexts=False))
    rows = trace.ids[:, 0].tolist()                                  # [tokens][k]
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"{args.tokens} steps x {args.repeats} repeats; 256 experts, top-8")
    print(f"{'policy':<8}{'slots':>8}{'input':>8}{'best us':>10}{'median us':>11}  target")
    for name in ("rotary", "lru", "lfru", "opt"):
        for fraction in (0.125, 0.25, 0.5):
            for as_numpy in (False, True) if name == "rotary" else (False,):
                runs = time_policy(name, rows, fraction, args.repeats, as_numpy)
                mark = ("ok" if min(runs) <= TARGET_US else "OVER") if name == "rotary" else ""
                print(f"{name:<8}{round(fraction * 256):>8}{'numpy' if as_numpy else 'list':>8}"
                      f"{min(runs):>10.1f}{statistics.median(runs):>11.1f}  {mark}")


if __name__ == "__main__":
    main()
