"""engine/ never imports Qt (napari's import contract, Anki's Qt-free core)."""

from __future__ import annotations

import pathlib
import pkgutil
import subprocess
import sys

import engine

ROOT = pathlib.Path(__file__).resolve().parents[2]
QT_MODULES = ("PySide6", "PyQt5", "PyQt6", "qasync", "shiboken6")


def test_importing_every_engine_module_loads_no_qt():
    names = [m.name for m in pkgutil.walk_packages(engine.__path__, "engine.")]
    code = ("import importlib, sys\n"
            f"for name in {names!r}: importlib.import_module(name)\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {QT_MODULES!r}))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
    assert len(names) > 10


def test_import_linter_contracts_are_kept():
    linter = pathlib.Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(linter)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "broken" in result.stdout and "0 broken" in result.stdout
