"""Which engine folders import which, counting imports inside functions too, and the cycles.

    python -m tools.import_graph            # the folder graph's cycles (exit 1 if any)
    python -m tools.import_graph --edges    # every folder-to-folder edge with its file:line

A "folder" is a package directly under engine/ (engine.runtime, engine.documents, ...); a
top-level module (engine.api, engine.errors, ...) is a node of its own. import-linter sees
only module-level imports, so this walks each file's whole syntax tree instead.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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


def imports_of(path: Path, root: Path = ROOT) -> list[tuple[str, int]]:
    """Every module this file imports (absolute names, ``from x import y`` also as x.y), with
    its line, wherever in the file the import stands."""
    module = _module_name(path, root)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(node, module, path.name == "__init__.py")
            found.append((target, node.lineno))
            found += [(f"{target}.{alias.name}", node.lineno) for alias in node.names]
    return found


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
    tangles = cycles(edges)
    pairs = two_way_pairs(edges)
    print(f"{len(edges)} folder edges; {len(tangles)} cyclic component(s); "
          f"{len(pairs)} two-way pair(s)")
    for tangle in tangles:
        print("cycle:", " <-> ".join(tangle))
    for a, b in pairs:
        print(f"two-way: {a} <-> {b}: {edges[a, b][0]} / {edges[b, a][0]}")
    return 1 if tangles else 0


if __name__ == "__main__":
    sys.exit(main())
