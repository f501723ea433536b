"""``Rotary --self-test`` and the wizard's "check my computer": one set of checks.

Each check is a small function returning a ``Check``; ``run_checks`` runs them all and
``SelfTestReport.verdict`` is the one line the command prints. The engine is reached the
same way the window reaches it (the bridge's backend), so an installed bundle that passes
here can load and run a model; in the window the real engine's check runs in a child process
(``check_engine_in_child``). Everything blocks: the window runs it on a worker thread.
"""

from __future__ import annotations

import functools
import json
import os
import queue
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, TypeVar

from engine.api import (ChatMessage, ChatRequest, EngineLike, Event, LoadRequest, ModelLoaded,
                        RequestFailed, RequestFinished, StepRecord)
from app.bridge.engine_bridge import EngineBridge
from app.bridge.facade import EngineBackend, check_native_helpers, check_text_recognition, real_backend
from app.text.i18n import tr
from app.settings.paths import AppPaths

SELF_TEST_TOKENS = 8
ENGINE_TIMEOUT_S = 120.0
ENGINE_CHECK_FLAG = "--rotary-check-engine"     # the frozen app runs the engine check with it
ROOT = Path(__file__).resolve().parents[2]
INTERNET_FAMILIES = (socket.AF_INET, socket.AF_INET6)


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


def check_titles() -> dict[str, str]:
    """The checks' names in the interface's language (plain tr() calls, so lupdate finds them);
    the verdict line for IT keeps the English names."""
    return {"settings folder": tr("settings folder"), "history folder": tr("history folder"),
            "demo model": tr("demo model"), "engine": tr("engine"),
            "text recognition": tr("reading scanned pages"),
            "native helpers": tr("built-in accelerators"),
            "offline": tr("working without the network"), "window": tr("showing the window")}


@dataclass(frozen=True)
class SelfTestReport:
    checks: tuple[Check, ...]
    seconds: float

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    def verdict(self) -> str:
        """One line: what passed, or what failed and why."""
        if self.ok:
            names = ", ".join(f"{c.name} ({c.detail})" for c in self.checks)
            return f"ROTARY SELF-TEST PASSED in {self.seconds:.1f} s: {names}"
        failed = "; ".join(f"{c.name}: {c.detail}" for c in self.checks if not c.ok)
        return (f"ROTARY SELF-TEST FAILED ({sum(not c.ok for c in self.checks)} of "
                f"{len(self.checks)} checks) in {self.seconds:.1f} s: {failed}")

    def user_text(self) -> str:
        """Plain words for the wizard; the verdict line goes to "Copy details"."""
        if self.ok:
            return tr("Everything works: Rotary wrote a short answer with its demo model, can "
                      "save your conversations and settings, and used no network.")
        titles = check_titles()
        names = ", ".join(titles.get(c.name, c.name) for c in self.checks if not c.ok)
        return tr("Rotary found a problem on this computer ({names}). Please copy the details "
                  "for your IT contact.").format(names=names)


# ---- no internet ---------------------------------------------------------------------

class NetworkGuard:
    """Records every internet (AF_INET/AF_INET6) socket that Python code creates or uses.

    An audit hook cannot be removed, so one hook is installed per process and records
    only while a guard is active. Sockets made by native code (Qt, llama.cpp, drivers)
    are not audited; ``open_internet_sockets`` looks for those at the end instead.
    Unix-domain sockets (Qt's single-instance server) are not the network and pass.
    """

    _active: list["NetworkGuard"] = []
    _hook_installed = False
    _lock = threading.Lock()

    def __init__(self) -> None:
        self.attempts: list[str] = []

    def __enter__(self) -> "NetworkGuard":
        with NetworkGuard._lock:
            if not NetworkGuard._hook_installed:
                sys.addaudithook(NetworkGuard._audit)
                NetworkGuard._hook_installed = True
            NetworkGuard._active.append(self)
        return self

    def __exit__(self, *_exception: object) -> None:
        with NetworkGuard._lock:
            NetworkGuard._active.remove(self)

    @staticmethod
    def _audit(event: str, args: tuple) -> None:
        if not NetworkGuard._active or not event.startswith("socket."):
            return
        attempt = _internet_attempt(event, args)
        if attempt:
            NetworkGuard.record([attempt])

    @staticmethod
    def record(attempts: list[str]) -> None:
        """Network use seen elsewhere (the engine check's child process) counts here too."""
        for guard in list(NetworkGuard._active):
            guard.attempts.extend(attempts)


