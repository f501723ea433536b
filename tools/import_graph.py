"""Which engine folders import which, counting imports inside functions too, and the cycles.

    python -m tools.import_graph            # cycles and imports against LAYERS (exit 1 if any)
    python -m tools.import_graph --edges    # every folder-to-folder edge with its file:line

A "folder" is a package directly under engine/ (engine.runtime, engine.documents, ...); a
top-level module (engine.api, engine.errors, ...) is a node of its own. import-linter sees
only module-level imports, so this walks each file's whole syntax tree instead.
tests/engine/test_import_contract.py runs the same checks.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The engine's folders, lowest first: each may import only folders listed before it.
# Types and words at the bottom; native code, policies and the planner next; the running
# model (runtime) above the documents it serves; the office server above both (it reuses
# the engine thread and the documents); the command line on top.
LAYERS = ("engine.messages", "engine.errors", "engine.recipe", "engine.model", "engine.api",
          "engine.native", "engine.residency", "engine.plan", "engine.demo", "engine.documents",
          "engine.runtime", "engine.remote", "engine.cli", "engine.__main__")


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _statements(path: Path, root: Path) -> list[tuple[str, list[str], int]]:
    """(module, names imported from it, line) for every import statement anywhere in the file;
    a plain ``import m`` has no names."""
    module = _module_name(path, root)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(node, module, path.name == "__init__.py")
            found.append((target, [alias.name for alias in node.names], node.lineno))
    return found


def imports_of(path: Path, root: Path = ROOT) -> list[tuple[str, int]]:
    """Every module this file may import (absolute names, ``from x import y`` also as x.y),
    with its line, wherever in the file the import stands."""
    found = []
    for target, names, line in _statements(path, root):
        found += [(target, line)] + [(f"{target}.{name}", line) for name in names]
    return found


def late_imports(package: str = "engine", root: Path = ROOT) -> list[tuple[str, str]]:
    """('file:line', source line) of every import inside a function, outside the command line
    (``__main__.py`` and ``<package>/cli/``, where each command imports what it runs)."""
    found = []
    for path in sorted((root / package).rglob("*.py")):
        relative = path.relative_to(root)
        if path.name == "__main__.py" or relative.parts[1:2] == ("cli",):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        seen = set()
        for function in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(function):
                    if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno not in seen:
                        seen.add(node.lineno)
                        found.append((f"{relative}:{node.lineno}", lines[node.lineno - 1]))
    return found


def unexplained(late: list[tuple[str, str]]) -> list[str]:
    """Late imports whose line does not say why: ``# noqa: PLC0415 - <reason>``."""
    return [place for place, line in late
            if not re.search(r"PLC0415 - \S", line.split("#", 1)[-1] if "#" in line else "")]


def folder_of(module: str, package: str = "engine") -> str | None:
    """engine.runtime.service -> engine.runtime; engine.api -> engine.api; engine -> None."""
    parts = module.split(".")
    if parts[0] != package or len(parts) < 2:
        return None
    return ".".join(parts[:2])


def folder_edges(package: str = "engine", root: Path = ROOT) -> dict[tuple[str, str], list[str]]:
    """(importing folder, imported folder) -> the 'file:line' places that make the edge."""
    folders = {_folder_name(p, package, root) for p in (root / package).iterdir()
               if (p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py"}
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for path in sorted((root / package).rglob("*.py")):
        source = folder_of(_module_name(path, root), package)
        for target, line in imports_of(path, root):
            folder = folder_of(target, package)
            if source and folder in folders and folder != source:
                place = f"{path.relative_to(root)}:{line}"
                if place not in edges[source, folder]:
                    edges[source, folder].append(place)
    return dict(edges)


def _folder_name(path: Path, package: str, root: Path) -> str:
    return f"{package}.{path.stem if path.suffix == '.py' else path.name}"


def module_edges(package: str = "engine", root: Path = ROOT) -> dict[tuple[str, str], list[str]]:
    """The same at file level: (module, module it imports) -> places; ``from p import m``
    is an edge to the submodule m when m is one, else to p."""
    paths = {_module_name(p, root): p for p in sorted((root / package).rglob("*.py"))}
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for module, path in paths.items():
        for target, names, line in _statements(path, root):
            submodules = [f"{target}.{name}" for name in names if f"{target}.{name}" in paths]
            plain = not names or len(submodules) < len(names)
            for name in submodules + ([target] if plain else []):
                if name in paths and name != module:
                    edges[module, name].append(f"{path.relative_to(root)}:{line}")
    return dict(edges)


def upward(edges, layers: tuple[str, ...] = LAYERS) -> list[str]:
    """Edges that import a folder at the same or a higher layer, and folders LAYERS misses."""
    rank = {name: i for i, name in enumerate(layers)}
    wrong = [f"{a} is not in LAYERS" for a in sorted({n for e in edges for n in e} - set(rank))]
    wrong += [f"{a} -> {b} ({places[0]})" for (a, b), places in sorted(edges.items())
              if a in rank and b in rank and rank[b] >= rank[a]]
    return wrong


def cycles(edges) -> list[list[str]]:
    """The folder graph's strongly connected components of more than one folder (Tarjan),
    each sorted: one entry per tangle, however many edges it has."""
    graph: dict[str, set[str]] = defaultdict(set)
    for source, target in edges:
        graph[source].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(set(graph) | {t for targets in graph.values() for t in targets}):
        if node not in index:
            visit(node)
    return sorted(found)


def elementary_cycles(edges) -> list[list[str]]:
    """Every simple cycle, each once, starting at its smallest folder (a small graph)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for source, target in edges:
        graph[source].add(target)
    found: list[list[str]] = []

    def walk(start: str, node: str, path: list[str]) -> None:
        for nxt in sorted(graph[node]):
            if nxt == start:
                found.append(list(path))
            elif nxt > start and nxt not in path:
                walk(start, nxt, path + [nxt])

    for start in sorted(graph):
        walk(start, start, [start])
    return found


def two_way_pairs(edges) -> list[tuple[str, str]]:
    """Pairs of folders that import each other (the simplest cycles, easiest to read)."""
    return sorted((a, b) for a, b in edges if a < b and (b, a) in edges)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", action="store_true", help="list every edge with its places")
    parser.add_argument("--package", default="engine")
    args = parser.parse_args(argv)
    edges = folder_edges(args.package)
    if args.edges:
        for (source, target), places in sorted(edges.items()):
            print(f"{source} -> {target}: {', '.join(places)}")
    tangles, files = cycles(edges), cycles(module_edges(args.package))
    pairs = two_way_pairs(edges)
    print(f"{len(edges)} folder edges; {len(tangles)} cyclic folder component(s), "
          f"{len(elementary_cycles(edges))} elementary folder cycle(s), {len(pairs)} two-way "
          f"folder pair(s); {len(files)} cyclic file component(s)")
    for tangle in tangles + files:
        print("cycle:", " <-> ".join(tangle))
    for a, b in pairs:
        print(f"two-way: {a} <-> {b}: {edges[a, b][0]} / {edges[b, a][0]}")
    wrong = upward(edges) if args.package == "engine" else []
    for line in wrong:
        print("against LAYERS:", line)
    late = late_imports(args.package)
    silent = unexplained(late)
    print(f"{len(late)} import(s) inside functions outside the command line, "
          f"{len(silent)} without a reason")
    for place in silent:
        print("no reason:", place)
    return 1 if tangles or files or wrong or silent else 0


if __name__ == "__main__":
    sys.exit(main())
