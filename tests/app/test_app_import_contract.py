"""The app reaches the engine only through app/bridge/ (the Qt bridge and its Qt-free facade),
and the bridge only through the typed facade (engine/facade.py) with plain imports; the app's
models import no Qt."""

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


BRIDGE = ROOT / "app" / "bridge"


def _app_files() -> list[Path]:
    return sorted((ROOT / "app").rglob("*.py"))


def test_app_reaches_the_engine_only_through_the_bridge():
    offenders = {}
    for path in _app_files():
        if path.parent == BRIDGE:
            continue
        extra = _engine_imports(path) - ALLOWED_ENGINE_IMPORTS
        if extra:
            offenders[str(path.relative_to(ROOT))] = extra
    assert not offenders
    # The bridge reaches the engine's functions through the facade, and nothing else.
    assert _engine_imports(BRIDGE / "facade.py") - ALLOWED_ENGINE_IMPORTS == {
        "engine", "engine.facade"}
    assert _engine_imports(BRIDGE / "engine_bridge.py") - ALLOWED_ENGINE_IMPORTS <= {
        "engine.facade"}


def test_no_engine_function_is_looked_up_by_name_in_the_app():
    """Importlib name lookups hid the app's engine edges from linters and the
    import contract (21 of them in app/bridge/engine_bridge.py before)."""
    lookups = {}
    for path in _app_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "import_module" \
                    or isinstance(node, ast.Name) and node.id in ("__import__", "_lazy"):
                lookups.setdefault(path.name, []).append(node.lineno)
    assert lookups == {}


def test_import_linter_contracts_hold():
    result = subprocess.run([str(Path(sys.executable).parent / "lint-imports")], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr



# The app's models (napari's rule: no widgets in the models); the same list as the
# import-linter contract "the app's models import no Qt" in pyproject.toml.
QT_FREE_MODELS = ("app.session", "app.conversation", "app.settings", "app.text",
                  "app.bridge.facade", "app.gauge.gauge_model", "app.gauge.measured_speed")
QT_MODULES = ("PySide6", "shiboken6", "qasync")


def _module_files(name: str) -> list[Path]:
    path = ROOT.joinpath(*name.split("."))
    return sorted(path.rglob("*.py")) if path.is_dir() else [path.with_suffix(".py")]


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def qt_chains(sources: tuple[str, ...]) -> list[list[str]]:
    """Each way (module, ..., Qt module) a source reaches Qt through app modules, imports
    inside functions included."""
    chains, seen = [], set()
    todo = [[name] for name in sources]
    while todo:
        chain = todo.pop()
        for path in _module_files(chain[-1]):
            for name in sorted(_imports(path)):
                if name.split(".")[0] in QT_MODULES:
                    chains.append(chain + [name])
                elif name.startswith("app.") and name not in seen \
                        and any(p.is_file() for p in _module_files(name)):
                    seen.add(name)
                    todo.append(chain + [name])
    return chains


def test_the_apps_models_import_no_qt():
    assert qt_chains(QT_FREE_MODELS) == []
    # Through other app modules too: the self-test names the Qt bridge.
    assert ["app.setup.selftest", "app.bridge.engine_bridge", "PySide6.QtCore"] \
        in qt_chains(("app.setup.selftest",))
    import tomllib
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    models = next(c for c in contracts["contracts"] if c["name"] == "the app's models import no Qt")
    assert tuple(models["source_modules"]) == QT_FREE_MODELS
    assert set(models["forbidden_modules"]) == set(QT_MODULES)


def test_loading_the_apps_models_loads_no_qt():
    code = ("import sys\n"
            + "".join(f"import {name}\n" for name in QT_FREE_MODELS)
            + f"print(sorted(m for m in sys.modules if m.split('.')[0] in {QT_MODULES!r}))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_every_bridge_connection_is_made_in_the_one_wiring_function():
    """GUI <-> engine connections in one function (app/wiring.py, GPT4All's
    Chat::connectLLM), not spread over constructors: no other app module connects a signal
    of the bridge (``<...>.bridge.<signal>.connect``)."""
    from app.bridge.engine_bridge import EngineBridge
    from PySide6.QtCore import Signal
    signals = {name for name, value in vars(EngineBridge).items() if isinstance(value, Signal)}
    elsewhere = {}
    for path in _app_files():
        if path.name == "wiring.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "connect" \
                    and isinstance(node.value, ast.Attribute) and node.value.attr in signals \
                    and "bridge" in ast.unparse(node.value.value):
                elsewhere.setdefault(path.name, []).append(node.lineno)
    assert elsewhere == {}
