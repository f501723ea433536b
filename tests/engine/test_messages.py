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
    from engine_translations import ENGINE_TRANSLATIONS  # noqa: PLC0415
    missing = sorted(set(CATALOGUE.values()) - set(ENGINE_TRANSLATIONS))
    assert not missing, f"add to resources/i18n/engine_translations.py: {missing}"
    for template, translated in ENGINE_TRANSLATIONS.items():
        for text in translated:
            assert text and placeholders(text) == placeholders(template), (template, text)
