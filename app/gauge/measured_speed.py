"""Writing speeds measured on this computer, per model file and setting, for the model check.

The engine measures the writing speed of every answer (``ResponseStats.decode_tps``). The
last few answers of at least ``MIN_TOKENS`` tokens are kept per model file and preset in a
small JSON file in the data folder. The model check (Settings, the first-time setup) then
names one figure for that model, their median, with their spread as its range, instead of
the bandwidth model's 2-5x range. A measurement is not carried over to another model or
setting: between the bench's fixtures it missed by up to 2-5x (bench/bench_speed_estimate.py),
while three answers of one model lay within 1.16-1.23x of each other. No Qt here.
"""

from __future__ import annotations

import json
import logging
import os
import statistics
import tempfile
from pathlib import Path

MIN_TOKENS = 16          # shorter answers time little more than their first token
KEEP = 5                 # answers kept per model and setting
MIN_SPREAD = 0.1         # the range is never narrower than ±10% of the figure
log = logging.getLogger("rotary.speed")


class MeasuredSpeeds:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.samples: dict[str, list[float]] = self._load()

    @staticmethod
    def key(model_path: str, preset: str) -> str:
        return f"{preset}|{os.path.normcase(os.path.abspath(model_path))}"

    def add(self, model_path: str, preset: str, tokens: int, decode_tps: float) -> bool:
        """Keep one answer's writing speed; False when it was too short to time."""
        if tokens < MIN_TOKENS or decode_tps <= 0:
            return False
        key = self.key(model_path, preset)
        self.samples[key] = (self.samples.get(key, []) + [round(decode_tps, 2)])[-KEEP:]
        self._save()
        return True

    def range_for(self, model_path: str, preset: str) -> tuple[float, float, float] | None:
        """(figure, low, high): the kept answers' median and their range, at least ±10%
        around it; None before any answer was measured."""
        speeds = self.samples.get(self.key(model_path, preset))
        if not speeds:
            return None
        middle = statistics.median(speeds)
        return (middle, min(min(speeds), middle * (1 - MIN_SPREAD)),
                max(max(speeds), middle * (1 + MIN_SPREAD)))

    def _load(self) -> dict[str, list[float]]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(k): [float(v) for v in values if isinstance(v, (int, float)) and v > 0]
                for k, values in data.items() if isinstance(values, list)}

    def _save(self) -> None:
        """Written whole and then renamed, so a crash never leaves half a file."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile("w", dir=self.path.parent, delete=False,
                                             suffix=".tmp", encoding="utf-8") as handle:
                json.dump(self.samples, handle)
            os.replace(handle.name, self.path)
        except OSError as error:        # a read-only data folder only costs the figure
            log.warning("could not keep the measured speed: %r", error)