def _internet_attempt(event: str, args: tuple) -> str | None:
    if event == "socket.__new__":
        family = args[1]
        return f"created {socket.AddressFamily(family).name} socket" \
            if family in INTERNET_FAMILIES else None
    if event in ("socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg"):
        family = getattr(args[0], "family", None)
        return f"{event.split('.')[1]} {args[1]!r}" if family in INTERNET_FAMILIES else None
    if event in ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex"):
        return f"looked up {args[0]!r}"
    return None


def open_internet_sockets() -> list[str]:
    """Internet sockets this process holds now, whoever made them (psutil)."""
    import psutil  # noqa: PLC0415 - only the self-test needs it

    return [f"{c.laddr} -> {c.raddr or '-'} ({c.status})"
            for c in psutil.Process().net_connections(kind="inet")]


# ---- the checks ------------------------------------------------------------------------

def check_folder_writable(name: str, folder: Path) -> Check:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".rotary-selftest-") as probe:
            probe.write(b"ok")
            probe.flush()
            os.fsync(probe.fileno())
    except OSError as exc:
        return Check(name, False, f"{folder} is not writable: {exc.strerror or exc}")
    return Check(name, True, "writable")


def check_demo_model(backend: EngineBackend, paths: AppPaths) -> tuple[Check, Path | None]:
    try:
        path = Path(backend.ensure_demo_model(paths.demo_dir))
    except Exception as exc:         # noqa: BLE001 - any failure is the verdict
        return Check("demo model", False, f"could not be written: {exc!r}"), None
    return Check("demo model", True, f"{path.stat().st_size / 2**20:.0f} MiB"), path


def check_engine(backend: EngineBackend, model: Path, preset: str | None,
                 timeout: float = ENGINE_TIMEOUT_S) -> Check:
    """Load ``model`` on the real engine thread and stream a few tokens from it."""
    events: queue.Queue[Event] = queue.Queue()
    try:
        engine = backend.make_engine(events.put)
    except Exception as exc:         # noqa: BLE001
        return Check("engine", False, f"did not start: {exc!r}")
    try:
        return _load_and_generate(engine, events, model, preset, timeout)
    finally:
        engine.shutdown(timeout)


def check_engine_in_child(_backend: EngineBackend, model: Path, preset: str | None,
                          timeout: float = ENGINE_TIMEOUT_S) -> Check:
    """``check_engine`` with the real engine in a child process: the wizard's check runs
    while the window's own engine thread may be loading a model, and a second engine in
    the same process then set up the same graphics card at the same moment from another
    thread (ggml's Vulkan device set-up has no lock: the app crashed). One thread per
    process owns the llama objects."""
    try:
        done = subprocess.run(_engine_child_command(model, preset), capture_output=True,
                              text=True, timeout=2 * timeout + 30, env=_child_env(),
                              check=False)
    except subprocess.TimeoutExpired:
        return Check("engine", False, "no answer from the engine in time")
    except (OSError, subprocess.SubprocessError) as exc:
        return Check("engine", False, f"did not start: {exc!r}")
    try:
        found = json.loads([line for line in done.stdout.splitlines() if line.startswith("{")][-1])
        NetworkGuard.record(found.pop("network"))
        return Check(**found)
    except (IndexError, ValueError, TypeError, KeyError):
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        return Check("engine", False, f"the check stopped (exit status {done.returncode}): {tail}")


_ENGINE_CHILD_CODE = ("import sys; from app.setup.selftest import engine_check_child; "
                      "sys.exit(engine_check_child(sys.argv[1:]))")


