"""The slot cache's ordering check on the CPU build.

Each upload gets a generation; a decode graph may read a slot only when the wait it was
submitted behind covers that slot's generation (on the CPU build the copies are plain and done
when they return, so the "wait" is the point where the graph takes them as done). Check mode
(ROTARY_SLOT_CHECK=1, set for every test in tests/conftest.py, off by default) counts the
violations in the native counters, which ``engine chat --json`` prints. The mutation
ROTARY_SLOT_TEST_SKIP_WAIT=1, a switch inside the patched library, drops the wait: the check
must fire. The device's run of the same pair is in test_vulkan_device_path.py.
"""

from __future__ import annotations

import pytest

from engine.runtime.experts import slot_cache
from engine.runtime.llama_model import NativeModel, Sampling

pytestmark = pytest.mark.skipif(not slot_cache.available(),
                                reason="the installed llama-cpp-python is a stock build")

STEPS = 48


def run(path, cpu_recipe, steps: int = STEPS) -> dict:
    """Greedy steps with 2 slots of 8 per layer (evictions every few tokens): the counters."""
    model = NativeModel(str(path), cpu_recipe(expert_slots=(2,) * 4, residency_policy="lru"))
    try:
        model.set_sampling(Sampling(temperature=0))
        model.decode(model.tokenize("hello the model and the expert"))
        for _ in range(steps):
            model.decode([model.sample()], step=True)
        return model.slot_cache.counters()
    finally:
        model.close()


def test_the_real_path_has_no_ordering_violation(tiny_moe_path, cpu_recipe, monkeypatch):
    monkeypatch.setenv("ROTARY_SLOT_CHECK", "1")
    counters = run(tiny_moe_path, cpu_recipe)
    assert counters["sync_copies"] > 8 * 4              # slots turned over: uploads were checked
    assert counters["order_checks"] >= STEPS
    assert counters["order_violations"] == 0 and counters["staging_violations"] == 0


def test_skipping_the_wait_makes_the_check_fire(tiny_moe_path, cpu_recipe, monkeypatch):
    monkeypatch.setenv("ROTARY_SLOT_CHECK", "1")
    monkeypatch.setenv("ROTARY_SLOT_TEST_SKIP_WAIT", "1")
    counters = run(tiny_moe_path, cpu_recipe, steps=8)
    assert counters["order_checks"] >= 8 and counters["order_violations"] > 0


def test_the_check_is_off_by_default(tiny_moe_path, cpu_recipe, monkeypatch):
    monkeypatch.delenv("ROTARY_SLOT_CHECK", raising=False)
    monkeypatch.setenv("ROTARY_SLOT_TEST_SKIP_WAIT", "1")
    counters = run(tiny_moe_path, cpu_recipe, steps=8)
    assert counters["order_checks"] == 0 and counters["order_violations"] == 0


def test_the_cpu_build_creates_no_device_objects(tiny_moe_path, cpu_recipe):
    counters = run(tiny_moe_path, cpu_recipe, steps=8)
    assert counters["device_events"] == 0 and counters["device_cmd_buffers"] == 0
