"""docs/architecture.md's tables come from the code (tools/architecture.py): the committed doc
fails this test as soon as the floors, their imports, the late imports or the app's files change
without it."""

from __future__ import annotations

from tools import architecture


def test_the_committed_doc_says_what_the_code_is():
    doc = architecture.DOC.read_text(encoding="utf-8")
    assert architecture.with_block(doc, architecture.render()) == doc, \
        "docs/architecture.md has drifted: run python -m tools.architecture --write"


def test_the_tables_follow_the_contract_and_count_late_imports():
    floors = architecture.floors()
    assert floors[0] == ["engine.__main__"] and floors[-1] == ["engine.messages"]
    assert ["engine.cli", "engine.facade"] in floors
    text = architecture.render()
    assert "| 11 | `runtime` |" in text and "0 cycles between floors, 0 between files" in text
    everywhere, command_line, silent = architecture.late_import_counts()
    assert everywhere > command_line > 0 and silent == 0
    assert f"Imports inside engine functions: {everywhere} ({command_line} in the" in text


def test_a_changed_block_is_noticed():
    doc = architecture.DOC.read_text(encoding="utf-8")
    stale = architecture.with_block(doc, "### The engine's floors\n\nsomething else\n")
    assert stale != doc and architecture.BEGIN in stale and architecture.END in stale
