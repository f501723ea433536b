"""Which engine folders import which, imports inside functions included, and the cycles.

    python -m tools.import_graph            # counts; exit 1 on a cycle (between folders, files,
                                            # or engine.runtime's rooms) or an unexplained late import
    python -m tools.import_graph --edges    # every folder-to-folder edge with its module:line

The graph is grimp's (import-linter's own, a test dependency already): it reads every import
statement, those inside functions too. A "folder" is a package directly under engine/
(engine.runtime, engine.documents, ...); a top-level module (engine.api, ...) is a node of its
own. Their order is import-linter's "layers" contract in pyproject.toml; this counts what that
contract only passes or fails. tests/engine/test_import_contract.py runs the same checks.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections import defaultdict
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
# Folders whose own rooms have a layers contract too (pyproject.toml): their cycles count.
ROOMS = {"engine": ("engine.runtime",)}
Edges = dict[tuple[str, str], list[str]]


def graph(package: str = "engine") -> grimp.ImportGraph:
    """The package's import graph (it must be importable: the repository root on sys.path);
    other top-level packages it imports (numpy, tools, ...) appear as single nodes."""
    return grimp.build_graph(package, include_external_packages=True, cache_dir=None)


def module_edges(imports: grimp.ImportGraph, package: str = "engine") -> Edges:
    """(module, module it imports) -> 'module:line' places, within ``package``."""
    edges: Edges = {}
    for importer in sorted(m for m in imports.modules if _inside(m, package)):
        for imported in sorted(imports.find_modules_directly_imported_by(importer)):
            if _inside(imported, package):
                details = imports.get_import_details(importer=importer, imported=imported)
                edges[importer, imported] = [f"{importer}:{d['line_number']}" for d in details]
    return edges


def folder_edges(imports: grimp.ImportGraph, package: str = "engine") -> Edges:
    """The same between folders: (importing folder, imported folder) -> places."""
    return room_edges(imports, package)


def room_edges(imports: grimp.ImportGraph, container: str) -> Edges:
    """The same between the rooms directly inside ``container`` (its subpackages and modules:
    engine.runtime.loader, engine.runtime.devices, ...), imports inside the rooms left out."""
    edges: Edges = defaultdict(list)
    for (importer, imported), places in module_edges(imports, container).items():
        source, target = room_of(importer, container), room_of(imported, container)
        if source and target and source != target:
            edges[source, target] += places
    return dict(edges)


def _inside(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def folder_of(module: str) -> str | None:
    """engine.runtime.service -> engine.runtime; engine.api -> engine.api; engine -> None."""
    return room_of(module, module.split(".")[0])


def room_of(module: str, container: str) -> str | None:
    """engine.runtime.devices.placement in engine.runtime -> engine.runtime.devices; the
    container itself -> None."""
    depth = container.count(".") + 2
    parts = module.split(".")
    return ".".join(parts[:depth]) if len(parts) >= depth else None


def cycles(edges) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan), each sorted: one entry
    per tangle, however many edges it has. (Neither grimp nor the standard library has it.)"""
    successors: dict[str, set[str]] = defaultdict(set)
    for source, target in edges:
        successors[source].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(successors[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = [stack.pop()]
            while component[-1] != node:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(set(successors) | {t for targets in successors.values() for t in targets}):
        if node not in index:
            visit(node)
    return sorted(found)


def elementary_cycles(edges) -> list[list[str]]:
    """Every simple cycle, each once, from its smallest node (for the folder graph: small)."""
    successors: dict[str, set[str]] = defaultdict(set)
    for source, target in edges:
        successors[source].add(target)
    found: list[list[str]] = []

    def walk(start: str, node: str, path: list[str]) -> None:
        for nxt in sorted(successors[node]):
            if nxt == start:
                found.append(list(path))
            elif nxt > start and nxt not in path:
                walk(start, nxt, path + [nxt])

    for start in sorted(successors):
        walk(start, start, [start])
    return found


def two_way_pairs(edges) -> list[tuple[str, str]]:
    """Pairs that import each other (the simplest cycles, easiest to read)."""
    return sorted((a, b) for a, b in edges if a < b and (b, a) in edges)


def late_imports(package: str = "engine", root: Path = ROOT) -> list[tuple[str, str]]:
    """('file:line', text) of every import inside a function, outside the command line
    (``__main__.py`` and ``<package>/cli/``, where each command imports what it runs); the
    text is the import's line, after the comment lines right above it if there are any."""
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
                        found.append((f"{relative}:{node.lineno}",
                                      _with_comments_above(lines, node.lineno - 1)))
    return found


def _with_comments_above(lines: list[str], index: int) -> str:
    start = index
    while start > 0 and lines[start - 1].lstrip().startswith("#"):
        start -= 1
    return "\n".join(lines[start:index + 1])


def unexplained(late: list[tuple[str, str]]) -> list[str]:
    """Late imports that do not say why: ``# noqa: PLC0415 - <reason>`` on the line, or a
    comment right above it."""
    return [place for place, text in late
            if not (text.lstrip().startswith("#")
                    or re.search(r"PLC0415 - \S", text.split("#", 1)[-1] if "#" in text else ""))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--edges", action="store_true", help="list every edge with its places")
    parser.add_argument("--package", default="engine")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    imports = graph(args.package)
    edges, files = folder_edges(imports, args.package), module_edges(imports, args.package)
    if args.edges:
        for (source, target), places in sorted(edges.items()):
            print(f"{source} -> {target}: {', '.join(places)}")
    tangles, file_tangles, room_tangles = cycles(edges), cycles(files), []
    for container in ROOMS.get(args.package, ()):
        rooms = room_edges(imports, container)
        room_tangles += cycles(rooms)
        print(f"{container}: {len(rooms)} edges between its rooms, {len(cycles(rooms))} cyclic "
              f"component(s)")
    late = late_imports(args.package)
    silent = unexplained(late)
    print(f"{len(edges)} folder edges: {len(tangles)} cyclic component(s), "
          f"{len(elementary_cycles(edges))} elementary cycle(s), {len(two_way_pairs(edges))} "
          f"two-way pair(s); {len(file_tangles)} cyclic file component(s); {len(late)} import(s) "
          f"inside functions outside the command line, {len(silent)} without a reason")
    for tangle in tangles + file_tangles + room_tangles:
        print("cycle:", " <-> ".join(tangle))
    for a, b in two_way_pairs(edges):
        print(f"two-way: {a} <-> {b}: {edges[a, b][0]} / {edges[b, a][0]}")
    for place in silent:
        print("no reason:", place)
    return 1 if tangles or file_tangles or room_tangles or silent else 0


if __name__ == "__main__":
    sys.exit(main())
