"""A missing or wrong upload wait must change the answer on lavapipe: the late-copy harness.

lavapipe runs the copy backend and the compute backend on one in-order queue, so the slot
cache's uploads always land before the next graph, whether that graph waited for them or not
(tests/engine/test_vulkan_device_path.py, test_slots_read_right_after_their_upload). The
harness (tests/support/late_copy.c, loaded with LD_PRELOAD into the Vulkan child) holds every
``ggml_backend_tensor_set_async`` back until ggml's API obliges it to be done, and reads its
source only then, as a copy engine on a card would. Under it:

* the real path gives the CPU build's greedy tokens, with 0 ordering violations and no copy
  whose source was rewritten before it landed;
* each mutation, a switch of the loaded harness (``LATE_COPY_MUTATION``), changes the tokens:
  the graph's wait made a no-op (``skip_wait``), the wait redirected to the event recorded
  before ``uploads_done`` on the copy backend (``wrong_event``: the previous step's staging
  half), the staging memory zeroed right after each copy was queued (``scribble``). The slot
  cache's own ordering check (ROTARY_SLOT_CHECK=1) sees none of them: its bookkeeping is right,
  what it cannot see is whether the device honoured the wait.

Measured on the shared 2-core machine: see docs/backends.md ("The late-copy harness").
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.engine.test_vulkan_device_path import (device_model, run_child,  # noqa: F401
                                                  vulkan_folder)
from tests.support import late_copy

# greedy tokens per run: enough for steps that read slots uploaded after the step before
STEPS = 16


@pytest.fixture(scope="module")
def harness(vulkan_folder) -> Path:  # noqa: F811 - the fixture imported above
    started = time.perf_counter()
    library = late_copy.build()
    missing = late_copy.missing_symbols(library, vulkan_folder)
    print(f"\nlate-copy harness: {library} ({time.perf_counter() - started:.2f} s to build "
          f"and check)")
    assert not missing, f"the harness no longer matches ggml: {missing}"
    return library


@pytest.fixture(scope="module")
def cpu_tokens(device_model, tmp_path_factory) -> list[int]:  # noqa: F811
    run = run_child(device_model, None, tmp_path_factory.mktemp("late-cpu"), STEPS, "slots-only")
    return run["slots"]["tokens"]


def run_late(model: Path, folder: str, out: Path, library: Path,
             mutation: str | None = None) -> tuple[dict, dict]:
    """The slot cache's run on lavapipe under the harness: the child's answer and the report."""
    started = time.perf_counter()
    result = run_child(model, folder, out, STEPS, "slots-only",
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
        harness, vulkan_folder, device_model, cpu_tokens, tmp_path):  # noqa: F811
    result, found = run_late(device_model, vulkan_folder, tmp_path, harness)
    counters = result["slots"]["counters"]
    assert result["variant"] == "vulkan" and result["slots"]["placement"]["gpu"] is not None
    assert result["slots"]["tokens"] == cpu_tokens
    assert counters["order_checks"] >= STEPS and counters["order_violations"] == 0
    assert counters["staging_violations"] == 0
    # every copy the slot cache queued went through the harness and landed at a wait or a sync
    assert found["held"] >= counters["async_copies"] > 0
    assert found["rewritten_sources"] == 0 and found["pending_at_exit"] == 0
    assert found["skipped_waits"] == found["redirected_waits"] == found["scribbled"] == 0


@pytest.mark.parametrize("mutation", late_copy.MUTATIONS)
def test_a_wrong_upload_wait_changes_the_tokens_under_late_copies(
        mutation, harness, vulkan_folder, device_model, cpu_tokens, tmp_path):  # noqa: F811
    result, found = run_late(device_model, vulkan_folder, tmp_path, harness, mutation)
    tokens = result["slots"]["tokens"]
    first = next((i for i, (a, b) in enumerate(zip(tokens, cpu_tokens)) if a != b), None)
    print(f"{mutation}: first token that differs from the CPU build's: {first} of {STEPS}")
    assert tokens != cpu_tokens, f"{mutation} left the tokens unchanged: the harness missed it"
    # the mutation acted, and the product's bookkeeping check could not see it
    acted = {"skip_wait": found["skipped_waits"], "wrong_event": found["short_waits"],
             "scribble": found["rewritten_sources"]}
    assert acted[mutation] > 0, found
    assert result["slots"]["counters"]["order_violations"] == 0
