"""Translation without Qt: one ``tr`` for every user-visible sentence.

``pyside6-lupdate`` finds the sentences (it extracts plain ``tr("...")`` calls with an empty
context). The Qt app plugs Qt's translator in when it starts (app/widgets/translation.py,
``use_translation``); until then, and in the Qt-free models' tests, sentences stay English.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

I18N_DIR = Path(__file__).resolve().parents[2] / "resources" / "i18n"

# Language codes we ship, with their names written in their own language.
LANGUAGES = {"en": "English", "ko": "한국어", "zh_CN": "简体中文"}

Translate = Callable[[str, str], str]        # (context, sentence) -> sentence


def _english(context: str, text: str) -> str:
    return text


_translate: Translate = _english
# The interface's language once a translation is in use ("en" until then).
active_language = "en"


def use_translation(translate: Translate | None, language: str = "en") -> None:
    """Translate every later ``tr`` with ``translate`` (None: English again)."""
    global _translate, active_language
    _translate = translate or _english
    active_language = language if translate else "en"


def tr(text: str) -> str:
    return _translate("", text)


def translate(context: str, text: str) -> str:
    """``text`` in the interface's language, looked up in a named context (the engine's
    catalogue uses "engine")."""
    return _translate(context, text)
