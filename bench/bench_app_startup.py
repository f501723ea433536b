"""Launch → main window shown, in a fresh process, with no model loaded.

Target: under 2 s. Run: ``python bench/bench_app_startup.py [runs]``. Uses the offscreen
Qt platform unless DISPLAY is set; each run gets a fresh ROTARY_HOME (first start).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.verdict import Verdicts  # noqa: E402
TARGET_S = 2.0
FAIL_S = 4.0                      # twice the target: a regression, not noise


def one_launch() -> float:
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, ROTARY_HOME=home)
        if not env.get("DISPLAY"):
            env["QT_QPA_PLATFORM"] = "offscreen"
        start = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "app", "--no-model", "--no-wizard", "--quit-after-shown"],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for line in process.stdout:
            if line.startswith("WINDOW_SHOWN"):
                elapsed = time.perf_counter() - start
                break
        else:
            raise RuntimeError("the window was never shown")
        process.wait(30)
        return elapsed


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    one_launch()                                  # warm the OS file cache once
    times = [one_launch() for _ in range(runs)]
    print(f"launch to window shown, {runs} runs: median {statistics.median(times):.2f} s, "
          f"worst {max(times):.2f} s, best {min(times):.2f} s (target < {TARGET_S:.1f} s)")
    verdicts = Verdicts()
    verdicts.check("median launch to window shown", statistics.median(times), target=TARGET_S,
                   fail_at=FAIL_S, higher_is_better=False, unit=" s")
    return verdicts.exit_code()


if __name__ == "__main__":
    sys.exit(main())
