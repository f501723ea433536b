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


class Translated(str):
    """A sentence in the interface's language that keeps its English (``english``): the log
    file is written in English whatever the language (app/widgets/notifications.py).
    ``format`` fills in both, each argument in its own language."""

    english: str

    def __new__(cls, text: str, english_text: str) -> "Translated":
        made = super().__new__(cls, text)
        made.english = english_text
        return made

    def format(self, *args: object, **kwargs: object) -> str:
        return Translated(str.format(self, *args, **kwargs), self.english.format(
            *(english(a) for a in args), **{k: english(v) for k, v in kwargs.items()}))


def english(text: object) -> object:
    """The English of a translated sentence; anything else as it is."""
    return text.english if isinstance(text, Translated) else text


def tr(text: str) -> str:
    return translate("", text)


def translate(context: str, text: str) -> str:
    """``text`` in the interface's language, looked up in a named context (the engine's
    catalogue uses "engine")."""
    said = _translate(context, text)
    return said if said == text else Translated(said, text)
