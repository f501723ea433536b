"""A missing or wrong upload wait must change the answer on lavapipe: the late-copy harness.

lavapipe runs the copy backend and the compute backend on one in-order queue, so the slot
cache's uploads always land before the next graph, whether that graph waited for them or not
(tests/engine/test_vulkan_device_path.py, test_slots_read_right_after_their_upload). The
harness (tests/support/late_copy.c, loaded with LD_PRELOAD into the Vulkan child) holds every
``ggml_backend_tensor_set_async`` back until ggml's API obliges it to be done, and reads its
source only then, as a copy engine on a card would. Under it:

* the real path gives the CPU build's greedy tokens, with 0 ordering violations and no copy
  whose source was rewritten before it landed: the device-path child's full run (stock, the
  slot cache's 48 tokens, conversations and a restore), a slice of the re-reserve cases and the
  stress test's shrunk prompt (all of those files: ``ROTARY_LATE_COPY=1``, docs/backends.md);
* each mutation, a switch of the loaded harness (``LATE_COPY_MUTATION``), changes the tokens:
  the graph's wait made a no-op (``skip_wait``), the wait redirected to the event recorded
  before ``uploads_done`` on the copy backend (``wrong_event``: the previous step's staging
  half), the staging memory zeroed right after each copy was queued (``scribble``). The slot
  cache's own ordering check (ROTARY_SLOT_CHECK=1) sees none of them: its bookkeeping is right,
  what it cannot see is whether the device honoured the wait.

Measured on the shared 2-core machine: docs/backends.md ("The late-copy harness").
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tests.support import device_stress as stress
from tests.support import rereserve_cases as rereserve
from tests.support.vulkan_device import LOGIT_TOLERANCE, STEPS, run_child
from tests.support import late_copy

# greedy tokens per mutation run: its first steps already read slots uploaded the step before
MUTATION_STEPS = 16
# the re-reserve cases run under the harness in CI (the others: ROTARY_LATE_COPY=1)
RERESERVE_SLICE = ("force",)


@pytest.fixture(scope="module")
def harness(vulkan_folder) -> Path:
    if not sys.platform.startswith("linux"):
        pytest.skip("the late-copy harness is loaded with LD_PRELOAD (Linux)")
    started = time.perf_counter()
    library = late_copy.build()
    missing = late_copy.missing_symbols(library, vulkan_folder)
    print(f"\nlate-copy harness: {library} ({time.perf_counter() - started:.2f} s to build "
          f"and check)")
    assert not missing, f"the harness no longer matches ggml: {missing}"
    return library


@pytest.fixture(scope="module")
def cpu_run(device_model, tmp_path_factory) -> dict:
    return run_child(device_model, None, tmp_path_factory.mktemp("late-cpu"))


def run_late(model: Path, folder: str, out: Path, library: Path, mutation: str | None = None,
             *mode: str) -> tuple[dict, dict]:
    """The device-path child on lavapipe under the harness: its answer and the report."""
    started = time.perf_counter()
    steps = MUTATION_STEPS if mode else STEPS
    result = run_child(model, folder, out, steps, *mode,
                       **late_copy.env(library, out / "reports", mutation))
    found = late_copy.report(out / "reports")
    late_copy.check_intercepted(found)
    assert found["mutation"] == (mutation or "none")
    counters = result["slots"]["counters"]
    print(f"\n{mutation or 'no mutation'}: {found['held']} copies held "
          f"({found['held_bytes']} bytes), landed {found['landed']}, most pending "
          f"{found['max_pending']}, sources rewritten {found['rewritten_sources']}; ordering "
          f"violations {counters['order_violations']}; child {time.perf_counter() - started:.1f} s")
    return result, found


def test_the_real_path_gives_the_cpu_builds_tokens_under_late_copies(
        harness, vulkan_folder, device_model, cpu_run, tmp_path):
    """The device-path child's whole run: stock Vulkan, then the slot cache (prompt, warm start,
    48 greedy tokens), then three conversations and a restore."""
    result, found = run_late(device_model, vulkan_folder, tmp_path, harness)
    slots, counters = result["slots"], result["slots"]["counters"]
    assert result["variant"] == "vulkan" and slots["placement"]["gpu"] is not None
    assert slots["tokens"] == cpu_run["slots"]["tokens"] == cpu_run["stock"]["tokens"]
    assert result["stock"]["tokens"] == cpu_run["stock"]["tokens"]
    assert float(np.abs(result["stock"]["logits"] - slots["logits"]).max()) <= LOGIT_TOLERANCE
    assert counters["order_checks"] >= STEPS and counters["order_violations"] == 0
    assert counters["staging_violations"] == 0
    assert slots["conversations"]["restored_bytes"] > 0
    # every copy the slot cache queued went through the harness and landed at a wait or a sync
    assert found["held"] >= counters["async_copies"] > 0
    assert found["rewritten_sources"] == 0 and found["pending_at_exit"] == 0
    assert found["skipped_waits"] == found["redirected_waits"] == found["scribbled"] == 0


@pytest.mark.parametrize("mutation", late_copy.MUTATIONS)
def test_a_wrong_upload_wait_changes_the_tokens_under_late_copies(
        mutation, harness, vulkan_folder, device_model, cpu_run, tmp_path):
    result, found = run_late(device_model, vulkan_folder, tmp_path, harness, mutation,
                             "slots-only")
    tokens, expected = result["slots"]["tokens"], cpu_run["slots"]["tokens"][:MUTATION_STEPS]
    first = next((i for i, (a, b) in enumerate(zip(tokens, expected)) if a != b), None)
    print(f"{mutation}: first token that differs from the CPU build's: {first} of "
          f"{MUTATION_STEPS}")
    assert tokens != expected, f"{mutation} left the tokens unchanged: the harness missed it"
    # the mutation acted, and the product's bookkeeping check could not see it
    acted = {"skip_wait": found["skipped_waits"], "wrong_event": found["short_waits"],
             "scribble": found["rewritten_sources"]}
    assert acted[mutation] > 0, found
    assert result["slots"]["counters"]["order_violations"] == 0


@pytest.fixture
def harness_on(harness, tmp_path, monkeypatch) -> Path:
    """ROTARY_LATE_COPY=1 for the other device tests' helpers (their child_env reads it);
    returns the folder their children report to."""
    reports = tmp_path / "reports"
    monkeypatch.setenv(late_copy.ENV_SWITCH, "1")
    monkeypatch.setenv(late_copy.REPORT_ENV, str(reports))
    monkeypatch.delenv("ROTARY_LATE_COPY_MUTATION", raising=False)
    return reports


def check_reports(reports: Path) -> dict:
    found = late_copy.report(reports)
    late_copy.check_intercepted(found)
    assert all(r["rewritten_sources"] == 0 for r in late_copy.reports(reports))
    print(f"\nunder the harness: {found['held']} copies held, landed {found['landed']}")
    return found


def test_rereserve_cases_under_late_copies(harness_on, vulkan_folder, device_model):
    """A slice of tests/engine/test_vulkan_rereserve.py: forced routing switched on and off (a
    graph re-reserve mid conversation), against the CPU build's tokens."""
    cpu = rereserve.run_cases(device_model, None, RERESERVE_SLICE)
    vulkan = rereserve.run_cases(device_model, vulkan_folder, RERESERVE_SLICE)
    for case in RERESERVE_SLICE:
        assert rereserve.compare(cpu[case], vulkan[case]) >= 2 * len(cpu[case]["segments"])
        for counters in vulkan[case]["counters"]:
            assert counters["order_checks"] > 0 and counters["order_violations"] == 0
    check_reports(harness_on)


def test_stress_prompt_under_late_copies(harness_on, vulkan_folder, device_model,
                                         tmp_path):
    """tests/engine/test_device_stress.py's shrunk prompt, answered this time: a reload with
    batches of 64, then one 219-word prompt (ggml's scheduler copies the used experts to the
    device on the compute stream, which the harness lands before the graph on that stream)."""
    children = (stress.Child(device_model, None, tmp_path / "cpu.log"),
                stress.Child(device_model, vulkan_folder, tmp_path / "vulkan.log"))
    try:
        stress.check(children, [{"conv": 2, "length": 219, "seed": 1117, "answer": 6,
                                 "stop": None, "reload": [512, 64]}])
    finally:
        for child in children:
            child.close()
    assert check_reports(harness_on)["landed"]["stream"] > 0
