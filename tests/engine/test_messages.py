"""The engine's message catalogue: codes, parameters, rendering (no Qt)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engine.errors import EngineStateError
from engine.messages import CATALOGUE, Msg, msg, placeholders, render

ROOT = Path(__file__).resolve().parents[2]


def test_a_message_is_checked_where_it_is_written():
    with pytest.raises(KeyError, match="no message"):
        msg("engine.no_such_sentence")
    CATALOGUE["test.sized"] = "{name} needs {gib:.1f} GB."
    try:
        with pytest.raises(KeyError, match="gib"):
            msg("test.sized", name="x")
        sized = msg("test.sized", name="model.gguf", gib=7.25)
        assert str(sized) == "model.gguf needs 7.2 GB."
        assert sized.param("gib") == 7.25
    finally:
        del CATALOGUE["test.sized"]


def test_nested_messages_render_in_the_same_language():
    CATALOGUE["test.outer"] = "Outer: {inner}"
    try:
        outer = msg("test.outer", inner=msg("engine.no_model"))
        marked = render(outer, lambda template: f"<{template}>")
        assert marked == "<Outer: <No model is loaded yet. Choose a model in Settings.>>"
    finally:
        del CATALOGUE["test.outer"]


def test_an_error_keeps_its_code_and_says_english():
    error = EngineStateError(msg("engine.no_model"), "details for IT")
    assert error.msg == Msg("engine.no_model")
    assert error.message == CATALOGUE["engine.no_model"]
    assert "details for IT" in str(error)
    assert EngineStateError("plain English").msg is None


def test_every_template_has_korean_and_chinese_with_the_same_placeholders():
    sys.path.insert(0, str(ROOT / "resources" / "i18n"))
    from engine_translations import ENGINE_TRANSLATIONS
    missing = sorted(set(CATALOGUE.values()) - set(ENGINE_TRANSLATIONS))
    assert not missing, f"add to resources/i18n/engine_translations.py: {missing}"
    for template, translated in ENGINE_TRANSLATIONS.items():
        for text in translated:
            assert text and placeholders(text) == placeholders(template), (template, text)


def test_each_engine_message_is_translated_in_one_place():
    """The app's table (translations.py, for tr()) holds no engine template: two tables
    would drift apart (one sentence was already translated two ways)."""
    sys.path.insert(0, str(ROOT / "resources" / "i18n"))
    from translations import TRANSLATIONS
    both = sorted(set(CATALOGUE.values()) & set(TRANSLATIONS))
    assert not both, f"engine messages belong in engine_translations.py only: {both}"


# Folders whose sentences other work converts (documents, residency).
NOT_YET = ("engine/documents/", "engine/residency/", "engine/demo/")


def _english_errors(path: Path) -> list[str]:
    """Calls of an EngineError class (or of msg-less helpers) whose message is a literal."""
    import ast
    import inspect

    from engine import errors
    kinds = {name for name, kind in inspect.getmembers(errors, inspect.isclass)
             if issubclass(kind, errors.EngineError)}
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in kinds and node.args \
                and isinstance(node.args[0], (ast.Constant, ast.JoinedStr, ast.BinOp)):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_the_engine_raises_catalogue_messages_not_english():
    """Every error the engine raises says a catalogue message (a Korean user reads it whole,
    with its file, page or setting), outside the folders still to convert."""
    english = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        if not str(path.relative_to(ROOT)).startswith(NOT_YET):
            english += _english_errors(path)
    assert not english, f"raise EngineError(msg(...)) instead of English at {english}"


def test_events_and_reports_carry_messages():
    """Sentences in engine events are Msg, for the app to say in its language."""
    import dataclasses
    import typing

    from engine import api, recipe
    from engine.plan import speed
    for kind, field in ((api.LoadProgress, "message"), (api.LoadFallback, "message"),
                        (api.ModelLoaded, "message"), (api.ServerModelLoaded, "message"),
                        (recipe.Recipe, "note"), (recipe.Recipe, "prompt_note"),
                        (recipe.TransferRule, "reason"), (speed.PlanSummary, "text")):
        hints = typing.get_type_hints(kind)
        assert field in {f.name for f in dataclasses.fields(kind)}
        assert Msg in (typing.get_args(hints[field]) or (hints[field],)), (kind, field)
