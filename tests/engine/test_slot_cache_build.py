"""The set-up installs the patched llama-cpp-python, and bootstrap keys its wheel correctly."""

from __future__ import annotations

import importlib.util
import os
import pathlib

import pytest

from engine.runtime import slot_cache

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _bootstrap():
    spec = importlib.util.spec_from_file_location("bootstrap", ROOT / "bootstrap.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(os.environ.get("ROTARY_EXPECT_SLOT_CACHE") != "1",
                    reason="set by 'bootstrap.py test', which installs the patched build")
def test_the_installed_llama_cpp_has_the_slot_cache():
    assert slot_cache.available(), slot_cache.STOCK_MESSAGE


def test_the_wheel_key_covers_version_flags_and_every_patch(tmp_path, monkeypatch):
    bootstrap = _bootstrap()
    patches = sorted((ROOT / "engine" / "native" / "patches").glob("*.patch"))
    assert len(patches) >= 4
    key = bootstrap.wheel_key(bootstrap.CPU_CMAKE_ARGS)
    assert key != bootstrap.wheel_key(bootstrap.CUDA_CMAKE_ARGS)
    copy = tmp_path / "patches"
    copy.mkdir()
    for patch in patches:
        (copy / patch.name).write_bytes(patch.read_bytes())
    monkeypatch.setattr(bootstrap, "PATCHES", copy)
    assert bootstrap.wheel_key(bootstrap.CPU_CMAKE_ARGS) == key
    (copy / patches[-1].name).write_bytes(patches[-1].read_bytes() + b"\n")
    assert bootstrap.wheel_key(bootstrap.CPU_CMAKE_ARGS) != key


def test_a_patch_that_does_not_apply_stops_the_set_up(tmp_path, monkeypatch):
    bootstrap = _bootstrap()
    source = tmp_path / "sdist"
    (source / "vendor" / "llama.cpp" / "ggml" / "src" / "ggml-cpu").mkdir(parents=True)
    (source / "vendor" / "llama.cpp" / "ggml" / "src" / "ggml-cpu" / "ggml-cpu.c").write_text("x\n")
    with pytest.raises(SystemExit, match="0001-.*does not apply"):
        bootstrap.apply_patches(source)