def _engine_child_command(model: Path, preset: str | None) -> list[str]:
    if getattr(sys, "frozen", False):
        return [sys.executable, ENGINE_CHECK_FLAG, str(model), preset or ""]
    return [sys.executable, "-c", _ENGINE_CHILD_CODE, str(model), preset or ""]


def _child_env() -> dict[str, str]:
    """The child imports this same app (a source checkout is not on its path by itself)."""
    return dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p))


def engine_check_child(argv: list[str]) -> int:
    """The child of ``check_engine_in_child``: one JSON line, the check and its network use."""
    with NetworkGuard() as guard:
        check = check_engine(real_backend(), Path(argv[0]), argv[1] or None)
    print(json.dumps({**asdict(check), "network": guard.attempts}), flush=True)
    return 0


def _load_and_generate(engine: EngineLike, events: queue.Queue, model: Path, preset: str | None,
                       timeout: float) -> Check:
    started = time.perf_counter()
    load = LoadRequest(str(model), preset=preset)
    engine.load(load)
    loaded = _wait_for(events, load.request_id, ModelLoaded, timeout)
    if not isinstance(loaded, ModelLoaded):
        return Check("engine", False, f"model did not load: {_describe(loaded)}")
    chat = ChatRequest((ChatMessage("user", "Hello"),), max_tokens=SELF_TEST_TOKENS,
                       temperature=0.0)
    engine.chat(chat)
    tokens: list[StepRecord] = []
    finished = _wait_for(events, chat.request_id, RequestFinished, timeout, tokens.append)
    if not isinstance(finished, RequestFinished):
        return Check("engine", False, f"generation failed: {_describe(finished)}")
    if not tokens or not finished.text.strip():
        return Check("engine", False, "the model loaded but wrote nothing")
    return Check("engine", True, f"{len(tokens)} tokens, {tokens[-1].decode_tps:.0f} tokens/s, "
                                 f"{time.perf_counter() - started:.1f} s, recipe "
                                 f"{loaded.recipe.preset}, {where_it_ran(loaded)}")


def where_it_ran(loaded: ModelLoaded) -> str:
    """The device the model ran on, from what the loaded model placed (never the plan)."""
    placement = loaded.placement
    if placement is None:
        return "placement unknown"
    gpu = placement.gpu
    if gpu is None:
        unused = ", ".join(placement.unused_gpus)
        # "device", not "graphics card": a software Vulkan device is listed here too.
        return "ran on the processor" + (f" (device not used: {unused})" if unused else "")
    return (f"ran on {gpu.device} ({gpu.description}, {placement.backend}): "
            f"{gpu.total_bytes / 2**20:.0f} MiB there, {gpu.slot_bytes / 2**20:.0f} MiB of "
            f"them expert slots")


E = TypeVar("E")


def _wait_for(events: queue.Queue, request_id: int, wanted: type[E], timeout: float,
              on_step: Callable[[StepRecord], None] | None = None) -> E | RequestFailed | None:
    """The ``wanted`` event of ``request_id``, its RequestFailed, or None on timeout."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            event = events.get(timeout=left)
        except queue.Empty:
            break
        if getattr(event, "request_id", None) != request_id:
            continue
        if isinstance(event, StepRecord) and on_step is not None:
            on_step(event)
        elif isinstance(event, wanted) or isinstance(event, RequestFailed):
            return event
    return None


def _describe(event: RequestFailed | None) -> str:
    if event is None:
        return "no answer from the engine in time"
    error = event.error
    return f"{error.message} ({error.details[-300:]})" if error.details else error.message


def check_native() -> Check:
    """The C helpers load, their layouts matching the engine's (prebuilt in an installed app)."""
    try:
        ok, detail = check_native_helpers()
    except Exception as exc:  # noqa: BLE001 - any failure is this check's result
        return Check("native helpers", False, f"failed: {exc!r}")
    return Check("native helpers", ok, detail)


