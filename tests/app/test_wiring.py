"""Every connection between two of the app's objects is made in app/wiring.py; a widget
connects only its own signals and children (what it made itself)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Connections made where one object is handed another, each with why it stays there.
HANDED_OVER = {
    # The wizard's model page lays out the model chooser the wizard made for it (its child).
    ("wizard.py", "chooser"),
    # The colours follow the operating system's light or dark scheme.
    ("theme.py", "app"),
}


def _root(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _handed_in(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The function's parameters (not ``self``), and locals taken from one of them."""
    arguments = function.args
    names = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
    names -= {"self", "cls"}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and _root(node.value) in names:
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return names


def connections_between_objects(path: Path) -> list[tuple[int, str]]:
    """(line, name) of each ``<signal>.connect`` whose signal belongs to an object the
    function was handed, rather than to itself or to something it made."""
    found = []
    for function in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        handed = _handed_in(function)
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "connect":
                root = _root(node.func.value)
                if root in handed and (path.name, root) not in HANDED_OVER:
                    found.append((node.lineno, root))
    return found


def test_objects_are_connected_only_in_the_wiring_module():
    elsewhere = {path.name: lines for path in sorted((ROOT / "app").rglob("*.py"))
                 if path.name != "wiring.py" and (lines := connections_between_objects(path))}
    assert elsewhere == {}


def test_the_app_and_its_entry_point_connect_nothing_themselves():
    for name in ("application.py", "__main__.py"):
        tree = ast.parse((ROOT / "app" / name).read_text(encoding="utf-8"))
        calls = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
                 and isinstance(node.func, ast.Attribute) and node.func.attr == "connect"]
        assert (name, calls) == (name, [])


def test_the_check_finds_a_connection_between_two_objects(tmp_path):
    source = tmp_path / "example.py"
    source.write_text("class Shelf:\n"
                      "    def __init__(self, flow, chat):\n"
                      "        pane = chat.window\n"
                      "        flow.done.connect(self.refresh)\n"
                      "        pane.opened.connect(self.refresh)\n"
                      "        self.button.clicked.connect(self.refresh)\n", encoding="utf-8")
    assert connections_between_objects(source) == [(4, "flow"), (5, "pane")]
