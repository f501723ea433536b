"""What the calibration measured on this machine: processor-variant speeds per weight kind.

The calibration (engine/runtime/cpu_calibration.py) runs a tiny model per weight kind in every
candidate build of the CPU back-end (the portable baseline and each installed variant this
processor runs) and keeps tokens/s of reading a prompt and of writing, on the child's CPU
clock, in ``cpu-calibration.json`` in the engine's cache folder. One entry per ``machine_key``:
the processor's model name, its flags and the installed variants' keys, so another
processor, a changed kernel (flags) or a rebuilt variant is measured again.

A candidate's *score* for a kind is the geometric mean of its prompt and writing speeds, each
÷ the baseline's: a chat turn both reads and writes, and the mean is the same on a small
model and a large one (a time-weighted mix would depend on how long prompts are).

Standard library only, like cpu_isa.py (bootstrap.py imports it before anything is installed).
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
from pathlib import Path
from typing import Any, Iterable, Mapping

log = logging.getLogger("rotary.cpu_isa")

FILE = "cpu-calibration.json"        # in the engine's cache folder, beside devices.json
VERSION = 1
BASELINE = "baseline"
MAX_ATTEMPTS = 2                     # failed calibrations before it is not started again
METRICS = ("prompt", "decode")


def machine_key(model: str, flags: Iterable[str], variants: Iterable[tuple[str, str]]) -> str:
    """The processor's model name, its flags and the installed (name, key) pairs."""
    text = json.dumps({"v": VERSION, "model": model, "flags": sorted(flags),
                       "variants": sorted(f"{name}={key}" for name, key in variants)},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def read(path: Path) -> dict[str, Any]:
    """Every entry of the file; {} where it is missing, unreadable or of another version."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return dict(data["entries"]) if data.get("version") == VERSION else {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def entry(path: Path | None, key: str) -> dict[str, Any] | None:
    found = read(path).get(key) if path is not None else None
    return found if isinstance(found, dict) else None


def write(path: Path, key: str, value: dict[str, Any]) -> None:
    """Add or replace ``key``'s entry (written whole, then renamed: readers never see half)."""
    entries = read(path)
    entries[key] = {**value, "when": time.time()}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{time.monotonic_ns()}.tmp")
        temporary.write_text(json.dumps({"version": VERSION, "entries": entries}, indent=1),
                             encoding="utf-8")
        temporary.replace(path)
    except OSError as exc:        # a read-only profile: measured again next time
        log.info("the processor calibration could not be kept in %s: %s", path, exc)


def scores(found: Mapping[str, Any] | None, kind: str) -> dict[str, float]:
    """Candidate name → score for ``kind`` (the baseline scores 1.0); {} when not measured."""
    speeds = ((found or {}).get("speeds") or {}).get(kind) or {}
    base = speeds.get(BASELINE) or {}
    if not all(float(base.get(m, 0)) > 0 for m in METRICS):
        return {}
    result = {}
    for name, row in speeds.items():
        ratios = [float((row or {}).get(m, 0)) / float(base[m]) for m in METRICS]
        if all(r > 0 for r in ratios):
            result[str(name)] = math.sqrt(ratios[0] * ratios[1])
    return result


def ratios(found: Mapping[str, Any] | None, kind: str, name: str) -> dict[str, float]:
    """``name``'s prompt and writing speeds ÷ the baseline's for ``kind`` ({} if unknown)."""
    speeds = ((found or {}).get("speeds") or {}).get(kind) or {}
    base, row = speeds.get(BASELINE) or {}, speeds.get(name) or {}
    try:
        return {m: float(row[m]) / float(base[m]) for m in METRICS}
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return {}
