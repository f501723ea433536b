"""The C helpers: built by pip install, found without compiling, never loaded when stale, and
checked against their headers (sizes, offsets, codes) when they load."""

from __future__ import annotations

import ctypes
import pathlib
import shutil
import subprocess
import sys

import pytest

from engine.native import abi
from engine.native import build as native_build
from engine.native.libraries import HELPERS, SUFFIX
from engine.residency import native_rotary
from engine.runtime.experts import routing

ROOT = pathlib.Path(__file__).resolve().parents[2]
ABI_SYMBOL = {"rotary_policy": "rp_abi", "rotary_routing": "rr_abi"}
needs_compiler = pytest.mark.skipif(native_build.find_compiler() is None,
                                    reason="needs a C compiler")


@pytest.fixture
def places(monkeypatch, tmp_path):
    """An empty install folder and cache; the lookups' memo cleared before and after."""
    installed, cache = tmp_path / "lib", tmp_path / "cache"
    installed.mkdir()
    monkeypatch.setattr(native_build, "INSTALLED", installed)
    monkeypatch.setenv("ROTARY_NATIVE_CACHE", str(cache))
    native_build.library_path.cache_clear()
    native_rotary.library.cache_clear()
    yield installed, cache
    native_build.library_path.cache_clear()
    native_rotary.library.cache_clear()


def _compiled(name: str, folder: pathlib.Path, filename: str | None = None,
              csrc: pathlib.Path = native_build.CSRC) -> pathlib.Path:
    helper = HELPERS[name]
    target = folder / (filename or helper.filename(helper.digest(csrc)))
    built = native_build.compile_helper(native_build.find_compiler(), helper, target, csrc)
    assert built == target
    return built


@needs_compiler
def test_pip_install_builds_every_helper_into_the_package(tmp_path):
    # setup.py's build step, as pip runs it for `pip install .` (a wheel) and `-e .`
    result = subprocess.run(
        [sys.executable, "setup.py", "--quiet", "build_ext", "--build-lib",
         str(tmp_path / "lib"), "--build-temp", str(tmp_path / "temp")],
        cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    for name, helper in HELPERS.items():
        built = tmp_path / "lib" / "engine" / "native" / "lib" / helper.filename(helper.digest())
        assert built.exists(), sorted(p.name for p in (tmp_path / "lib").rglob("*"))
        table = abi.read_table(ctypes.CDLL(str(built)), ABI_SYMBOL[name], name)
        assert table.structs, name           # a plain C library that describes itself


@needs_compiler
@pytest.mark.parametrize("name", sorted(HELPERS))
def test_the_copy_built_at_install_is_taken_without_compiling(places, monkeypatch, name):
    installed, _cache = places
    built = _compiled(name, installed)
    monkeypatch.setattr(native_build, "find_compiler", lambda: pytest.fail("compiled"))
    assert native_build.library_path(name) == built


@needs_compiler
@pytest.mark.parametrize("name", sorted(HELPERS))
def test_a_copy_built_from_older_sources_is_never_loaded(places, name):
    installed, cache = places
    stale = _compiled(name, installed, f"{name}-0123456789abcdef{SUFFIX}")
    path = native_build.library_path(name)
    assert path != stale and path.parent == cache       # compiled afresh, once per machine
    native_build.library_path.cache_clear()
    assert native_build.library_path(name) == path      # and then reused


@needs_compiler
def test_a_bundle_takes_the_copy_it_carries_and_never_compiles(places, monkeypatch, tmp_path):
    installed, _cache = places
    carried = _compiled("rotary_routing", installed)
    monkeypatch.setattr(native_build, "CSRC", tmp_path / "no-sources")    # a bundle, a wheel
    monkeypatch.setattr(native_build, "find_compiler", lambda: pytest.fail("compiled"))
    assert native_build.library_path("rotary_routing") == carried
    assert native_build.library_path("rotary_policy") is None       # carried nothing: Python


def test_without_a_compiler_a_checkout_falls_back_to_python(places, monkeypatch):
    monkeypatch.setattr(native_build, "find_compiler", lambda: None)
    assert native_build.library_path("rotary_policy") is None
    assert not native_rotary.available()
    assert isinstance(routing.make_recorder(), routing.RoutingRecorder)


# ---- the ABI checks ------------------------------------------------------------------------

@needs_compiler
def test_the_policys_mirror_and_codes_agree_with_its_header(places):
    assert native_rotary.available()
    assert native_rotary.ERRORS[native_rotary.CODES["RP_E_NO_VICTIM"]].startswith("no slot")
    calls = {call for call in native_rotary.FAILED.values() if call}
    assert calls == set(native_rotary._Engine.CALLS)


def _with_header_change(name: str, tmp_path: pathlib.Path, header: str, old: str, new: str):
    """``name`` compiled from a copy of csrc/ whose ``header`` has ``old`` replaced."""
    csrc = tmp_path / "csrc"
    shutil.copytree(native_build.CSRC, csrc)
    text = (csrc / header).read_text()
    assert old in text
    (csrc / header).write_text(text.replace(old, new))
    return ctypes.CDLL(str(_compiled(name, tmp_path, csrc=csrc)))


@needs_compiler
def test_a_code_added_in_c_only_fails_loudly_by_name(tmp_path):
    lib = _with_header_change("rotary_policy", tmp_path, "rotary_policy.h",
                              "X(RP_E_UNBOUND, -6)", "X(RP_E_UNBOUND, -6) X(RP_E_LATER, -7)")
    with pytest.raises(abi.NativeAbiError, match="only in C: RP_E_LATER"):
        native_rotary._check_abi(lib)


@needs_compiler
def test_a_field_added_in_c_only_fails_loudly(tmp_path):
    lib = _with_header_change("rotary_policy", tmp_path, "rotary_policy.h",
                              "    void *ctx;\n", "    void *ctx;\n    int64_t generation;\n")
    with pytest.raises(abi.NativeAbiError, match=r"rp_engine .*_Engine.*field model_layer at"):
        native_rotary._check_abi(lib)


@needs_compiler
def test_a_recorder_mirror_with_a_wrong_type_fails_loudly(places, monkeypatch):
    fields = [(n, ctypes.c_int64 if n == "max_rows" else t)
              for n, t in routing._RecorderState._fields_]
    monkeypatch.setattr(routing, "_RecorderState",
                        type("_RecorderState", (ctypes.Structure,), {"_fields_": fields}))
    with pytest.raises(abi.NativeAbiError, match="rr_state .* field max_rows at offset"):
        routing.routing_library()


def test_ggml_tensor_matches_the_loaded_ggml_and_a_wrong_one_fails(monkeypatch):
    from engine.runtime import bindings

    lib = bindings.ggml()                                # checked once, at first use
    bindings.check_tensor_layout(lib)
    fields = [entry for entry in bindings.GgmlTensor._fields_ if entry[0] != "view_offs"]
    shifted = type("GgmlTensor", (ctypes.Structure,), {"_fields_": fields})
    monkeypatch.setattr(bindings, "GgmlTensor", shifted)
    monkeypatch.setattr(bindings, "TENSOR_NAME_OFFSET", shifted.name.offset)
    with pytest.raises(abi.NativeAbiError, match="data, name, size differ"):
        bindings.check_tensor_layout(lib)
