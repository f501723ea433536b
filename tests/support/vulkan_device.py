"""What the Vulkan device tests share (tests/engine/test_vulkan_*.py, test_device_stress.py):
the installed Vulkan variant, a child process's environment on it (lavapipe named with
``GGML_VK_VISIBLE_DEVICES=0``, the late-copy harness where it is on), skipping (or failing
where CI built the variant) when it is missing, and the device-path child's run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.native import backends
from tests.support import late_copy

ROOT = Path(__file__).resolve().parents[2]
STEPS = 48
# Stock Vulkan and the slot cache on Vulkan run the same layout; they are not bitwise equal
# (elementwise work of slot-resident experts runs on the device, the misses' on the CPU), so
# the logits must agree within this (measured here: 5.3e-4 at most, logits spanning ~8).
LOGIT_TOLERANCE = 2e-3
# lavapipe compiles its pipelines on the first run (~50 s on a busy 2-core machine) and keeps
# them in Mesa's shader cache (~/.cache/mesa_shader_cache, MESA_SHADER_CACHE_DIR; ggml itself
# keeps none): then the Vulkan child takes ~15 s plus ~5 tokens/s of decoding.
CHILD_TIMEOUT_S = 240


def vulkan_variant() -> backends.Variant | None:
    return next((v for v in backends.installed_variants() if v.name == "vulkan"), None)


def child_env(folder: str | None) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p))
    env.pop(backends.LIB_ENV, None)
    env.pop(backends.CHOICE_ENV, None)
    if folder:
        env.update({backends.LIB_ENV: folder, "GGML_VK_VISIBLE_DEVICES": "0"})
        env.update(late_copy.child_env_extra())   # ROTARY_LATE_COPY=1: copies land late
    return env


def unavailable(reason: str) -> None:
    """Skip, saying why; fail where bootstrap.py test built the Vulkan back-end
    (ROTARY_EXPECT_VULKAN=1), so CI cannot pass these by skipping them."""
    if os.environ.get("ROTARY_EXPECT_VULKAN") == "1":
        pytest.fail(f"bootstrap.py test built the Vulkan back-end, but {reason}")
    print(f"SKIPPED: {reason}")
    pytest.skip(reason)


def run_child(model: Path, folder: str | None, out: Path, steps: int = STEPS, *mode: str,
              **env: str) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "tests.support.device_path_child", str(model),
                           str(out), str(steps), *mode], cwd=ROOT,
                          env={**child_env(folder), "ROTARY_SLOT_CHECK": "1", **env},
                          capture_output=True, text=True, timeout=CHILD_TIMEOUT_S, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if mode:
        return result
    logits = np.load(out / "logits.npz")
    result["stock"]["logits"], result["slots"]["logits"] = logits["stock"], logits["slots"]
    return result
