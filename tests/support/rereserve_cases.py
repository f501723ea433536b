"""The re-reserve cases run in a child (tests/support/rereserve_child.py) on the CPU build or
lavapipe, and their comparison (tests/engine/test_vulkan_rereserve.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.vulkan_device import ROOT, child_env

# CPU and lavapipe logits differ by ~1e-3 on this model: top-1 may differ only at a near-tie,
# and the case is not compared after it (its history differs from there on)
TIE_MARGIN = 5e-3
CHILD_TIMEOUT_S = 240


def child(model: Path, folder: str | None, cases: tuple[str, ...], **env: str):
    return subprocess.run(
        # faulthandler: a crash leaves the Python stack in the message
        [sys.executable, "-X", "faulthandler", "-m", "tests.support.rereserve_child", str(model),
         *cases], cwd=ROOT, env={**child_env(folder), "ROTARY_SLOT_CHECK": "1", **env},
        capture_output=True, text=True, timeout=CHILD_TIMEOUT_S, check=False)


def run_cases(model: Path, folder: str | None, cases: tuple[str, ...], **env: str) -> dict:
    """The child's answers by case; fails with the child's stderr when it does not exit 0."""
    done = child(model, folder, cases, **env)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-3000:]}"
    lines = [json.loads(line[3:]) for line in done.stdout.splitlines() if line.startswith("@@ ")]
    hello, answers = lines[0], lines[1:]
    assert hello["device"].startswith("Vulkan" if folder else "CPU"), hello
    return {answer["case"]: answer for answer in answers}


def compare(cpu: dict, vulkan: dict) -> int:
    """Segment by segment, the same tokens up to the first near-tie; returns tokens compared."""
    compared = 0
    for number, (a, b) in enumerate(zip(cpu["segments"], vulkan["segments"], strict=True)):
        where = f"segment {number}: CPU {a}, Vulkan {b}"
        for x, y, margin_a, margin_b in zip(a["tokens"], b["tokens"], a["margins"], b["margins"],
                                            strict=True):
            if x != y:
                assert min(margin_a, margin_b) < TIE_MARGIN, where
                return compared
            compared += 1
    return compared
