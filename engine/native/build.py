"""Compile the engine's small C helpers (engine/native/csrc) once per machine, on first use.

The project already needs a C compiler to build llama-cpp-python; where none is found
the engine falls back to its pure-Python equivalents and says so in the log. An installed
bundle ships them prebuilt in ``prebuilt/`` (build.spec compiles them at build time), so a
user's machine, which usually has no compiler, never compiles anything.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import platformdirs

log = logging.getLogger("rotary.native_build")
CSRC = pathlib.Path(__file__).resolve().parent / "csrc"
PREBUILT = pathlib.Path(__file__).resolve().parent / "prebuilt"   # filled by build.spec only
SUFFIX = {"win32": ".dll", "darwin": ".dylib"}.get(sys.platform, ".so")


def find_compiler() -> str | None:
    for candidate in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    return None


def cache_dir() -> pathlib.Path:
    override = os.environ.get("ROTARY_NATIVE_CACHE")
    return pathlib.Path(override) if override else pathlib.Path(
        platformdirs.user_cache_dir("Rotary", appauthor=False)) / "native"


@functools.lru_cache(maxsize=None)
def build_library(source_name: str) -> pathlib.Path | None:
    """Path of the compiled library for ``csrc/<source_name>``, or None if it can't be built."""
    prebuilt = PREBUILT / (pathlib.Path(source_name).stem + SUFFIX)
    if prebuilt.exists():
        return prebuilt
    if getattr(sys, "frozen", False):      # a bundle without its prebuilt copy: no source
        log.warning("the bundle has no prebuilt %s; falling back to Python", source_name)
        return None
    source = CSRC / source_name
    digest = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    target = cache_dir() / digest / (source.stem + SUFFIX)
    if target.exists():
        return target
    compiler = find_compiler()
    if compiler is None:
        log.warning("no C compiler found; %s falls back to Python", source_name)
        return None
    return _compile(compiler, source, target)


def compile_into(source_name: str, directory: pathlib.Path) -> pathlib.Path | None:
    """Compile ``csrc/<source_name>`` into ``directory`` (build.spec's build-time step)."""
    compiler = find_compiler()
    if compiler is None:
        log.warning("no C compiler found for %s", source_name)
        return None
    source = CSRC / source_name
    return _compile(compiler, source, pathlib.Path(directory) / (source.stem + SUFFIX))


def _compile(compiler: str, source: pathlib.Path, target: pathlib.Path) -> pathlib.Path | None:
    target.parent.mkdir(parents=True, exist_ok=True)
    # Build beside the target, then rename: concurrent first runs never see half a file.
    with tempfile.TemporaryDirectory(dir=target.parent) as folder:
        partial = pathlib.Path(folder) / target.name
        command = [compiler, "-O2", "-shared", "-fPIC", "-fvisibility=hidden", "-o",
                   str(partial), str(source)]
        if sys.platform != "win32":
            command.append("-lm")           # rotary_policy.c's exp(); Windows has it in the CRT
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            log.warning("compiling %s failed: %s", source.name, result.stderr[-2000:])
            return None
        os.replace(partial, target)
    return target
