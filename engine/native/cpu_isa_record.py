"""What the calibration measured on this machine: processor-variant speeds per weight kind.

The calibration (engine/runtime/devices/cpu_calibration.py) runs a tiny model per weight kind in every
candidate build of the CPU back-end (the portable baseline and each installed variant this
processor runs) and keeps tokens/s of reading a prompt and of writing, on the child's CPU
clock, in ``cpu-calibration.json`` in the engine's cache folder. One entry per ``machine_key``:
the processor's model name, its flags and the installed variants' keys, so another
processor, a changed kernel (flags) or a rebuilt variant is measured again.

A candidate's *score* for a kind is its prompt speed ÷ the baseline's. Writing speeds are kept
too, for people, but do not choose: a real model's weights (gigabytes) stream from memory as it
writes, where the builds measured alike (bench/bench_cpu_isa.py's large models: icelake ÷
baseline 0.92-1.15, mostly ~1.0), while the calibration's small model writes from the caches,
where the AVX2 kernels led (icelake 0.80-0.98 on this Zen 4 class machine), which no real model
would see. Reading a prompt is compute-bound on both, and that is where the builds differ.

Standard library only, like cpu_isa.py (bootstrap.py imports it before anything is installed).
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from pathlib import Path
from typing import Any, Iterable, Mapping

log = logging.getLogger("rotary.cpu_isa")

FILE = "cpu-calibration.json"        # in the engine's cache folder, beside devices.json
VERSION = 1
BASELINE = "baseline"
MAX_ATTEMPTS = 2                     # failed calibrations before it is not started again
METRICS = ("prompt", "decode")
SCORED = "prompt"                    # what chooses (see above); "decode" is kept for people


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
    """Candidate name → score for ``kind``, its prompt speed ÷ the baseline's (the baseline
    scores 1.0); {} when not measured."""
    speeds = ((found or {}).get("speeds") or {}).get(kind) or {}
    base = float((speeds.get(BASELINE) or {}).get(SCORED, 0))
    if base <= 0:
        return {}
    return {str(name): float((row or {}).get(SCORED, 0)) / base for name, row in speeds.items()
            if float((row or {}).get(SCORED, 0)) > 0}


def ratios(found: Mapping[str, Any] | None, kind: str, name: str) -> dict[str, float]:
    """``name``'s prompt and writing speeds ÷ the baseline's for ``kind`` ({} if unknown)."""
    speeds = ((found or {}).get("speeds") or {}).get(kind) or {}
    base, row = speeds.get(BASELINE) or {}, speeds.get(name) or {}
    try:
        return {m: float(row[m]) / float(base[m]) for m in METRICS}
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return {}
