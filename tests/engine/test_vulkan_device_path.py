"""The slot cache's device path on a real (software) Vulkan device: Mesa's lavapipe.

The installed Vulkan variant (engine/native/backends.py: ``<venv>/rotary-backends/vulkan``)
runs in a child process (tests/support/device_path_child.py) with ``LLAMA_CPP_LIB_PATH``
naming it and ``GGML_VK_VISIBLE_DEVICES=0`` (ggml lists lavapipe, a CPU-type device, only
when named): this test process already holds the CPU build. The CPU build's run of the same
child is the reference for the tokens.

The model (engine/demo/tiny_moe.py, the "test" layout with seed 2 and layer scale 0.3) was
chosen because its greedy tokens do not fall into a repeated token (checked below: a model
whose output collapses would make equal tokens prove little); its smallest top-1 margin over
48 steps is ~0.009, above the Vulkan/CPU logit differences.

lavapipe has one queue (vulkaninfo: one queue family, queueCount 1, so even
GGML_VK_ASYNC_USE_TRANSFER_QUEUE gets the same queue): the copy backend and the compute backend
submit to the same in-order queue, so these runs prove the API use, the ordering of commands
and the exactness, not the absence of races between two real queues (see
test_slots_read_right_after_their_upload, which cannot fail here).

Measured on the 2-core CI machine, one run each: the Vulkan child takes ~15-30 s with Mesa's
shader cache warm and ~80 s cold (pipeline compiles: ggml keeps no pipeline cache, lavapipe
keeps its shaders in ~/.cache/mesa_shader_cache); lavapipe decodes this model at ~5-10
tokens/s against ~1,100-2,900 on the CPU build (this proves the path, not speed).
"""

from __future__ import annotations

import collections
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.support.vulkan_device import CHILD_TIMEOUT_S, LOGIT_TOLERANCE, ROOT, STEPS, child_env, run_child

MUTATION_STEPS = 12
VALIDATION_STEPS = 16
# Debian's vulkan-validationlayers (bootstrap.py test installs it with apt)
VALIDATION_LAYER = "VK_LAYER_KHRONOS_validation"
LAYER_MANIFESTS = (Path("/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json"),
                   Path("/usr/local/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json"))
WARM_STEPS = 16     # tests/support/device_path_child.py reads the counters there too


@pytest.fixture(scope="module")
def runs(vulkan_folder, device_model, tmp_path_factory) -> tuple[dict, dict]:
    out = tmp_path_factory.mktemp("runs")
    cpu = run_child(device_model, None, out / "cpu")
    vulkan = run_child(device_model, vulkan_folder, out / "vulkan")
    print(f"\nlavapipe: stock {vulkan['stock']['tps']:.1f} tokens/s, slots "
          f"{vulkan['slots']['tps']:.1f} tokens/s; CPU build: stock {cpu['stock']['tps']:.1f}, "
          f"slots {cpu['slots']['tps']:.1f}; Vulkan child {vulkan['total_s']:.1f} s "
          f"(first model {vulkan['first_run_s']:.1f} s), transfer {vulkan['slots']['transfer']}")
    return cpu, vulkan


def test_the_child_ran_on_the_vulkan_device(runs):
    _, vulkan = runs
    assert vulkan["device"].startswith("Vulkan") and vulkan["variant"] == "vulkan"
    placement = vulkan["slots"]["placement"]
    assert placement["backend"] == "Vulkan" and placement["gpu"]["device"] == vulkan["device"]
    assert placement["gpu"]["slot_bytes"] > 0 and placement["ram_slot_bytes"] == 0
    assert "graphics card" in placement["summary"]


