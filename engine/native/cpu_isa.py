"""Which processor code the CPU back-end runs: the best instruction-set variant this processor
supports, preloaded before llama_cpp loads.

The wheel's CPU back-end is a portable AVX2 build (``GGML_NATIVE=OFF``: SSE4.2, AVX, F16C, FMA,
AVX2, BMI2). In this build (no ``GGML_BACKEND_DL``) the CPU back-end is its own library with a
stable soname, ``libggml-cpu.so.0``, so a variant is that one library built for more
instructions (llama_build.py, names and flag sets from ggml's own list), installed as
``<backends root>/cpu-isa/<name>/libggml-cpu.so.0`` with a ``cpu-isa.json`` naming the
processor flags it needs. Before llama_cpp loads, ``activate`` preloads with RTLD_GLOBAL the
chosen back-end folder's ``libggml-base.so.0`` and then the variant's ``libggml-cpu.so.0``:
when libllama/libggml load later, their NEEDED ``libggml-cpu.so.0`` is the library already
loaded (glibc matches a NEEDED entry against loaded sonames before it searches), and the
variant's own NEEDED ``libggml-base.so.0`` is the chosen folder's. The handles are kept for
the process lifetime (a library is never unloaded under ggml).

Which processor: Linux's ``/proc/cpuinfo`` ``flags`` line, which lists only what the kernel
enabled (AVX-512 is absent where the OS does not save its registers). x86-64 Linux only;
elsewhere the baseline runs. ``ROTARY_CPU_ISA=baseline|<name>`` chooses one (tests, IT); a
named variant this processor cannot run is refused (it would stop the app with an illegal
instruction), and the baseline runs.

Which of those it runs: the flags say what *can* run, not what runs fastest (on an AMD Zen 4
class machine issue 45's CI run read f16 prompts 17% slower in the AVX-512 build than in the
AVX2 one, Q4_K prompts ~20% faster; AVX-VNNI alone is no faster there). So where a calibration measured this processor (engine/runtime/devices/cpu_calibration.py:
a tiny model per weight type, each candidate in a child process, kept in
``cpu-calibration.json`` in the engine's cache folder, keyed by ``machine_key``: the
processor's model name, its flags and the installed variants' keys), the load runs the
fastest candidate for the model's main weight type (``expect_weights``, from the GGUF header);
without a measurement, the one needing the most instructions (the flags' choice).

Standard library only: bootstrap.py imports it before anything is installed.
"""

from __future__ import annotations

import ctypes
import dataclasses
import json
import logging
import os
import platform
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from engine.native import cpu_isa_record as record

log = logging.getLogger("rotary.cpu_isa")

ENV = "ROTARY_CPU_ISA"
BASELINE = "baseline"
BASELINE_LABEL = "AVX2"
FOLDER = "cpu-isa"                        # under the back-ends' root
DESCRIPTION = "cpu-isa.json"
CPU_LIBRARY = "libggml-cpu.so.0"           # the soname every libggml links
BASE_LIBRARY = "libggml-base.so.0"
CPUINFO = Path("/proc/cpuinfo")
MEASURED, FLAGS = "measured", "flags"     # IsaChoice.basis
RECORD_VERSION = 1
# The weight kinds the calibration measures, and the kind whose kernels a ggml weight type
# shares: floats (f16 dot products), the 32-value blocks read against Q8_0 activations, and
# the 256-value k-quants and i-quants read against Q8_K activations. Others: the flags decide.
WEIGHT_KINDS = ("Q4_K", "Q8_0", "F16")
# The flags' choice stays unless another build measured more than this much faster: the
# calibration's scores moved by ±3-5% run to run on a busy 2-core machine, and the benchmark
# accepts a choice within 3% of the fastest (bench/bench_cpu_isa.py).
NOISE = 0.03
_FLOAT_TYPES = frozenset({"F16", "BF16", "F32"})
_BLOCK32_TYPES = frozenset({"Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q8_1", "IQ4_NL", "MXFP4"})


@dataclass(frozen=True)
class IsaVariant:
    name: str                # ggml's variant name: "icelake", "alderlake"
    label: str               # for people: "AVX-512 with VNNI"
    cpu_flags: frozenset[str]   # /proc/cpuinfo flags it needs
    folder: str
    key: str = ""            # its build key and library's size and time: rebuilt, measured again


