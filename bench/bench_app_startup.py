"""Launch → main window shown, in a fresh process, with no model loaded.

The gate is a ratio of one run (issue 27): Rotary's launch ÷ the launch of an empty Qt
window (the same interpreter and Qt, nothing of Rotary), launched in turns. The seconds are
information (target under 2 s on the reference machine). Run:
``python bench/bench_app_startup.py [runs]``. Uses the offscreen Qt platform unless DISPLAY
is set; each run gets a fresh ROTARY_HOME (first start).
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
TARGET_S = 2.0                    # information: the seconds on the reference machine
# Rotary's launch ÷ an empty Qt window's, medians of one run (3.7x measured on a shared,
# loaded 2-core machine: 1.10 s ÷ 0.30 s); 6.5x is what Rotary adds, doubled.
RATIO_TARGET, RATIO_FAIL = 4.5, 6.5
ROTARY = ("-m", "app", "--no-model", "--no-wizard", "--quit-after-shown")
EMPTY_WINDOW = ("-c", "import sys\n"
                "from PySide6.QtWidgets import QApplication, QMainWindow\n"
                "app = QApplication(sys.argv)\nwindow = QMainWindow()\nwindow.show()\n"
                "app.processEvents()\nprint('WINDOW_SHOWN', flush=True)\n")


def one_launch(command: tuple[str, ...] = ROTARY) -> float:
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, ROTARY_HOME=home)
        if not env.get("DISPLAY"):
            env["QT_QPA_PLATFORM"] = "offscreen"
        start = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, *command],
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
    one_launch(), one_launch(EMPTY_WINDOW)        # warm the OS file cache once
    times, empty = [], []
    for _ in range(runs):                         # in turns: both see the same machine
        times.append(one_launch())
        empty.append(one_launch(EMPTY_WINDOW))
    print(f"launch to window shown, {runs} runs: median {statistics.median(times):.2f} s, "
          f"worst {max(times):.2f} s, best {min(times):.2f} s (target < {TARGET_S:.1f} s); "
          f"an empty Qt window: median {statistics.median(empty):.2f} s")
    verdicts = Verdicts()
    verdicts.info("median launch to window shown", statistics.median(times), " s")
    verdicts.check("median launch to window shown / an empty Qt window's",
                   statistics.median(times) / statistics.median(empty), target=RATIO_TARGET,
                   fail_at=RATIO_FAIL, higher_is_better=False, unit="x", kind="same-run ratio")
    return verdicts.exit_code()


if __name__ == "__main__":
    sys.exit(main())
