"""Shared fixtures for engine tests. Each block is self-contained; append new ones below."""

from __future__ import annotations

import dataclasses
import os
import pathlib
from typing import Callable

import pytest

from engine.demo.demo_model import write_demo_model
from engine.native import backends
from tests.support.shapes import SHAPES, write_shape_fixture
from tests.support.vulkan_device import unavailable, vulkan_variant


# ---- shape fixtures: header-only GGUFs of real models (sparse files, ~50 KB on disk each) ----

@pytest.fixture(scope="session")
def shape_fixture_dir(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    directory = tmp_path_factory.mktemp("shapes")
    for name in SHAPES:
        write_shape_fixture(name, directory)
    return directory


@pytest.fixture(scope="session")
def shape_fixture(shape_fixture_dir: pathlib.Path) -> Callable[[str], pathlib.Path]:
    """``shape_fixture("gpt-oss-20b")`` -> path of that fixture file."""
    def path_of(name: str) -> pathlib.Path:
        assert name in SHAPES, f"unknown shape fixture {name!r}; known: {sorted(SHAPES)}"
        return shape_fixture_dir / f"{name}.gguf"
    return path_of


# ---- the late-copy harness over the device tests (opt-in: ROTARY_LATE_COPY=1) ----

@pytest.fixture(scope="session", autouse=True)
def late_copy_session_check():
    """With ROTARY_LATE_COPY=1 every Vulkan child runs under tests/support/late_copy.c; at the
    end of the session the children's reports must show that it intercepted the upload path
    (a harness that intercepts nothing would pass everything) and, without a mutation, that no
    copy's source was rewritten before it landed."""
    from tests.support import late_copy

    yield
    if not late_copy.switched_on():
        return
    found = late_copy.reports(late_copy.session_reports())
    busy = [r for r in found if r["calls"]["ggml_backend_tensor_set_async"] > 0]
    print(f"\nlate-copy harness: {len(found)} processes, {len(busy)} queued copies: "
          f"{sum(r['held'] for r in busy)} held, landed {[r['landed'] for r in busy]}")
    if found:        # no report: no Vulkan child ran in this session
        assert busy and all(r["resolved"] for r in busy), found   # idle ones resolve nothing
        # at least one child went through the whole upload path (a child may skip the wait:
        # ROTARY_SLOT_TEST_SKIP_WAIT=1, or queue no upload: stock-only)
        waited = [r for r in busy if r["calls"]["ggml_backend_event_wait"] > 0]
        assert waited, busy
        late_copy.check_intercepted(max(waited, key=lambda r: r["landed"]["wait"]))
        if os.environ.get("ROTARY_LATE_COPY_MUTATION", "none") == "none":
            # the slot cache's own mutation (ROTARY_SLOT_TEST_SKIP_WAIT=1) refills staging early
            real = [r for r in busy if not r["slot_test_skip_wait"]]
            assert all(r["rewritten_sources"] == 0 for r in real), real


# ---- the demo model as a GGUF file, once per session (the office-server tests serve it) ----

@pytest.fixture(scope="session")
def demo_gguf(tmp_path_factory):
    return write_demo_model(tmp_path_factory.mktemp("remote") / "demo.gguf")


# ---- the Vulkan device tests' back-end and models (tests/support/vulkan_device.py) ----

@pytest.fixture(scope="module")
def vulkan_folder() -> str:
    variant = vulkan_variant()
    if variant is None:
        unavailable("no Vulkan back-end variant is installed (bootstrap.py test builds it)")
    listed = backends.list_devices(variant, extra_env={"GGML_VK_VISIBLE_DEVICES": "0"})
    if not any(d.backend == "Vulkan" for d in listed.devices):
        reason = f"the Vulkan variant lists no Vulkan device ({listed.error or 'none found'}); " \
                 "install mesa-vulkan-drivers for lavapipe"
        unavailable(reason)
    assert variant is not None
    return variant.folder


@pytest.fixture(scope="module")
def device_model(tmp_path_factory) -> pathlib.Path:
    from engine.demo.tiny_moe import SPECS, write_tiny_moe

    spec = dataclasses.replace(SPECS["test"], seed=2, layer_scale=0.3)
    return write_tiny_moe(tmp_path_factory.mktemp("device") / "device-path.gguf", spec)


@pytest.fixture(scope="module")
def qwen36_mini(tmp_path_factory) -> pathlib.Path:
    from tests.support.loadable_shapes import MINI, qwen36_spec, write_loadable

    return write_loadable(qwen36_spec(MINI), tmp_path_factory.mktemp("qwen36") / "qwen36-mini.gguf")