@dataclass(frozen=True)
class IsaChoice:
    variant: IsaVariant | None      # None: the baseline (the back-end folder's own library)
    reason: str                     # one line for the log: why this one
    loaded: bool = False            # preloaded in this process
    basis: str = ""                 # MEASURED, FLAGS, or "" (asked for, or nothing to choose)
    weights: str = ""               # the weight kind it was chosen for ("F16"), where measured
    score: float = 0.0              # measured: its speed ÷ the baseline's for those weights

    @property
    def name(self) -> str:
        return self.variant.name if self.variant else BASELINE

    @property
    def label(self) -> str:
        return self.variant.label if self.variant else f"{BASELINE_LABEL} (portable baseline)"


def supported_here() -> bool:
    return sys.platform.startswith("linux") and platform.machine().lower() in ("x86_64", "amd64")


def processor_flags(cpuinfo: str | None = None) -> frozenset[str]:
    """The instruction-set flags of the first processor in ``/proc/cpuinfo`` (or ``cpuinfo``
    text); empty where there is none."""
    if cpuinfo is None:
        try:
            cpuinfo = CPUINFO.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return frozenset()
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return frozenset(value.split())
    return frozenset()


def processor_model(cpuinfo: str | None = None) -> str:
    """The first processor's ``model name`` ("AMD EPYC 9R14"), or "" where there is none."""
    if cpuinfo is None:
        try:
            cpuinfo = CPUINFO.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name":
            return " ".join(value.split())
    return ""


def weight_kind(type_name: str) -> str:
    """The calibrated kind (``WEIGHT_KINDS``) whose kernels ``type_name`` runs on, or ""."""
    name = type_name.strip().upper()
    if name in _FLOAT_TYPES:
        return "F16"
    if name in _BLOCK32_TYPES:
        return "Q8_0"
    if name.endswith("_K") or name.startswith(("IQ", "TQ")):
        return "Q4_K"
    return ""


def runs_on(needed: frozenset[str] | set[str], flags: frozenset[str]) -> bool:
    return bool(needed) and set(needed) <= flags


def installed(root: Path | None) -> tuple[IsaVariant, ...]:
    """Every ``<root>/cpu-isa/<name>/`` with its library and a readable description."""
    folder = root / FOLDER if root is not None else None
    found = []
    for path in sorted(folder.iterdir()) if folder is not None and folder.is_dir() else ():
        try:
            data = json.loads((path / DESCRIPTION).read_text(encoding="utf-8"))
            variant = IsaVariant(str(data["name"]), str(data["label"]),
                                 frozenset(map(str, data["cpu_flags"])), str(path))
        except (OSError, ValueError, KeyError, TypeError):
            continue
        library = path / CPU_LIBRARY
        if library.is_file():
            stat = library.stat()
            found.append(IsaVariant(variant.name, variant.label, variant.cpu_flags, variant.folder,
                                    f"{data.get('key', '')}:{stat.st_size}:{stat.st_mtime_ns}"))
    return tuple(found)


def choose(variants: tuple[IsaVariant, ...], flags: frozenset[str], wanted: str = "",
           measured: Mapping[str, float] | None = None, weights: str = "") -> IsaChoice:
    """The variant to run: ``wanted`` when this processor runs it; else, where ``measured``
    (candidate name → speed ÷ the baseline's for ``weights``, cpu_isa_record.scores) covers
    the baseline and a variant it runs, the fastest of those measured (the flags' choice where
    it is within ``NOISE`` of it); else the one needing the most instructions of those it runs
    (each is a superset of the baseline); else the baseline."""
    wanted = wanted.strip().lower()
    if wanted == BASELINE:
        return IsaChoice(None, f"{ENV}={BASELINE}")
    runnable = [v for v in variants if runs_on(v.cpu_flags, flags)]
    if wanted:
        named = next((v for v in variants if v.name.lower() == wanted), None)
        if named is None:
            return IsaChoice(None, f"{ENV}={wanted}: no such variant is installed")
        if named not in runnable:
            missing = " ".join(sorted(named.cpu_flags - flags))
            return IsaChoice(None, f"{ENV}={wanted}: this processor lacks {missing}")
        return IsaChoice(named, f"{ENV}={wanted}")
    if not variants:
        return IsaChoice(None, "no processor variant is installed")
    if not runnable:
        return IsaChoice(None, "this processor runs none of the installed variants")
    by_flags = max(runnable, key=lambda v: (len(v.cpu_flags), v.name))
    measured = measured or {}
    candidates = [v for v in runnable if v.name in measured]     # a failed child: not chosen
    if BASELINE in measured and candidates:
        score = {v: measured[v.name if v else BASELINE] for v in (None, *candidates)}
        best = max(score, key=lambda v: score[v])
        if by_flags in score and score[by_flags] * (1 + NOISE) >= score[best]:
            best = by_flags          # a near tie: the calibration's noise must not decide it
        return IsaChoice(best, f"measured fastest at reading {weights} weights: {score[best]:.2f}x "
                               "the baseline's prompt speed", basis=MEASURED, weights=weights,
                         score=score[best])
    return IsaChoice(by_flags, "the processor's flags allow it; the most instructions of those "
                               "installed (not measured yet)", basis=FLAGS, weights=weights)


