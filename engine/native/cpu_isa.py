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

Standard library only: bootstrap.py imports it before anything is installed.
"""

from __future__ import annotations

import ctypes
import json
import logging
import os
import platform
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger("rotary.cpu_isa")

ENV = "ROTARY_CPU_ISA"
BASELINE = "baseline"
BASELINE_LABEL = "AVX2"
FOLDER = "cpu-isa"                        # under the back-ends' root
DESCRIPTION = "cpu-isa.json"
CPU_LIBRARY = "libggml-cpu.so.0"           # the soname every libggml links
BASE_LIBRARY = "libggml-base.so.0"
CPUINFO = Path("/proc/cpuinfo")


@dataclass(frozen=True)
class IsaVariant:
    name: str                # ggml's variant name: "icelake", "alderlake"
    label: str               # for people: "AVX-512 with VNNI"
    cpu_flags: frozenset[str]   # /proc/cpuinfo flags it needs
    folder: str


@dataclass(frozen=True)
class IsaChoice:
    variant: IsaVariant | None      # None: the baseline (the back-end folder's own library)
    reason: str                     # one line for the log: why this one
    loaded: bool = False            # preloaded in this process

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
        if (path / CPU_LIBRARY).is_file():
            found.append(variant)
    return tuple(found)


def choose(variants: tuple[IsaVariant, ...], flags: frozenset[str], wanted: str = "") -> IsaChoice:
    """The variant to run: ``wanted`` when this processor runs it, else the one needing the
    most instructions of those it runs (each is a superset of the baseline), else the baseline."""
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
    best = max(runnable, key=lambda v: (len(v.cpu_flags), v.name))
    return IsaChoice(best, "the processor's flags allow it; the most instructions of those installed")


def mapped(fragment: str = "libggml-cpu") -> tuple[str, ...]:
    """Paths of the files mapped into this process whose name contains ``fragment``."""
    try:
        lines = Path("/proc/self/maps").read_text(encoding="utf-8").splitlines()
    except OSError:
        return ()
    paths = {line.split(None, 5)[5] for line in lines if len(line.split(None, 5)) == 6}
    return tuple(sorted(p for p in paths if fragment in Path(p).name))


_lock = threading.Lock()
_active: IsaChoice | None = None
_handles: list[ctypes.CDLL] = []           # kept: never unloaded under ggml


def plan(root: Path | None, wanted: str | None = None, cpuinfo: str | None = None) -> IsaChoice:
    """What ``activate`` would choose, without loading anything."""
    if not supported_here() and cpuinfo is None:
        return IsaChoice(None, "processor variants are built for x86-64 Linux only")
    wanted = os.environ.get(ENV, "") if wanted is None else wanted
    return choose(installed(root), processor_flags(cpuinfo), wanted)


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
    return IsaChoice(choice.variant, choice.reason, loaded=True)


def active() -> IsaChoice | None:
    return _active


def _forget() -> None:
    """Tests: a process that loaded a variant keeps it; this only clears the record."""
    global _active
    with _lock:
        _active = None
