"""Graphs reserved again in the middle of a conversation, on lavapipe, against the CPU build.

ggml-vulkan writes only the bindings a pipeline uses into a reused descriptor set; the others
keep the buffers of an earlier graph, and once a re-reserve freed those, lavapipe (which reads
every binding of a bound set) read freed memory: SIGSEGV in its queue thread or glibc heap
corruption. Patch 0006 (engine/native/patches/README.md) fills the unused bindings on lavapipe.

Each case runs in a Vulkan child of its own (tests/support/rereserve_child.py), so a crash is a
failed case; the CPU build runs every case in one child as the reference. The slot layout (all
layers on the device, the routed experts in slots) with the ordering check on
(ROTARY_SLOT_CHECK=1). Per case: the child exits 0, the greedy tokens equal the CPU build's
(up to a near-tie, as in tests/engine/test_device_stress.py), no ordering or staging violation.
``GGML_VK_NO_FILL_UNUSED_BINDINGS=1`` in the Vulkan child's environment turns the patch off:
then the force case crashed every run on this model and on the Qwen3.6 shape
(none with the patch); batch, reload and switch did not crash in 3, 3 and 2 runs without it
(they guard the other ways graphs are reserved again). ``ROTARY_RERESERVE_UNFIXED_RUNS=5``
runs that check (left out of CI: a use after free need not crash).
"""

from __future__ import annotations

import os

import pytest

from tests.support.rereserve_child import STEPS
from tests.support.rereserve_cases import child, compare, run_cases

CASES = ("force", "batch", "reload", "switch")
# Opt-in (not in CI: a use after free need not crash): run the force case this often with the
# patch turned off and expect crashes.
UNFIXED_RUNS = int(os.environ.get("ROTARY_RERESERVE_UNFIXED_RUNS", "0"))
# "sched_reserve: reserving" lines llama.cpp logs in a case at least: the first decode's (the slot
# cache set up at load), then forced routing on and off; the reload's new context twice. The
# batch case's re-reserve is ggml's scheduler's own (a 48-token batch moves the experts' matmuls
# to the device) and is not logged.
MIN_RESERVES = {"force": 3, "batch": 1, "reload": 3, "switch": 1}


@pytest.fixture(scope="module")
def cpu_runs(device_model) -> dict:
    return run_cases(device_model, None, CASES)


@pytest.mark.parametrize("case", CASES)
def test_a_rereserve_mid_conversation_on_lavapipe(case, vulkan_folder, device_model,
                                                  cpu_runs):
    vulkan = run_cases(device_model, vulkan_folder, (case,))[case]
    cpu = cpu_runs[case]
    compared = compare(cpu, vulkan)
    print(f"\n{case}: lavapipe {vulkan['run_s']} s, CPU {cpu['run_s']} s; {compared} tokens "
          f"equal; reserves logged: lavapipe {vulkan['reserves']}, CPU {cpu['reserves']}")
    assert compared >= 2 * len(cpu["segments"])      # a tie at the start would prove nothing
    for run in (cpu, vulkan):
        assert run["reserves"] >= MIN_RESERVES[case], run["reserves"]
        for counters in run["counters"]:
            assert counters["order_checks"] > 0, counters
            assert counters["order_violations"] == 0 and counters["staging_violations"] == 0


def test_forced_routing_mid_conversation_on_the_reference_architecture(vulkan_folder,
                                                                       qwen36_mini):
    """The shape where the replay crash was first seen (tests/support/loadable_shapes.py): the
    force case on lavapipe runs to its end with every switch re-reserving and no ordering
    violation. Its tokens prove nothing (the mini model's weights are zero but for norms,
    embeddings and routers, so its logits are all zero), hence no comparison here."""
    vulkan = run_cases(qwen36_mini, vulkan_folder, ("force",))["force"]
    print(f"\nQwen3.6-shaped force case on lavapipe: {vulkan['run_s']} s, "
          f"{vulkan['reserves']} reserves")
    assert vulkan["reserves"] >= MIN_RESERVES["force"]
    assert sum(len(segment["tokens"]) for segment in vulkan["segments"]) == 3 * STEPS
    counters = vulkan["counters"][0]
    assert counters["order_checks"] >= 3 * STEPS and counters["order_violations"] == 0
    assert counters["staging_violations"] == 0


@pytest.mark.skipif(not UNFIXED_RUNS, reason="opt-in: ROTARY_RERESERVE_UNFIXED_RUNS=N")
def test_without_patch_0006_the_force_case_crashes(vulkan_folder, device_model):
    """That the cases above can fail: GGML_VK_NO_FILL_UNUSED_BINDINGS=1 turns the patch off."""
    codes = [child(device_model, vulkan_folder, ("force",),
                   GGML_VK_NO_FILL_UNUSED_BINDINGS="1").returncode for _ in range(UNFIXED_RUNS)]
    print(f"\nforce case without patch 0006: exit codes {codes}")
    assert any(code != 0 for code in codes)
