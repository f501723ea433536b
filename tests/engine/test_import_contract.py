"""engine/ never imports Qt (napari's import contract, Anki's Qt-free core)."""

from __future__ import annotations

import pathlib
import pkgutil
import subprocess
import sys

import engine
from tools import import_graph

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


# ---- the direction between engine folders, imports inside functions included --------------
# import-linter sees only module-level imports; tools/import_graph.py walks every syntax
# tree, so an import hidden in a function cannot close a cycle unseen.

def test_engine_folders_import_one_way_inside_functions_too():
    edges = import_graph.folder_edges("engine", ROOT)
    assert import_graph.cycles(edges) == []
    assert import_graph.upward(edges) == []          # each folder imports only lower LAYERS
    assert len(edges) > 30                            # the walk found the engine's imports


def test_the_shipped_engine_imports_no_developer_package():
    """tools/ (the residency simulator), bench/ and tests/ stay out of the bundle
    (build.spec excludes them), so no engine file may import them, even late."""
    found = [f"{path.relative_to(ROOT)}:{line} {name}"
             for path in sorted((ROOT / "engine").rglob("*.py"))
             for name, line in import_graph.imports_of(path, ROOT)
             if name.split(".")[0] in ("tools", "bench", "tests", "app")]
    assert found == []


def test_no_engine_file_imports_one_that_imports_it_back():
    assert import_graph.cycles(import_graph.module_edges("engine", ROOT)) == []


def test_every_import_inside_an_engine_function_says_why():
    """Outside the command line, an import inside a function stays only where it saves
    measured start-up time, and its line says so: ``# noqa: PLC0415 - <reason>``."""
    late = import_graph.late_imports("engine", ROOT)
    assert late                                       # llama_cpp, the document readers
    assert import_graph.unexplained(late) == []
    assert import_graph.unexplained([("x.py:3", "    import y  # noqa: PLC0415")]) == ["x.py:3"]


def _package(root: pathlib.Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_graph_sees_a_cycle_closed_inside_a_function(tmp_path):
    _package(tmp_path, {
        "pkg/__init__.py": "", "pkg/low/__init__.py": "", "pkg/high/__init__.py": "",
        "pkg/high/user.py": "from pkg.low import base\n",
        "pkg/low/base.py": "def late():\n    from ..high import user\n    return user\n",
        "pkg/low/other.py": "from . import base\n"})
    edges = import_graph.folder_edges("pkg", tmp_path)
    assert set(edges) == {("pkg.high", "pkg.low"), ("pkg.low", "pkg.high")}
    assert edges["pkg.low", "pkg.high"] == ["pkg/low/base.py:2"]
    assert import_graph.cycles(edges) == [["pkg.high", "pkg.low"]]
    files = import_graph.module_edges("pkg", tmp_path)
    assert import_graph.cycles(files) == [["pkg.high.user", "pkg.low.base"]]
    assert ("pkg.low.other", "pkg.low") not in files            # `from . import base` is base
    assert import_graph.upward(edges, ("pkg.low", "pkg.high")) == [
        "pkg.low -> pkg.high (pkg/low/base.py:2)"]
