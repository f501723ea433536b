"""The engine's message catalogue: codes, parameters, rendering (no Qt)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.errors import EngineStateError
from engine.messages import CATALOGUE, Msg, msg, placeholders, render
from tests.support.translations import (ENGINE_CONTEXT, LANGUAGES, engine_translations,
                                         ts_translations)

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


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_template_has_a_translation_with_the_same_placeholders(language):
    """Each catalogue template is translated in the .ts file (context ``engine``), keeping
    its placeholders; python resources/i18n/build_translations.py adds a new one there."""
    translated = engine_translations(language)
    missing = sorted(t for t in set(CATALOGUE.values()) if not translated.get(t))
    assert not missing, f"translate in resources/i18n/rotary_{language}.ts: {missing}"
    for template in set(CATALOGUE.values()):
        assert placeholders(translated[template] or "") == placeholders(template), template


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_engine_message_is_translated_in_one_place(language):
    """No engine template is also a tr() text of the app: two translations would drift
    apart (one sentence was already translated two ways)."""
    templates = set(CATALOGUE.values())
    both = sorted(source for (context, source) in ts_translations(language)
                  if context != ENGINE_CONTEXT and source in templates)
    assert not both, f"the app shows engine messages with say(), never tr(): {both}"


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
                        (recipe.Recipe, "context_note"),
                        (recipe.TransferRule, "reason"), (speed.PlanSummary, "text")):
        hints = typing.get_type_hints(kind)
        assert field in {f.name for f in dataclasses.fields(kind)}
        assert Msg in (typing.get_args(hints[field]) or (hints[field],)), (kind, field)
