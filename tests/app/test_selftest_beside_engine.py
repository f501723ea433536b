"""The wizard's "Check my computer" while the window's engine loads the demo model, on a
real (software) Vulkan device: Mesa's lavapipe, named with ``GGML_VK_VISIBLE_DEVICES=0``.

The check used to load a second engine in the same process; its thread and the window's
engine thread set up the same Vulkan device at once (ggml_vk_get_device has no lock) and
the whole app crashed (SIGSEGV or abort in vkCreateDevice/vkCreateFence). The check's
engine now runs in a child process. The scenario runs in a child of its own
(tests/app/selftest_beside_engine_child.py), so a crash fails this test, not pytest.

Measured on the 2-core machine: ~15-40 s with Mesa's shader cache warm.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.native import backends

ROOT = Path(__file__).resolve().parents[2]
CHILD = ROOT / "tests" / "app" / "selftest_beside_engine_child.py"
CHILD_TIMEOUT_S = 420


def _unavailable(reason: str) -> None:
    """Skip, saying why; fail where bootstrap.py test built the Vulkan back-end."""
    if os.environ.get("ROTARY_EXPECT_VULKAN") == "1":
        pytest.fail(f"bootstrap.py test built the Vulkan back-end, but {reason}")
    pytest.skip(reason)


def vulkan_listed() -> None:
    variant = next((v for v in backends.installed_variants() if v.name == "vulkan"), None)
    if variant is None:
        _unavailable("no Vulkan back-end variant is installed (bootstrap.py test builds it)")
        return
    listed = backends.list_devices(variant, extra_env={"GGML_VK_VISIBLE_DEVICES": "0"})
    if not any(d.backend == "Vulkan" for d in listed.devices):
        _unavailable(f"the Vulkan variant lists no Vulkan device "
                     f"({listed.error or 'none found'}); install mesa-vulkan-drivers")


def test_check_my_computer_while_the_window_loads_on_vulkan(tmp_path):
    vulkan_listed()
    # lavapipe, a software device, stands in for a graphics card here (never for a user)
    env = dict(os.environ, ROTARY_HOME=str(tmp_path / "home"), GGML_VK_VISIBLE_DEVICES="0",
               QT_QPA_PLATFORM="offscreen", ROTARY_SOFTWARE_GPU="1")
    for name in (backends.LIB_ENV, backends.CHOICE_ENV):
        env.pop(name, None)          # the app chooses its back-end itself, as for a user
    done = subprocess.run([sys.executable, str(CHILD)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=CHILD_TIMEOUT_S, check=False)
    tail = done.stderr[-3000:]
    assert done.returncode == 0, f"the app's process died (exit status {done.returncode}):\n{tail}"
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["window_load"] == "ModelLoaded", result
    assert result["ok"], result["verdict"]
    assert "Vulkan" in result["engine"], result["engine"]      # the check ran on the device


def test_the_engine_check_child_reports_a_failed_load_as_its_check(tmp_path, monkeypatch):
    """No device needed: the child's verdict comes back as the parent's "engine" check."""
    from app.setup.selftest import check_engine_in_child
    monkeypatch.setenv("ROTARY_HOME", str(tmp_path / "home"))
    missing = tmp_path / "missing.gguf"
    check = check_engine_in_child(None, missing, None, timeout=60)
    assert check.name == "engine" and not check.ok
    assert check.detail.startswith("model did not load"), check.detail
