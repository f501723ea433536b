"""The late-copy harness (tests/support/late_copy.c): build it, load it into a child, read it.

On lavapipe's one in-order queue a copy lands before any later graph, told to wait or not, so
a missing or wrong upload wait cannot change a token. The harness, loaded with ``LD_PRELOAD``
into a Vulkan child, holds back what ``ggml_backend_tensor_set_async`` queues and lands it
only when ggml's API obliges it (an event recorded after it waited for or synchronised, its
backend synchronised, later work on the same backend), reading the source then. Its mutations
(``LATE_COPY_MUTATION``: ``skip_wait``, ``wrong_event``, ``scribble``) are switches of the
loaded library, not rebuilds.

How it stays correct when ggml changes: the library resolves every function it interposes
(and ``ggml_backend_tensor_set``, through which copies land) in the loaded libggml-base and
aborts the child if one is missing (``missing_symbols`` checks that up front), and each child
writes what it intercepted per function (``report``): the tests fail when a function the slot
cache calls was never intercepted, e.g. after a rename or if libllama stopped calling
libggml-base through its PLT.

Built with the system C compiler (``CC``, else ``cc``) into a cache folder keyed by the
source's hash (``ROTARY_LATE_COPY_CACHE``, default ``<tmp>/rotary-late-copy``), on demand.
``ROTARY_LATE_COPY=1`` puts every Vulkan child of the device tests under it (``child_env``).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE = Path(__file__).with_name("late_copy.c")
CFLAGS = ("-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror")
LIBS = ("-ldl", "-lpthread")
MUTATIONS = ("skip_wait", "wrong_event", "scribble")
# what the slot cache's path calls and the tests require to have been intercepted (the others,
# tensor_get_async, tensor_copy_async, free and event_free, only keep the model consistent)
REQUIRED_CALLS = ("ggml_backend_tensor_set_async", "ggml_backend_event_record",
                  "ggml_backend_event_wait", "ggml_backend_event_synchronize",
                  "ggml_backend_synchronize", "ggml_backend_graph_compute_async")
ENV_SWITCH = "ROTARY_LATE_COPY"        # 1: every Vulkan child of the device tests under it
REPORT_ENV = "ROTARY_LATE_COPY_REPORTS"  # where those children's reports go (set once)


class HarnessError(AssertionError):
    """The harness could not be built, or did not see what it must see."""


def cache_folder() -> Path:
    return Path(os.environ.get("ROTARY_LATE_COPY_CACHE")
                or Path(tempfile.gettempdir()) / "rotary-late-copy")


def build() -> Path:
    """The compiled library, built once per source (and flags) hash."""
    text = SOURCE.read_bytes()
    key = hashlib.sha256(text + " ".join(CFLAGS + LIBS).encode()).hexdigest()[:16]
    library = cache_folder() / f"late_copy-{key}.so"
    if library.exists():
        return library
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise HarnessError("no C compiler (cc) to build tests/support/late_copy.c")
    library.parent.mkdir(parents=True, exist_ok=True)
    partial = library.with_suffix(f".{os.getpid()}.tmp")
    done = subprocess.run([compiler, *CFLAGS, "-o", str(partial), str(SOURCE), *LIBS],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise HarnessError(f"{compiler} could not build {SOURCE.name}:\n{done.stderr[-3000:]}")
    os.replace(partial, library)     # atomic: parallel builds of the same source agree
    return library


def env(library: Path, reports: Path, mutation: str | None = None) -> dict[str, str]:
    """Environment for a child under the harness; reports land in ``reports``."""
    if mutation is not None and mutation not in MUTATIONS:
        raise ValueError(f"unknown mutation {mutation!r}; known: {MUTATIONS}")
    reports.mkdir(parents=True, exist_ok=True)
    preload = " ".join(p for p in (str(library), os.environ.get("LD_PRELOAD", "")) if p)
    return {"LD_PRELOAD": preload, "LATE_COPY_REPORT": str(reports),
            "LATE_COPY_MUTATION": mutation or "none"}


def missing_symbols(library: Path, folder: str) -> str:
    """'' when the variant's libggml-base exports every function the harness needs, else the
    harness's message naming the missing ones."""
    code = ("import ctypes, sys; ctypes.CDLL(sys.argv[1]); "
            "sys.exit(ctypes.CDLL(None).late_copy_resolve())")
    done = subprocess.run([sys.executable, "-c", code, str(Path(folder) / "libggml-base.so")],
                          env=dict(os.environ, LD_PRELOAD=str(library)), capture_output=True,
                          text=True, check=False)
    return "" if done.returncode == 0 else (done.stderr.strip() or f"exit {done.returncode}")


def reports(folder: Path) -> list[dict]:
    """Every report written in ``folder`` (one per process that loaded the harness)."""
    return [json.loads(path.read_text()) for path in sorted(folder.glob("late_copy-*.json"))]


def report(folder: Path) -> dict:
    """The report of the process that queued copies (a child may start others, e.g. a device
    probe, which load the harness too); fails when the harness intercepted nothing."""
    found = reports(folder)
    busy = [r for r in found if r["calls"]["ggml_backend_tensor_set_async"] > 0]
    if not busy:
        raise HarnessError(f"the late-copy harness intercepted no copy in {folder}: {found}")
    return max(busy, key=lambda r: r["calls"]["ggml_backend_tensor_set_async"])


def check_intercepted(found: dict) -> None:
    """Every function of the slot cache's path was intercepted; without a mutation, copies
    landed at the graphs' waits."""
    never = [name for name in REQUIRED_CALLS if found["calls"].get(name, 0) == 0]
    # a wait that a mutation skips or redirects may land nothing
    unwaited = found["mutation"] == "none" and found["landed"]["wait"] == 0
    if not found["resolved"] or never or unwaited:
        raise HarnessError(f"the late-copy harness did not see the upload path (never called: "
                           f"{never}): {found}")


def session_reports() -> Path:
    """The folder where children put under the harness by ``ROTARY_LATE_COPY=1`` report."""
    folder = os.environ.get(REPORT_ENV)
    if not folder:
        folder = tempfile.mkdtemp(prefix="late-copy-reports-")
        os.environ[REPORT_ENV] = folder
    return Path(folder)


def switched_on() -> bool:
    return os.environ.get(ENV_SWITCH) == "1"


def child_env_extra() -> dict[str, str]:
    """With ``ROTARY_LATE_COPY=1``: the harness (no mutation) for a Vulkan child; else {}."""
    if not switched_on():
        return {}
    return env(build(), session_reports(), os.environ.get("ROTARY_LATE_COPY_MUTATION"))