def check_ocr() -> Check:
    """Scanned PDFs: Tesseract and its data are there and read a drawn line, offline."""
    try:
        ok, detail = check_text_recognition()
    except Exception as exc:  # noqa: BLE001 - any failure is this check's result
        return Check("text recognition", False, f"failed: {exc!r}")
    return Check("text recognition", ok, detail)


def check_network(guard: NetworkGuard) -> Check:
    try:
        still_open = open_internet_sockets()
    except Exception as exc:         # noqa: BLE001 - psutil missing or not permitted
        still_open = [f"could not list sockets: {exc!r}"]
    problems = guard.attempts + still_open
    if problems:
        return Check("offline", False, "network use: " + "; ".join(problems[:5]))
    return Check("offline", True, "no internet socket")


# Told before each check starts: (its number from 1, how many there are, its name).
Progress = Callable[[int, int, str], None]


def _quiet(_step: int, _steps: int, _name: str) -> None:
    pass


def run_checks(paths: AppPaths, backend: EngineBackend | None = None,
               preset: str | None = None,
               extra: tuple[Callable[[], Check], ...] = (),
               engine_check: Callable[[EngineBackend, Path, str | None], Check] = check_engine,
               progress: Progress = _quiet) -> SelfTestReport:
    """Folders, demo model, engine, no network; ``extra`` adds checks (e.g. the window's).
    ``progress`` is told which check runs (the wizard shows it while it waits).

    No preset plans for this computer ("auto"), so an NVIDIA machine runs the demo on its GPU."""
    backend = backend or real_backend()
    started = time.perf_counter()
    steps = 7 + len(extra)
    with NetworkGuard() as guard:
        checks = []
        for step, name in enumerate(("settings folder", "history folder"), start=1):
            progress(step, steps, name)
            folder = paths.config_dir if step == 1 else paths.history_db.parent
            checks.append(check_folder_writable(name, folder))
        progress(3, steps, "demo model")
        demo, model = check_demo_model(backend, paths)
        checks.append(demo)
        progress(4, steps, "engine")
        if model is not None:
            checks.append(engine_check(backend, model, preset))
        progress(5, steps, "native helpers")
        checks.append(check_native())
        progress(6, steps, "text recognition")
        checks.append(check_ocr())
        for step, check in enumerate(extra, start=7):
            progress(step, steps, "window")
            checks.append(check())
    progress(steps, steps, "offline")
    checks.append(check_network(guard))
    return SelfTestReport(tuple(checks), time.perf_counter() - started)


async def check_my_computer(bridge: EngineBridge, paths: AppPaths, preset: str | None = None,
                            progress: Progress = _quiet) -> SelfTestReport:
    """The wizard's "check my computer": the same checks, on the bridge's worker thread;
    ``progress`` is called on the GUI thread (the bridge hands it over)."""
    return await bridge.checks.run_self_test(functools.partial(_checks_with, paths, preset), progress)


def _checks_with(paths: AppPaths, preset: str | None, backend: EngineBackend,
                 progress: Progress = _quiet) -> SelfTestReport:
    engine_check = check_engine_in_child if backend.engine_check_in_child else check_engine
    return run_checks(paths, backend, preset, engine_check=engine_check, progress=progress)


def step_titles() -> dict[str, str]:
    """What each check does, for the line the wizard shows while it runs."""
    return {"settings folder": tr("saving settings"),
            "history folder": tr("saving conversations"),
            "demo model": tr("writing the demo model"),
            "engine": tr("loading the demo model and writing a short answer"),
            "native helpers": tr("checking the built-in accelerators"),
            "text recognition": tr("reading a scanned page"),
            "window": tr("showing the window"),
            "offline": tr("checking that nothing used the network")}


def step_text(step: int, steps: int, name: str, seconds: float) -> str:
    """"Checking 4 of 7: loading the demo model and writing a short answer… 12 s"."""
    return tr("Checking {step} of {steps}: {what}… {seconds} s").format(
        step=step, steps=steps, what=step_titles().get(name, name), seconds=round(seconds))
