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
# The direction itself is import-linter's "layers" contract (pyproject.toml, kept above);
# tools/import_graph.py builds the same grimp graph to count cycles and late imports.

def test_engine_folders_and_files_import_without_cycles():
    imports = import_graph.graph("engine")
    folders = import_graph.folder_edges(imports)
    assert import_graph.cycles(folders) == []
    assert import_graph.cycles(import_graph.module_edges(imports)) == []
    assert ("engine.runtime", "engine.documents") in folders      # inside LocalModel.document
    assert len(folders) > 30


def test_the_runtime_rooms_import_one_way_and_the_contract_names_every_room():
    """engine/runtime's own rooms (its folders and modules) have a layers contract of their
    own: no cycle between them, and every room that exists has its floor."""
    from tools import architecture
    imports = import_graph.graph("engine")
    rooms = import_graph.room_edges(imports, "engine.runtime")
    assert import_graph.cycles(rooms) == [] and len(rooms) > 20
    assert ("engine.runtime.loader", "engine.runtime.devices") in rooms
    assert ("engine.runtime.devices", "engine.runtime.loader") not in rooms     # the probe's child
    assert ("engine.runtime.experts", "engine.runtime.llama_model") not in rooms
    contract = next(c for c in architecture.contracts() if c.get("containers") == ["engine.runtime"])
    assert contract["type"] == "layers" and contract["exhaustive"] is True
    listed = {name.strip(" ()") for layer in contract["layers"] for name in layer.split("|")}
    existing = {m.split(".")[2] for m in imports.modules
                if m.startswith("engine.runtime.") and m.count(".") >= 2}
    assert listed == existing


def test_a_cycle_between_rooms_is_seen_when_no_file_cycle_is(tmp_path, monkeypatch):
    """devices.child -> loader -> devices.probe: no two files import each other, yet the rooms
    do (how engine/runtime's devices and loader were tangled)."""
    _package(tmp_path, {
        "pkg_r/__init__.py": "", "pkg_r/run/__init__.py": "", "pkg_r/run/devices/__init__.py": "",
        "pkg_r/run/loader.py": "from pkg_r.run.devices import probe\n",
        "pkg_r/run/devices/probe.py": "",
        "pkg_r/run/devices/child.py": "def main():\n    from pkg_r.run import loader\n",
        "pkg_r/other.py": "from pkg_r.run import loader\n"})
    monkeypatch.syspath_prepend(str(tmp_path))
    imports = import_graph.graph("pkg_r")
    assert import_graph.cycles(import_graph.module_edges(imports, "pkg_r")) == []
    assert import_graph.cycles(import_graph.folder_edges(imports, "pkg_r")) == []
    rooms = import_graph.room_edges(imports, "pkg_r.run")
    assert rooms["pkg_r.run.devices", "pkg_r.run.loader"] == ["pkg_r.run.devices.child:2"]
    assert import_graph.cycles(rooms) == [["pkg_r.run.devices", "pkg_r.run.loader"]]
    assert import_graph.room_of("pkg_r.run", "pkg_r.run") is None


def test_every_import_inside_an_engine_function_says_why():
    """Outside the command line, an import inside a function stays only where it saves
    measured start-up time, and says so: ``# noqa: PLC0415 - <reason>``, or a comment above."""
    late = import_graph.late_imports("engine", ROOT)
    assert late                                       # llama_cpp, the document readers
    assert import_graph.unexplained(late) == []
    assert import_graph.unexplained([("x.py:3", "    import y  # noqa: PLC0415")]) == ["x.py:3"]
    assert import_graph.unexplained([("x.py:4", "    # y costs 1 s\n    import y  # noqa: PLC0415")]) == []


def _package(root: pathlib.Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_graph_sees_a_cycle_closed_inside_a_function(tmp_path, monkeypatch):
    _package(tmp_path, {
        "pkg_c/__init__.py": "", "pkg_c/low/__init__.py": "", "pkg_c/high/__init__.py": "",
        "pkg_c/high/user.py": "from pkg_c.low import base\n",
        "pkg_c/low/base.py": "def late():\n    from ..high import user\n    return user\n",
        "pkg_c/low/other.py": "from . import base\n"})
    monkeypatch.syspath_prepend(str(tmp_path))
    imports = import_graph.graph("pkg_c")
    folders = import_graph.folder_edges(imports, "pkg_c")
    assert set(folders) == {("pkg_c.high", "pkg_c.low"), ("pkg_c.low", "pkg_c.high")}
    assert folders["pkg_c.low", "pkg_c.high"] == ["pkg_c.low.base:2"]
    assert import_graph.cycles(folders) == [["pkg_c.high", "pkg_c.low"]]
    files = import_graph.module_edges(imports, "pkg_c")
    assert import_graph.cycles(files) == [["pkg_c.high.user", "pkg_c.low.base"]]
    assert ("pkg_c.low.other", "pkg_c.low") not in files        # `from . import base` is base
    assert import_graph.late_imports("pkg_c", tmp_path) == [
        ("pkg_c/low/base.py:2", "    from ..high import user")]
