"""The engine's catalogue (engine/messages.py) in the interface's language.

Templates are translated in the Qt context ``engine`` of the .ts files (resources/i18n,
their only source; build_translations.py adds new templates there); parameters are filled in
after translation, so a Korean user reads which file, which page, which setting.
"""

from __future__ import annotations

from engine.messages import Msg, render
from app.text.i18n import Translated, translate
from app.text.korean import particles

CONTEXT = "engine"


def say(message: Msg) -> str:
    """The sentence in the interface's language (English where none is installed); it keeps
    its English for the log (app.text.i18n.Translated)."""
    said = particles(render(message, lambda template: translate(CONTEXT, template)))
    english = str(message)
    return said if said == english else Translated(said, english)
