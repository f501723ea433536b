"""The README is read by a newcomer in one screen: what Rotary is, the two commands (which
bootstrap.py really has), what works today; the details live in docs/, and every link resolves."""

from __future__ import annotations

import ast
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
COMMANDS = ("python3 bootstrap.py start", "python3 bootstrap.py test")
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _code_lines(text: str) -> list[str]:
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.S | re.M)
    return [line.strip() for block in blocks for line in block.splitlines()]


def test_the_first_screen_has_the_two_commands():
    text = README.read_text(encoding="utf-8")
    first_screen = "\n".join(text.splitlines()[:50])
    assert [c for c in COMMANDS if c in _code_lines(first_screen)] == list(COMMANDS)
    before = text[:text.index("```")]
    assert len(before.split()) < 200, "the first command comes after the first paragraphs"
    assert "## What works today" in first_screen


def test_bootstrap_has_the_commands_the_readme_names():
    tree = ast.parse((ROOT / "bootstrap.py").read_text(encoding="utf-8"))
    main = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main")
    handled = {c.comparators[0].value for c in ast.walk(main) if isinstance(c, ast.Compare)
               and isinstance(c.comparators[0], ast.Constant)}
    assert {command.split()[-1] for command in COMMANDS} <= handled


def test_no_readme_line_is_a_wall_of_text():
    long = [(n, len(line)) for n, line in enumerate(README.read_text("utf-8").splitlines(), 1)
            if len(line) > 120]
    assert long == []
    assert len(README.read_text("utf-8").split()) < 1000


def test_every_link_in_the_readme_and_docs_resolves():
    pages = [README, *sorted((ROOT / "docs").glob("*.md"))]
    broken = [f"{page.relative_to(ROOT)} -> {target}"
              for page in pages for target in LINK.findall(page.read_text("utf-8"))
              if "://" not in target and not (page.parent / target).exists()]
    assert broken == []
    linked = set(LINK.findall(README.read_text("utf-8")))
    assert {f"docs/{name}.md" for name in ("setup", "backends", "benchmarks", "architecture")} \
        <= linked
