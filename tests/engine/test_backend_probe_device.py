"""The back-end probe for real: two copies of the installed Vulkan variant serve one device
(Mesa's software lavapipe, listed with ``GGML_VK_VISIBLE_DEVICES=0``), as CUDA and Vulkan
serve one NVIDIA card.

A fresh process (this one already holds the CPU build) loads a model through the engine's
loader with ``ROTARY_BACKENDS_DIR`` naming the two copies: the probe runs both in child
processes, keeps the faster (by the probe's own rule), and that process runs it. The next
start reads the remembered answer and probes nothing. The user cache is a temporary folder
(``XDG_CACHE_HOME``); Mesa's shader cache stays where it was, so lavapipe does not compile
its pipelines again (test_vulkan_device_path.py's note: ~15 s a warm child, ~80 s cold).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.api import LoadRequest
from engine.model.inspect_gguf import inspect_model
from engine.native import backends
from engine.runtime.devices import backend_probe
from engine.runtime.devices.backend_probe import ProbeResult, fastest

ROOT = Path(__file__).resolve().parents[2]
CHILD_TIMEOUT_S = 300
# lavapipe is a software device, never chosen for a user: these tests let it stand
# in for a graphics card (engine/native/backends.py, SOFTWARE_ENV).
VISIBLE = {"GGML_VK_VISIBLE_DEVICES": "0", "ROTARY_SOFTWARE_GPU": "1"}
START = """
import json, sys
from engine.api import LoadRequest
from engine.native import backends
from engine.runtime.loader import load_with_fallback
shown = []
loaded = load_with_fallback(LoadRequest(sys.argv[1]),
                            lambda fraction, message: shown.append(message.code),
                            lambda recipe: None)
choice = backends.selected()
print(json.dumps({"folder": choice.variant.folder, "device": choice.device_name,
                  "backend": loaded.placement.backend, "shown": shown}))
loaded.close()
"""


def _unavailable(reason: str) -> None:
    """Skip, saying why; fail where bootstrap.py test built the Vulkan back-end."""
    if os.environ.get("ROTARY_EXPECT_VULKAN") == "1":
        pytest.fail(f"bootstrap.py test built the Vulkan back-end, but {reason}")
    print(f"SKIPPED: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def two_copies(tmp_path_factory) -> Path:
    """<root>/vulkan-a and <root>/vulkan-b: the installed Vulkan folder, copied (new files,
    so each has a key of its own)."""
    installed = next((v for v in backends.installed_variants() if v.name == "vulkan"), None)
    if installed is None:
        _unavailable("no Vulkan back-end variant is installed (bootstrap.py test builds it)")
    assert installed is not None
    listed = backends.list_devices(installed, extra_env=VISIBLE)
    if not any(d.backend == "Vulkan" and d.kind in ("gpu", "software") for d in listed.devices):
        _unavailable(f"the Vulkan variant lists no Vulkan device ({listed.error or 'none'}); "
                     "install mesa-vulkan-drivers for lavapipe")
    root = tmp_path_factory.mktemp("two-variants")
    for name in ("vulkan-a", "vulkan-b"):
        shutil.copytree(installed.folder, root / name, symlinks=True)
    # Every model is written through llama.cpp's chat layer, found under the same root.
    chat = Path(installed.folder).parent / "chat"
    if chat.is_dir():
        shutil.copytree(chat, root / "chat", symlinks=True)
    return root


def start_env(root: Path, cache: Path) -> dict[str, str]:
    env = dict(os.environ, **VISIBLE, ROTARY_BACKENDS_DIR=str(root), XDG_CACHE_HOME=str(cache),
               PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", ""))
                                          if p))
    env.setdefault("MESA_SHADER_CACHE_DIR",
                   os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache"))
    for name in (backends.LIB_ENV, backends.CHOICE_ENV, backend_probe.SWITCH_ENV):
        env.pop(name, None)
    return env


def test_the_probe_measures_both_copies_runs_the_faster_and_remembers_it(
        two_copies, tmp_path, tiny_moe_path, monkeypatch):
    cache = tmp_path / "cache"
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", START, str(tiny_moe_path)], cwd=ROOT,
                          env=start_env(two_copies, cache), capture_output=True, text=True,
                          timeout=CHILD_TIMEOUT_S, check=False)
    first_start_s = time.perf_counter() - started
    assert done.returncode == 0, done.stderr[-3000:]
    ran = json.loads(done.stdout.strip().splitlines()[-1])
    memory = cache / "Rotary" / backend_probe.MEMORY_FILE
    entries = json.loads(memory.read_text())["entries"]
    assert len(entries) == 1
    entry = next(iter(entries.values()))
    results = entry["results"]
    seen = [(Path(r["folder"]).name, r["decode_tps"], r["seconds"]) for r in results]
    print(f"\nprobe on lavapipe (copy, tokens/s, child s): {seen}; "
          f"first start {first_start_s:.1f} s")
    assert [Path(r["folder"]).name for r in results] == ["vulkan-a", "vulkan-b"]
    assert all(r["error"] == "" and r["decode_tps"] > 0 and r["device"] == "Vulkan0"
               for r in results)
    # The winner is the probe's rule applied to what was measured, and the start ran it.
    measured = tuple(ProbeResult(backends.Variant("vulkan", r["folder"], ""),
                                 backends.Device("Vulkan0", "", "gpu", "Vulkan", 0, 0),
                                 r["decode_tps"]) for r in results)
    expected = fastest(measured)
    assert expected is not None and entry["winner"]["folder"] == expected[0].folder
    assert ran["folder"] == entry["winner"]["folder"] and ran["device"] == "Vulkan0"
    assert ran["backend"] == "Vulkan" and "runtime.finding_faster_backend" in ran["shown"]

    # The next start: the remembered answer, no child. (In this process, with its listing.)
    monkeypatch.setenv("ROTARY_BACKENDS_DIR", str(two_copies))
    monkeypatch.setenv("GGML_VK_VISIBLE_DEVICES", "0")
    monkeypatch.setenv("ROTARY_SOFTWARE_GPU", "1")
    monkeypatch.delenv(backends.LIB_ENV, raising=False)
    monkeypatch.setattr(backends, "llama_loaded", lambda: False)
    listing = backends.device_listing(cache=cache / "Rotary" / "devices.json")
    assert sum(1 for item in listing for d in item.devices if d.name == "Vulkan0") == 2

    def no_probe(*_args):
        raise AssertionError("the remembered answer should have been used")

    shown: list[str] = []
    backends._forget()
    try:
        got = backend_probe.prefer(inspect_model(str(tiny_moe_path)),
                                   LoadRequest(str(tiny_moe_path)),
                                   lambda fraction, message: shown.append(message.code),
                                   selection=backends.choose(listing), runner=no_probe,
                                   memory=memory)
    finally:
        backends._forget()
    assert got is not None and got.variant.folder == ran["folder"] and shown == []