def test_the_greedy_tokens_do_not_collapse(runs):
    cpu, _ = runs
    tokens = cpu["stock"]["tokens"]
    assert len(tokens) == STEPS
    assert len(set(tokens)) >= 32 and len(set(tokens[STEPS // 2:])) >= 16


def test_top1_tokens_equal_the_cpu_builds(runs):
    cpu, vulkan = runs
    assert vulkan["slots"]["tokens"] == cpu["stock"]["tokens"] == cpu["slots"]["tokens"]
    assert vulkan["stock"]["tokens"] == cpu["stock"]["tokens"]


def test_logits_within_tolerance_of_stock_vulkan(runs):
    _, vulkan = runs
    stock, slots = vulkan["stock"]["logits"], vulkan["slots"]["logits"]
    worst = float(np.abs(stock - slots).max())
    print(f"\nslots vs stock Vulkan: largest logit difference {worst:.2e} "
          f"(tolerance {LOGIT_TOLERANCE:.0e}; logits span {float(np.ptp(stock)):.1f})")
    assert worst <= LOGIT_TOLERANCE


def test_native_counters_show_the_asynchronous_path(runs):
    _, vulkan = runs
    counters = vulkan["slots"]["counters"]
    assert counters["async_copies"] > 0 and counters["sync_copies"] == 0
    assert counters["graph_waits"] >= STEPS - 1   # every token's graph waited for its uploads
    assert counters["staged_bytes"] > 0          # the copies came through pinned staging
    # The host never waited for the device on the cache's behalf while decoding: between the
    # first warm start and the end, the one wait is the second prompt's routing read (a warm
    # start reads the prompt's routing once the prompt is computed; the probe at load waits
    # too). TokenResidency counts a warm start's wait into the first token after it.
    assert counters["host_waits"] - vulkan["slots"]["after_warm"]["host_waits"] == 1
    assert sum(waits for _, _, waits in vulkan["slots"]["steps"][1:]) == 0


def test_slots_read_right_after_their_upload(runs):
    """The test a missing event wait would fail on a device with two queues: experts uploaded
    after token t are read by token t+1's graph, which the graph may only start once the copy
    is done. Without the wait, a second queue could run the graph on the slot's old expert and
    the logits would leave the tolerance. On lavapipe's single in-order queue the copy always
    lands first, so here this passes with or without the wait: it proves ordering of submission,
    not freedom from races."""
    _, vulkan = runs
    steps = vulkan["slots"]["steps"]
    read_after_upload = sum(1 for (uploads, _, _), (_, hits, _) in zip(steps, steps[1:])
                            if uploads and hits)
    assert read_after_upload >= 10
    stock, slots = vulkan["stock"]["logits"], vulkan["slots"]["logits"]
    assert float(np.abs(stock - slots).max()) <= LOGIT_TOLERANCE


def test_the_ordering_check_finds_no_violation_on_the_real_path(runs):
    """Check mode (ROTARY_SLOT_CHECK=1): each decode graph's wait must cover the upload
    generation of every slot it may read, and no staging half may be refilled before the copies
    that read it completed; on both builds the real path has none."""
    for run in runs:
        counters = run["slots"]["counters"]
        assert counters["order_checks"] >= STEPS
        assert counters["order_violations"] == 0 and counters["staging_violations"] == 0


def test_skipping_the_upload_wait_makes_the_ordering_check_fire(vulkan_folder, device_model,
                                                                tmp_path):
    """The mutation that lavapipe's one queue hides (same tokens, same logits, same validation
    messages): ROTARY_SLOT_TEST_SKIP_WAIT=1 drops the graph's wait for the uploads inside the
    patched library; the check must see slots read newer than what the graph waited for."""
    mutated = run_child(device_model, vulkan_folder, tmp_path, MUTATION_STEPS, "slots-only",
                        ROTARY_SLOT_TEST_SKIP_WAIT="1")
    counters = mutated["slots"]["counters"]
    print(f"\nwithout the wait on lavapipe: {counters['order_violations']} late slot reads, "
          f"{counters['staging_violations']} staging halves refilled early, "
          f"{counters['order_checks']} graphs checked, {mutated['total_s']:.1f} s")
    assert mutated["variant"] == "vulkan" and mutated["slots"]["placement"]["gpu"] is not None
    assert counters["order_checks"] >= MUTATION_STEPS and counters["order_violations"] > 0


def test_no_device_events_or_command_buffers_pile_up(runs):
    """ggml-vulkan takes a new VkEvent at every record until the event is synchronised, and a
    new command buffer while the last one is marked in use: the cache synchronises its events
    once the graph that waited for them finished, so after warm-up nothing more is created."""
    _, vulkan = runs
    warm, end = vulkan["slots"]["warm_counters"], vulkan["slots"]["counters"]
    print(f"\nVulkan objects at step {WARM_STEPS} and {STEPS}: events {warm['device_events']} "
          f"-> {end['device_events']}, command buffers {warm['device_cmd_buffers']} "
          f"-> {end['device_cmd_buffers']}; uploads {warm['async_copies']} -> {end['async_copies']}")
    assert warm["device_events"] > 0 and end["async_copies"] > warm["async_copies"]
    assert end["device_events"] == warm["device_events"]
    assert end["device_cmd_buffers"] == warm["device_cmd_buffers"]


def test_prompt_warm_start_on_the_device(runs):
    _, vulkan = runs
    slots = vulkan["slots"]
    before, after = slots["before_prompt"], slots["after_warm"]
    assert slots["warm_bytes"] > 0
    assert after["async_copies"] > before["async_copies"] and after["sync_copies"] == 0
    assert after["prompt_tokens"] > 0


def test_conversation_switch_restores_residency_on_the_device(runs):
    _, vulkan = runs
    chats = vulkan["slots"]["conversations"]
    assert chats["first"] != chats["second"]
    assert chats["restored"] == chats["first"] and chats["restored_bytes"] > 0
    assert chats["after_switch"]["async_copies"] > chats["before_switch"]["async_copies"]
    assert chats["after_switch"]["sync_copies"] == 0


def test_the_transfer_probe_measures_the_device_and_sets_the_cap(runs):
    _, vulkan = runs
    transfer = vulkan["slots"]["transfer"]
    assert transfer is not None, "the probe did not run: were the banks on the device?"
    figures = transfer["figures"]
    assert figures["pinned_gbs"] > 0 and figures["pageable_gbs"] > 0 and figures["cpu_gbs"] > 0
    assert vulkan["slots"]["upload_cap"] == transfer["cap"]


def validation_env(folder: Path) -> dict:
    """The Khronos layer with synchronization validation, logging to folder/validation.log:
    one settings file and one log per child (a shared log_filename is overwritten by each)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "vk_layer_settings.txt").write_text(
        "khronos_validation.debug_action = VK_DBG_LAYER_ACTION_LOG_MSG\n"
        f"khronos_validation.log_filename = {folder / 'validation.log'}\n"
        "khronos_validation.report_flags = error,warn,perf\n"
        "khronos_validation.enables = VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT,"
        "VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT\n",
        encoding="utf-8")
    return {"VK_LAYER_SETTINGS_PATH": str(folder), "VK_INSTANCE_LAYERS": VALIDATION_LAYER}


def message_ids(log: Path) -> collections.Counter:
    """How often each message id (VUID-…, SYNC-HAZARD-…, UNASSIGNED-…) was reported."""
    text = log.read_text(encoding="utf-8", errors="replace")
    return collections.Counter(re.findall(r"Validation [A-Za-z ]+: \[ (\S+) \]", text))


def test_the_slot_cache_adds_no_validation_message_over_stock(vulkan_folder, device_model,
                                                             tmp_path):
    """Stock Vulkan and the slot cache on Vulkan, each in a child under the validation layer
    with synchronization validation, on the same model and prompt: the slot cache's run may
    repeat stock's messages more often (more submissions) but must add no message id."""
    if not any(path.exists() for path in LAYER_MANIFESTS):
        reason = "the Khronos validation layer is not installed (Debian: vulkan-validationlayers)"
        if os.environ.get("ROTARY_EXPECT_VULKAN") == "1" and shutil.which("apt-get"):
            pytest.fail(f"bootstrap.py test installs it with apt, but {reason}")
        pytest.skip(reason)
    logs = {}
    for mode in ("stock-only", "slots-only"):
        folder = tmp_path / mode
        run_child(device_model, vulkan_folder, folder, VALIDATION_STEPS, mode,
                  **validation_env(folder))
        assert (folder / "validation.log").exists(), f"the layer did not run in {mode}"
        logs[mode] = message_ids(folder / "validation.log")
    stock, slots = logs["stock-only"], logs["slots-only"]
    print(f"\nvalidation, {VALIDATION_STEPS} steps: stock {dict(stock)}; slot cache {dict(slots)}")
    assert not set(slots) - set(stock), f"new message ids: {sorted(set(slots) - set(stock))}"


def run_long_prompt(model: Path, folder: str | None) -> dict:
    done = subprocess.run([sys.executable, "-m", "tests.support.long_prompt_child", str(model)],
                          cwd=ROOT, env=child_env(folder), capture_output=True, text=True,
                          timeout=CHILD_TIMEOUT_S, check=False)
    assert done.returncode == 0, f"exit {done.returncode}: {done.stderr[-3000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_long_prompt_of_the_reference_architecture_on_the_device(vulkan_folder, qwen36_mini):
    """64 prompt tokens (from 32, ggml offloads the CPU experts' matmuls to the device), then
    replayed steps, on the Qwen3.6 shape: the prompt's routing record once put a CPU node between
    router and experts, and lavapipe crashed (exit -11) in that graph every time; replay switched
    on at the first step, after the prompt (a graph re-reserve), crashed it in 2 runs of 3 until
    patch 0006. The record must still reach the warm start, routed as the CPU build routes it,
    and every replayed step must run."""
    cpu = run_long_prompt(qwen36_mini, None)
    vulkan = run_long_prompt(qwen36_mini, vulkan_folder)
    assert vulkan["variant"] == "vulkan" and vulkan["banks_on_device"] is True
    assert cpu["banks_on_device"] is False
    assert vulkan["steps"] == cpu["steps"] == len(vulkan["replayed"])
    on_device, on_cpu = np.array(vulkan["routing"]), np.array(cpu["routing"])
    assert on_device.shape == on_cpu.shape == (64, on_cpu.shape[1], on_cpu.shape[2])
    assert ((on_device >= 0) & (on_device < vulkan["n_expert"])).all()   # every token, every layer
    same = np.mean(np.sort(on_device, axis=2) == np.sort(on_cpu, axis=2))
    assert same >= 0.98, f"only {same:.3f} of the routed ids agree with the CPU build's"
