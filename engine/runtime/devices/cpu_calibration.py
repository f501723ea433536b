"""Which build of the CPU back-end runs fastest on this processor, measured once per machine.

The processor's flags say which builds (engine/native/cpu_isa.py) can run, not which is
fastest (on an AMD Zen 4 class machine issue 45's CI run read f16 prompts 17% slower in the
AVX-512 build than in the portable AVX2 one, Q4_K prompts ~20% faster). The calibration measures, per weight kind (Q4_K, Q8_0, F16),
a tiny model written here (``CALIBRATION_SPEC``: the f16 file from engine/demo, the others by
llama.cpp's own quantizer) in every candidate build, each in a child process of its own (a
process keeps the libggml-cpu it loaded): a prompt read and a few tokens written, one thread,
timed on the child's own CPU clock. The speeds go into ``cpu-calibration.json`` in the
engine's cache folder (engine/native/cpu_isa_record.py), where the next load finds them; the
prompt speed chooses (why: cpu_isa_record.py).

When it runs (nothing the user waits for, no setting): after a load (``after_load``), when
this machine has no measurement yet and at least one variant the processor runs is
installed, a driver process starts in the background at the scheduler's idle priority
(Linux SCHED_IDLE; its children inherit it): it gets a core only when nothing else wants one,
so an answer being written does not wait for it, and it times CPU seconds, so waiting for a
core does not change what it measures. The load has returned by then; a daemon thread only
waits for the driver to log how it ended. A process keeps the build it loaded, so the
measurement serves from the next start; until then the flags' choice runs. Not at install
time: the installed bundle never runs bootstrap.py, and a measurement after the first load is
the same measurement without the wait. Once per machine key; after a failure at most
``cpu_isa_record.MAX_ATTEMPTS`` times. ``ROTARY_CPU_CALIBRATION=0`` keeps it from starting in
the background (tests and benchmarks, which run it themselves where they mean to).
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.demo.tiny_moe import TinyMoeSpec, write_tiny_moe
from engine.native import backends, cpu_isa
from engine.native import cpu_isa_record as record

log = logging.getLogger("rotary.cpu_isa")

SWITCH_ENV = "ROTARY_CPU_CALIBRATION"     # "0": never started in the background
CALIBRATE_FLAG = "--rotary-calibrate-cpu"  # the frozen app runs the driver and children with it
LOCK_FILE = "cpu-calibration.lock"
LOCK_STALE_S = 600.0                     # a driver that died leaves its lock; this old, ignored
CHILD_TIMEOUT_S = 300.0
# Wide enough that the kernels, not the per-token overhead, set the speed (the small
# benchmark model in Q4_K_M measured the overhead: decode 0.98x where larger ones read 1.04-1.17x).
CALIBRATION_SPEC = TinyMoeSpec(n_layer=2, n_embd=1024, n_expert=8, n_expert_used=2, n_ff_exp=1024,
                               n_head=8, n_head_kv=2, head_dim=128, seed=7,
                               name="rotary-cpu-calibration")
QUANTIZED = {"Q4_K": "Q4_K_M", "Q8_0": "Q8_0"}    # weight kind → llama.cpp's file type


@dataclass(frozen=True)
class Workload:
    """What each child measures per weight kind; the first of ``rounds + 1`` is a warm-up."""

    rounds: int = 3
    prompt: int = 128
    decode: int = 48
    passes: int = 2                 # 2: every candidate in both orders (A B C C B A)
    spec: TinyMoeSpec = CALIBRATION_SPEC


def measurements_path() -> Path:
    return backends.cache_path().parent / record.FILE


def candidates(root: Path | None = None, flags: frozenset[str] | None = None) -> tuple[str, ...]:
    """The baseline and every installed variant this processor (``flags``: one with these)
    runs; () when there is no choice to make (nothing installed or runnable, another platform)."""
    if not cpu_isa.supported_here():
        return ()
    flags = cpu_isa.processor_flags() if flags is None else flags
    runnable = tuple(v.name for v in cpu_isa.installed(root if root is not None else
                                                        backends.backends_root())
                     if cpu_isa.runs_on(v.cpu_flags, flags))
    return (record.BASELINE, *runnable) if runnable else ()


def current_key(root: Path | None = None) -> str:
    root = root if root is not None else backends.backends_root()
    return cpu_isa.machine_key(cpu_isa.installed(root), cpu_isa.processor_flags())


def wanted(path: Path | None = None) -> bool:
    """True when this machine has candidates but no measurement (and attempts are left)."""
    if not candidates():
        return False
    found = record.entry(path or measurements_path(), current_key())
    if found is None:
        return True
    return not found.get("speeds") and int(found.get("attempts", 0)) < record.MAX_ATTEMPTS


# ---- in the background, after a load -------------------------------------------------------

def after_load() -> bool:
    """Start the calibration in the background where it is wanted; True when started. Never
    raises and never waits: the load it follows has finished."""
    if os.environ.get(SWITCH_ENV, "").strip() == "0":
        return False
    lock = None
    try:
        if not wanted() or not _take_lock(measurements_path().parent / LOCK_FILE):
            return False
        lock = measurements_path().parent / LOCK_FILE      # the driver removes it when done
        driver = subprocess.Popen(_command(["driver"]), env=_child_env(),
                                  stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, start_new_session=True)
    except Exception:  # an optimisation: the flags' choice stays
        log.warning("the processor calibration could not start", exc_info=True)
        if lock is not None:
            lock.unlink(missing_ok=True)
        return False
    threading.Thread(target=_wait_for, args=(driver,), name="rotary-cpu-calibration",
                     daemon=True).start()
    log.info("processor calibration started in the background (process %d)", driver.pid)
    return True


def _wait_for(driver: subprocess.Popen) -> None:
    _, stderr = driver.communicate()
    if driver.returncode == 0:
        log.info("processor calibration done: %s", stderr.decode(errors="replace").strip()[-400:])
    else:
        log.warning("processor calibration failed (exit status %s): %s", driver.returncode,
                    stderr.decode(errors="replace").strip()[-1000:])


def _take_lock(path: Path) -> bool:
    """One calibration per machine at a time (two app windows, the command line)."""
    try:
        if path.exists() and time.time() - path.stat().st_mtime > LOCK_STALE_S:
            path.unlink(missing_ok=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except OSError:
        return False
    os.write(handle, str(os.getpid()).encode())
    os.close(handle)
    return True


def _idle_priority() -> None:
    """This process and its children run only on cores nothing else wants."""
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        try:
            os.nice(19)
        except (AttributeError, OSError):
            pass


def driver_main(path: Path | None = None) -> int:
    """The background driver: measure, keep the result, release the lock."""
    _idle_priority()
    path = path or measurements_path()
    try:
        found = calibrate(path)
    finally:
        (path.parent / LOCK_FILE).unlink(missing_ok=True)
    print(describe(found), file=sys.stderr, flush=True)
    return 0 if found.get("speeds") else 1


# ---- the measurement -----------------------------------------------------------------------

def calibrate(path: Path | None, workload: Workload = Workload(),
              names: tuple[str, ...] | None = None) -> dict[str, Any]:
    """Measure every candidate (``names``: these) on every weight kind, a child each, in both
    orders (A B C C B A: a machine getting busier favours none), each figure the best of both;
    keep the entry in ``path`` (None: keep nothing) and return it. Never raises for a failed
    child: its error is in the entry and that candidate is not chosen."""
    names = candidates() if names is None else names
    key = current_key()
    previous = record.entry(path, key) if path is not None else None
    speeds: dict[str, dict[str, dict[str, float]]] = {}
    errors: dict[str, str] = {}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rotary-cpu-calibration-") as folder:
        models = prepare(Path(folder), workload.spec)
        for name in (*names, *reversed(names))[:len(names) * workload.passes]:
            if name in errors:
                continue
            try:
                result = run_child(name, models, workload)
            except RuntimeError as exc:
                errors[name] = str(exc)
                continue
            for kind, row in result["speeds"].items():
                best = speeds.setdefault(kind, {}).setdefault(name, {})
                best.update({m: max(best.get(m, 0.0), row[m]) for m in record.METRICS})
    for kind_speeds in speeds.values():
        for name in errors:
            kind_speeds.pop(name, None)
    complete = bool(speeds) and record.BASELINE not in errors
    found = {"processor": cpu_isa.processor_model(), "candidates": list(names),
             "speeds": speeds if complete else {}, "errors": errors,
             "seconds": round(time.perf_counter() - started, 2),
             "attempts": int((previous or {}).get("attempts", 0)) + 1}
    if path is not None:
        record.write(path, key, found)
    return found


def prepare(folder: Path, spec: TinyMoeSpec) -> dict[str, str]:
    """The f16 model; the quantized ones are made by the first child (it has llama.cpp)."""
    f16 = write_tiny_moe(folder / "calibration-f16.gguf", spec)
    models = {"F16": str(f16)}
    models.update({kind: str(folder / f"calibration-{kind.lower()}.gguf") for kind in QUANTIZED})
    return models


def run_child(name: str, models: dict[str, str], workload: Workload,
              measure: bool = True) -> dict[str, Any]:
    """One candidate's speeds per weight kind, measured in a child process (``measure``
    False: only the quantized models are made)."""
    spec = {"models": models, "rounds": workload.rounds, "prompt": workload.prompt,
            "decode": workload.decode, "measure": measure}
    env = _child_env()
    env[cpu_isa.ENV] = name
    try:
        done = subprocess.run(_command(["child", json.dumps(spec)]), env=env,
                              capture_output=True, text=True, timeout=CHILD_TIMEOUT_S,
                              check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise RuntimeError(f"{type(exc).__name__}: {exc}") from exc
    if done.returncode != 0:
        raise RuntimeError(f"exit status {done.returncode}: "
                           + " | ".join(done.stderr.strip().splitlines()[-3:]))
    try:
        result = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError) as exc:
        raise RuntimeError(f"unreadable result: {exc}") from exc
    if result.get("isa") != name:
        raise RuntimeError(f"asked for {name}, the child ran {result.get('isa')}: "
                           f"{result.get('reason')}")
    return result


def _root() -> str:
    return str(Path(__file__).resolve().parents[3])      # the child imports this same engine


def _child_env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (_root(), os.environ.get("PYTHONPATH", "")) if p))
    env[SWITCH_ENV] = "0"                               # the children never start another
    env[backends.CHOICE_ENV] = "CPU"                    # the processor build of the wheel
    env[backends.LIB_ENV] = str(backends.wheel_lib_folder() or "")
    return env


_CHILD_CODE = "import sys; from engine.runtime.devices.cpu_calibration import main; sys.exit(main(sys.argv[1:]))"


def _command(args: list[str]) -> list[str]:
    if getattr(sys, "frozen", False):
        return [sys.executable, CALIBRATE_FLAG, *args]
    return [sys.executable, "-c", _CHILD_CODE, *args]


def main(argv: list[str]) -> int:
    """``driver`` (the background run) or ``child SPEC`` (one candidate)."""
    if argv[:1] == ["driver"]:
        return driver_main()
    from engine.runtime.devices.cpu_calibration_child import child_main  # noqa: PLC0415 - the llama runtime

    return child_main(json.loads(argv[1]))


def describe(found: dict[str, Any]) -> str:
    """One line for the log: the choice per weight kind and the scores behind it."""
    parts = []
    for kind in cpu_isa.WEIGHT_KINDS:
        scores = record.scores(found, kind)
        if scores:
            best = max(scores, key=lambda n: scores[n])
            parts.append(f"{kind}: {best} (" + ", ".join(f"{n} {s:.2f}x" for n, s in
                                                      sorted(scores.items())) + ")")
    errors = "; ".join(f"{n}: {e}" for n, e in (found.get("errors") or {}).items())
    return "; ".join(parts) + (f"; failed: {errors}" if errors else "") + \
        f" in {found.get('seconds', 0):.1f} s"
