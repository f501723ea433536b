"""An installed bundle uses the routing helper compiled at build time, never a compiler."""

from __future__ import annotations

import ctypes
import sys

import pytest

from engine.native import build as native_build


@pytest.fixture
def fresh_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("ROTARY_NATIVE_CACHE", str(tmp_path / "cache"))
    native_build.build_library.cache_clear()
    yield tmp_path
    native_build.build_library.cache_clear()


@pytest.mark.skipif(native_build.find_compiler() is None, reason="needs a C compiler")
def test_the_prebuilt_library_is_taken_before_compiling(fresh_cache, monkeypatch):
    prebuilt = native_build.compile_into("rotary_routing.c", fresh_cache / "prebuilt")
    assert prebuilt is not None and hasattr(ctypes.CDLL(str(prebuilt)), "rr_callback")
    monkeypatch.setattr(native_build, "PREBUILT", prebuilt.parent)
    monkeypatch.setattr(native_build, "find_compiler", lambda: pytest.fail("compiled"))
    assert native_build.build_library("rotary_routing.c") == prebuilt


def test_a_bundle_without_its_prebuilt_library_falls_back_without_compiling(fresh_cache,
                                                                            monkeypatch):
    monkeypatch.setattr(native_build, "PREBUILT", fresh_cache / "missing")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(native_build, "find_compiler", lambda: pytest.fail("compiled"))
    assert native_build.build_library("rotary_routing.c") is None
