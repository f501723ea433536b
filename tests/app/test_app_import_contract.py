"""The app reaches the engine only through app/bridge.py, and the bridge only through the
typed facade (engine/facade.py) with plain imports; the engine never imports Qt."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Frozen data types any app module may hold (requests, events, errors, recipe, facts);
# every engine *function* (service, hardware, inspection, planner, fixtures) goes
# through the bridge, so a GUI module can never block on or race with the engine.
ALLOWED_ENGINE_IMPORTS = {"engine.api", "engine.errors", "engine.recipe", "engine.model.facts",
                          "engine.messages"}


def _engine_imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {name for name in names if name == "engine" or name.startswith("engine.")}


def test_app_reaches_the_engine_only_through_the_bridge():
    offenders = {}
    for path in sorted((ROOT / "app").glob("*.py")):
        if path.name == "bridge.py":
            continue
        extra = _engine_imports(path) - ALLOWED_ENGINE_IMPORTS
        if extra:
            offenders[path.name] = extra
    assert not offenders
    # The bridge reaches the engine's functions through the facade, and nothing else.
    assert _engine_imports(ROOT / "app" / "bridge.py") - ALLOWED_ENGINE_IMPORTS == {
        "engine", "engine.facade"}


def test_no_engine_function_is_looked_up_by_name_in_the_app():
    """Issue 27: importlib name lookups hid the app's engine edges from linters and the
    import contract (21 of them in app/bridge.py before)."""
    lookups = {}
    for path in sorted((ROOT / "app").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "import_module" \
                    or isinstance(node, ast.Name) and node.id in ("__import__", "_lazy"):
                lookups.setdefault(path.name, []).append(node.lineno)
    assert lookups == {}


def test_import_linter_contracts_hold():
    result = subprocess.run([str(Path(sys.executable).parent / "lint-imports")], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr




def test_every_bridge_connection_is_made_in_the_one_wiring_function():
    """Issue 27: GUI <-> engine connections in one function (app/wiring.py, GPT4All's
    Chat::connectLLM), not spread over constructors: no other app module connects a signal
    of the bridge (``<...>.bridge.<signal>.connect``)."""
    from app.bridge import EngineBridge
    from PySide6.QtCore import Signal
    signals = {name for name, value in vars(EngineBridge).items() if isinstance(value, Signal)}
    elsewhere = {}
    for path in sorted((ROOT / "app").glob("*.py")):
        if path.name == "wiring.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "connect" \
                    and isinstance(node.value, ast.Attribute) and node.value.attr in signals \
                    and "bridge" in ast.unparse(node.value.value):
                elsewhere.setdefault(path.name, []).append(node.lineno)
    assert elsewhere == {}
