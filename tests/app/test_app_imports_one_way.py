"""App modules import one way: no circle between modules, imports made only for type checking
included (the settings once imported the policy that imports them). Between the app's folders
the import-linter contract "app folders import one way" (pyproject.toml) holds the order."""

from __future__ import annotations

from tools import import_graph


def test_no_app_module_imports_one_that_imports_it_back():
    edges = import_graph.module_edges(import_graph.graph("app"), "app")
    assert import_graph.cycles(edges) == []


def test_the_check_finds_a_circle():
    assert import_graph.cycles({("a", "b"): [], ("b", "a"): [], ("c", "a"): []}) == [["a", "b"]]
