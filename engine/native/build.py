"""Find the engine's C helpers (engine/native/csrc, described in libraries.py).

``pip install`` builds them (setup.py) into ``engine/native/lib/``, named by a digest of
their sources; an installed bundle carries those copies, so a user's machine never compiles.
``library_path(name)`` takes, in order:

1. the copy built at install, when its digest is that of the sources here (a wheel or a
   bundle has no sources: there the one copy it carries is taken);
2. a copy compiled on this machine earlier, kept in the user cache by the same digest;
3. a copy compiled now with the system's C compiler (a checkout whose C changed since the
   install, or one never installed);
4. None where there is no compiler: the engine runs the Python equivalents and says so.
"""

from __future__ import annotations

import ctypes
import functools
import logging
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import platformdirs

from engine.native.libraries import CSRC, HELPERS, INSTALLED, SUFFIX, UNIX_FLAGS, Helper

log = logging.getLogger("rotary.native_build")


def find_compiler() -> str | None:
    for candidate in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    return None


def cache_dir() -> pathlib.Path:
    override = os.environ.get("ROTARY_NATIVE_CACHE")
    return pathlib.Path(override) if override else pathlib.Path(
        platformdirs.user_cache_dir("Rotary", appauthor=False)) / "native"


def has_sources(helper: Helper) -> bool:
    return all(path.exists() for path in helper.files(CSRC))


@functools.lru_cache(maxsize=None)
def library_path(name: str) -> pathlib.Path | None:
    """The compiled helper ``name`` ("rotary_policy", "rotary_routing"), or None."""
    helper = HELPERS[name]
    if not has_sources(helper):                  # a wheel or a bundle: what install built
        return _carried(helper)
    filename = helper.filename(helper.digest(CSRC))
    # A cache named in ROTARY_NATIVE_CACHE (tools/sanitize.py's instrumented copies) wins
    # over the copy built at install.
    places = (cache_dir(), INSTALLED) if os.environ.get("ROTARY_NATIVE_CACHE") else (
        INSTALLED, cache_dir())
    for candidate in (place / filename for place in places):
        if candidate.exists():
            return candidate
    compiler = find_compiler()
    if compiler is None:
        log.warning("%s was not built at install and no C compiler is found: the engine "
                    "falls back to Python for it", name)
        return None
    log.info("compiling %s (its sources changed since the install, or it never ran)", name)
    return compile_helper(compiler, helper, cache_dir() / filename)


def _carried(helper: Helper) -> pathlib.Path | None:
    copies = sorted(INSTALLED.glob(f"{helper.name}-*{SUFFIX}"), key=lambda p: p.stat().st_mtime)
    if not copies:
        log.warning("this installation carries no %s library: the engine falls back to "
                    "Python for it", helper.name)
        return None
    if len(copies) > 1:
        log.warning("several %s libraries in %s; taking the newest", helper.name, INSTALLED)
    return copies[-1]


def load_library(name: str) -> ctypes.CDLL | None:
    """``library_path(name)`` loaded with ctypes, or None (logged) where there is none."""
    path = library_path(name)
    if path is None:
        return None
    log.info("native helper %s loaded from %s", name, path)
    return ctypes.CDLL(str(path))


def compile_helper(compiler: str, helper: Helper, target: pathlib.Path,
                   csrc: pathlib.Path = CSRC) -> pathlib.Path | None:
    """Compile ``helper``'s sources into ``target`` with the same flags setup.py uses."""
    target.parent.mkdir(parents=True, exist_ok=True)
    # Build beside the target, then rename: concurrent first runs never see half a file.
    with tempfile.TemporaryDirectory(dir=target.parent) as folder:
        partial = pathlib.Path(folder) / target.name
        command = [compiler, *UNIX_FLAGS, "-shared", "-o", str(partial),
                   *(str(csrc / source) for source in helper.sources)]
        if sys.platform != "win32":
            command += [f"-l{library}" for library in helper.libraries]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            log.warning("compiling %s failed, the engine falls back to Python for it: %s",
                        helper.name, result.stderr[-2000:])
            return None
        os.replace(partial, target)
    return target