def machine_key(variants: tuple[IsaVariant, ...], flags: frozenset[str],
                model: str | None = None) -> str:
    """The calibration's key on this machine (cpu_isa_record.machine_key)."""
    model = processor_model() if model is None else model
    return record.machine_key(model, flags, ((v.name, v.key) for v in variants))


def mapped(fragment: str = "libggml-cpu") -> tuple[str, ...]:
    """Paths of the files mapped into this process whose name contains ``fragment``."""
    try:
        lines = Path("/proc/self/maps").read_text(encoding="utf-8").splitlines()
    except OSError:
        return ()
    paths = {line.split(None, 5)[5] for line in lines if len(line.split(None, 5)) == 6}
    return tuple(sorted(p for p in paths if fragment in Path(p).name))


_lock = threading.RLock()                 # activate() plans under it
_active: IsaChoice | None = None
_weights = ""                             # expect_weights(): the model about to load
_measurements: Path | None = None
_handles: list[ctypes.CDLL] = []           # kept: never unloaded under ggml


def expect_weights(type_name: str, measurements: Path | None) -> None:
    """Before llama_cpp loads (engine/runtime/loader.py): the model's main weight type (a ggml
    type name from the GGUF header) and the calibration file, for ``activate``'s choice."""
    global _weights, _measurements
    with _lock:
        _weights, _measurements = type_name, measurements


def plan(root: Path | None, wanted: str | None = None, cpuinfo: str | None = None,
         weights: str | None = None, measurements: Path | None = None) -> IsaChoice:
    """What ``activate`` would choose for a model of ``weights`` (a ggml type name; None: the
    one ``expect_weights`` gave), without loading anything."""
    if not supported_here() and cpuinfo is None:
        return IsaChoice(None, "processor variants are built for x86-64 Linux only")
    wanted = os.environ.get(ENV, "") if wanted is None else wanted
    weights = _weights if weights is None else weights
    measurements = measurements or _measurements
    variants, kind = installed(root), weight_kind(weights)
    found = measurement(root, measurements, cpuinfo) if kind and variants and not wanted else None
    return choose(variants, processor_flags(cpuinfo), wanted, record.scores(found, kind), kind)


def measurement(root: Path | None, measurements: Path | None,
                cpuinfo: str | None = None) -> dict | None:
    """This machine's calibration entry (cpu_isa_record) in ``measurements``, or None."""
    flags = processor_flags(cpuinfo)
    return record.entry(measurements, machine_key(installed(root), flags, processor_model(cpuinfo)))


def activate(base_folder: str, root: Path | None) -> IsaChoice:
    """Before llama_cpp loads: preload ``base_folder``'s libggml-base and the chosen variant's
    libggml-cpu. Never raises: a failure leaves the baseline (logged). Once a variant is
    loaded the process keeps it; until then each call chooses again (tests select often)."""
    global _active
    with _lock:
        if _active is not None and _active.loaded:
            return _active
        choice = plan(root)
        if choice.variant is not None:
            choice = _preload(choice, Path(base_folder))
        _active = choice
        log.info("processor code: %s from %s (%s)", choice.label,
                 choice.variant.folder if choice.variant else base_folder, choice.reason)
        return choice


def _preload(choice: IsaChoice, base_folder: Path) -> IsaChoice:
    assert choice.variant is not None
    already = mapped()
    if already:                  # some libggml-cpu is loaded: that one runs
        return IsaChoice(None, f"a CPU back-end was loaded before the choice ({already[0]})")
    base = base_folder / BASE_LIBRARY
    if not base.is_file():
        return IsaChoice(None, f"{base} is missing: the variant needs the back-end's own base library")
    try:
        _handles.append(ctypes.CDLL(str(base), mode=ctypes.RTLD_GLOBAL))
        _handles.append(ctypes.CDLL(str(Path(choice.variant.folder) / CPU_LIBRARY),
                                    mode=ctypes.RTLD_GLOBAL))
    except OSError as exc:
        log.warning("the %s processor variant did not load: %s", choice.variant.name, exc)
        return IsaChoice(None, f"the {choice.variant.name} variant did not load ({exc})")
    return dataclasses.replace(choice, loaded=True)


def active() -> IsaChoice | None:
    return _active


def _forget() -> None:
    """Tests: a process that loaded a variant keeps it; this only clears the record."""
    global _active, _weights, _measurements
    with _lock:
        _active, _weights, _measurements = None, "", None
