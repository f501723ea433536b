"""Every sentence the engine says to a person, by code: one catalogue for every surface.

After Anki's backend: the engine raises errors and writes reports with a **message code and
parameters** (``Msg``), never a finished sentence. Whoever shows it renders it: the command
line and the log in English (``str(msg)``), the app in the interface's language
(``app/messages.py``, which translates the template and then fills in the same parameters).
Translations of these templates live in ``resources/i18n/engine_translations.py``; the build
writes them into the .ts files under the context ``engine``.

Adding a sentence: put ``"area.what": "Template with {param}."`` in ``CATALOGUE`` (codes are
grouped by the engine folder that says them), raise or report ``msg("area.what", param=…)``,
and add its Korean and Chinese to ``engine_translations.py``; a test fails until you do.
A parameter may itself be a ``Msg`` (rendered in the same language), a number (formatted by
the template, e.g. ``{gib:.1f}``) or a string that is data, not words (a path, a name).
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Any, Callable

CATALOGUE: dict[str, str] = {
    # ---- engine/runtime, engine/api: requests ------------------------------------------
    "engine.no_model": "No model is loaded yet. Choose a model in Settings.",
    "engine.unexpected": "Something went wrong inside the engine.",
}


@dataclass(frozen=True)
class Msg:
    """A catalogue code and its parameters; ``str()`` is the English sentence."""

    code: str
    params: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return render(self)

    def param(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)


def placeholders(template: str) -> set[str]:
    """The parameter names a template uses ({n}, {gib:.1f} -> {"n", "gib"})."""
    return {field.split(".")[0].split("[")[0]
            for _, field, _, _ in string.Formatter().parse(template) if field}


def msg(code: str, **params: Any) -> Msg:
    """A message, checked now: an unknown code or a missing parameter is a bug to catch
    where it is written, not when a user first meets the sentence."""
    try:
        template = CATALOGUE[code]
    except KeyError:
        raise KeyError(f"no message {code!r} in engine/messages.py CATALOGUE") from None
    missing = placeholders(template) - params.keys()
    if missing:
        raise KeyError(f"message {code!r} needs {sorted(missing)}")
    return Msg(code, tuple(sorted(params.items())))


def render(message: Msg, translate: Callable[[str], str] | None = None) -> str:
    """The sentence: the template (translated when ``translate`` is given) with its
    parameters; nested messages are rendered with the same ``translate``."""
    template = CATALOGUE[message.code]
    if translate is not None:
        template = translate(template) or template
    values = {name: render(value, translate) if isinstance(value, Msg) else value
              for name, value in message.params}
    return template.format(**values)
