"""The set-up installs the patched llama-cpp-python, and its build facts (llama_build.py, shared
by bootstrap.py and the CUDA check) key the wheel and the GPU back-ends correctly."""

from __future__ import annotations

import importlib.util
import os
import pathlib

import pytest

from engine.runtime.experts import slot_cache

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _build_facts():
    spec = importlib.util.spec_from_file_location("llama_build", ROOT / "llama_build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(os.environ.get("ROTARY_EXPECT_SLOT_CACHE") != "1",
                    reason="set by 'bootstrap.py test', which installs the patched build")
def test_the_installed_llama_cpp_has_the_slot_cache():
    assert slot_cache.available(), slot_cache.STOCK_MESSAGE


def test_the_wheel_key_covers_version_flags_and_every_patch(tmp_path, monkeypatch):
    bootstrap = _build_facts()
    patches = sorted((ROOT / "engine" / "native" / "patches").glob("*.patch"))
    assert len(patches) >= 4
    key, vulkan = bootstrap.wheel_key(bootstrap.CPU_CMAKE_ARGS), bootstrap.variant_key("vulkan")
    assert key != bootstrap.wheel_key(bootstrap.CUDA_CMAKE_ARGS)
    assert vulkan not in (key, bootstrap.variant_key("cpu"))
    copy = tmp_path / "patches"
    copy.mkdir()
    for patch in patches:
        (copy / patch.name).write_bytes(patch.read_bytes())
    monkeypatch.setattr(bootstrap, "PATCHES", copy)
    assert bootstrap.wheel_key(bootstrap.CPU_CMAKE_ARGS) == key
    (copy / patches[-1].name).write_bytes(patches[-1].read_bytes() + b"\n")
    assert bootstrap.wheel_key(bootstrap.CPU_CMAKE_ARGS) != key
    assert bootstrap.variant_key("vulkan") != vulkan      # a GPU back-end follows the patches too


def test_a_patch_that_does_not_apply_stops_the_set_up(tmp_path, monkeypatch):
    bootstrap = _build_facts()
    source = tmp_path / "sdist"
    (source / "vendor" / "llama.cpp" / "ggml" / "src" / "ggml-cpu").mkdir(parents=True)
    (source / "vendor" / "llama.cpp" / "ggml" / "src" / "ggml-cpu" / "ggml-cpu.c").write_text("x\n")
    first = sorted((ROOT / "engine" / "native" / "patches").glob("*.patch"))[0].name
    with pytest.raises(SystemExit, match=f"{first}.*does not apply"):
        bootstrap.apply_patches(source)


def test_the_llama_cpp_version_is_written_in_pyproject_only(tmp_path, monkeypatch):
    """bootstrap reads the pin from pyproject.toml (it had its own copy to keep in step),
    with tomllib or, on Python 3.10, its own small reader: both read the same list."""
    import builtins
    import sys

    bootstrap = _build_facts()
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    with_tomllib = bootstrap._dependencies(text)
    real_import = builtins.__import__

    def without_tomllib(name, *args, **kwargs):
        if name == "tomllib":
            raise ModuleNotFoundError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_tomllib)
    assert bootstrap._dependencies(text) == with_tomllib
    assert "bootstrap.py" not in text and "0.3.36" not in (ROOT / "bootstrap.py").read_text()
    assert "0.3.36" not in (ROOT / "llama_build.py").read_text()
    assert bootstrap.LLAMA_REQUIREMENT in with_tomllib
    monkeypatch.setattr(builtins, "__import__", real_import)
    changed = tmp_path / "pyproject.toml"
    changed.write_text(text.replace(bootstrap.LLAMA_REQUIREMENT, "llama-cpp-python == 9.9.9"))
    assert bootstrap.pinned("llama-cpp-python", changed) == "llama-cpp-python==9.9.9"
    changed.write_text(text.replace(bootstrap.LLAMA_REQUIREMENT, "llama-cpp-python>=0.3"))
    with pytest.raises(SystemExit, match="does not pin"):
        bootstrap.pinned("llama-cpp-python", changed)
    if sys.version_info >= (3, 11):
        import tomllib
        assert with_tomllib == tomllib.loads(text)["project"]["dependencies"]


def test_a_variant_folder_holds_each_library_once_and_the_unversioned_ones(tmp_path):
    """What llama-server needs beside it: libllama-server-impl.so has no version, so it is its
    own soname (a warm cache once hid that it was left out: the server failed with 127)."""
    bootstrap = _build_facts()
    bin_ = tmp_path / "tree" / "bin"
    bin_.mkdir(parents=True)
    (bin_ / "libllama.so.0.5.0").write_bytes(b"llama")
    (bin_ / "libllama.so.0").symlink_to("libllama.so.0.5.0")
    (bin_ / "libllama.so").symlink_to("libllama.so.0")
    (bin_ / "libllama-server-impl.so").write_bytes(b"impl")
    (bin_ / "llama-server").write_bytes(b"exe")
    bootstrap._copy_libraries(tmp_path / "tree", tmp_path / "out")
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == [
        "libllama-server-impl.so", "libllama.so", "libllama.so.0"]
    assert (out / "libllama.so").is_symlink() and not (out / "libllama.so.0").is_symlink()
    assert (out / "libllama.so").read_bytes() == b"llama"
    assert (out / "libllama-server-impl.so").read_bytes() == b"impl"
