"""App modules import one way: no circle, imports made only for type checking included
(the settings once imported the policy that imports them)."""

from __future__ import annotations

import grimp


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in edges[module]:
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in edges:
        if module not in index:
            visit(module)
    return found


def test_no_app_module_imports_one_that_imports_it_back():
    graph = grimp.build_graph("app", cache_dir=None, exclude_type_checking_imports=False)
    modules = [m for m in graph.modules if m.startswith("app.")]
    edges = {m: {i for i in graph.find_modules_directly_imported_by(m) if i.startswith("app.")}
             for m in modules}
    assert _circles(edges) == []


def test_the_check_finds_a_circle():
    assert _circles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]
