"""pip install: everything is in pyproject.toml except the engine's C helpers, built here.

engine/native/csrc's helpers are plain C shared libraries that the engine loads with ctypes
(no Python API, so one build serves every Python version); they land in engine/native/lib/
named by a digest of their sources (engine/native/libraries.py). Without a C compiler the
install still succeeds: the engine then compiles them on first use, or runs its Python
equivalents and logs that it does.
"""

from __future__ import annotations

import importlib.util
import pathlib
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("rotary_native_libraries",
                                               ROOT / "engine" / "native" / "libraries.py")
libraries = sys.modules[_spec.name] = importlib.util.module_from_spec(_spec)   # dataclasses
_spec.loader.exec_module(libraries)
CSRC = pathlib.Path("engine", "native", "csrc")       # relative: setuptools wants it so


class NativeHelper(Extension):
    """A plain shared library in engine/native/lib/, not a Python extension module."""

    def __init__(self, helper) -> None:
        super().__init__(f"engine.native.lib.{helper.name}",
                         sources=[str(CSRC / source) for source in helper.sources],
                         depends=[str(CSRC / header) for header in helper.headers],
                         optional=True)          # no compiler: install anyway, say so later
        self.helper = helper


class BuildNativeHelpers(build_ext):
    def get_ext_filename(self, fullname: str) -> str:
        *package, name = fullname.split(".")
        helper = libraries.HELPERS.get(name)
        if helper is None:
            return super().get_ext_filename(fullname)
        return str(pathlib.Path(*package, helper.filename(helper.digest(ROOT / CSRC))))

    def build_extension(self, ext) -> None:
        if not isinstance(ext, NativeHelper):
            return super().build_extension(ext)
        msvc = self.compiler.compiler_type == "msvc"
        objects = self.compiler.compile(
            ext.sources, output_dir=self.build_temp, include_dirs=[str(CSRC)],
            extra_postargs=list(libraries.MSVC_FLAGS if msvc else libraries.UNIX_FLAGS),
            depends=ext.depends)
        self.compiler.link_shared_object(
            objects, self.get_ext_fullpath(ext.name), build_temp=self.build_temp,
            libraries=[] if msvc else list(ext.helper.libraries))

    def copy_extensions_to_source(self) -> None:
        """An editable install: drop copies built from older sources, then copy."""
        folder = ROOT / "engine" / "native" / "lib"
        folder.mkdir(exist_ok=True)
        for helper in libraries.HELPERS.values():
            current = helper.filename(helper.digest(ROOT / CSRC))
            for old in folder.glob(f"{helper.name}-*"):
                if old.name != current:
                    old.unlink()
        super().copy_extensions_to_source()


setup(ext_modules=[NativeHelper(helper) for helper in libraries.HELPERS.values()],
      cmdclass={"build_ext": BuildNativeHelpers})
