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
    # ---- engine/documents: what a document holds, how it is read, why it cannot be -----
    "documents.pages_one": "1 page",
    "documents.pages": "{n:,} pages",
    "documents.sections_one": "1 section",
    "documents.sections": "{n:,} sections",
    "documents.lines_one": "1 line",
    "documents.lines": "{n:,} lines",
    "documents.words": "{n} words",
    "documents.words_about": "about {n:,} words",
    "documents.found": "{found}, {words}",
    "documents.sentence": "{text}.",
    "documents.preset.short": "Short summary",
    "documents.preset.detailed": "Detailed summary",
    "documents.preset.bullets": "Bullet points",
    "documents.preset.actions": "Action items",
    "documents.read_one_pass": "read in one pass",
    "documents.read_parts": "read in {n} parts",
    "documents.in_one_pass": "in one pass",
    "documents.in_parts": "in {n} parts",
    "documents.here.under_minute": "less than a minute on this computer",
    "documents.here.minute": "about 1 minute on this computer",
    "documents.here.minutes": "about {n} minutes on this computer",
    "documents.here.hours": "about {n:.1f} hours on this computer",
    "documents.server.under_minute": "less than a minute on the office server",
    "documents.server.minute": "about 1 minute on the office server",
    "documents.server.minutes": "about {n} minutes on the office server",
    "documents.server.hours": "about {n:.1f} hours on the office server",
    "documents.left.under_minute": "Less than a minute left.",
    "documents.left.minute": "About 1 minute left.",
    "documents.left.minutes": "About {n} minutes left.",
    "documents.overview": "{found}, {how}.",
    "documents.overview_timed": "{found}, {how}, {duration}.",
    "documents.page_list_more": "{pages} and {n} more",
    "documents.skipped_page": "Page {pages} has no text (probably a picture) and will be skipped.",
    "documents.skipped_pages": "Pages {pages} have no text (probably pictures) and will be skipped.",
    "documents.unread_page": "Page {pages} has no text and could not be read.",
    "documents.unread_pages": "Pages {pages} have no text and could not be read.",
    "documents.ocr_page": "Page {pages} is a picture (probably scanned): text recognition read it in {seconds:.0f} s.",
    "documents.ocr_pages": "Pages {pages} are pictures (probably scanned): text recognition read them in {seconds:.0f} s.",
    "documents.note.all": "Read all of it ({found}) {how}.",
    "documents.note.all_unfinished": "Read all of it ({found}) {how}, but stopped before the summary was finished.",
    "documents.note.none": "Stopped before any of it ({found}) was read.",
    "documents.note.partial": "Partial: read {done} of {parts} parts of it ({found}); the rest was not read.",
    "documents.partial_notice": "Partial summary: stopped before the end.",
    "documents.progress.whole": "Reading the whole document and writing the summary…",
    "documents.progress.part": "Reading part {part} of {parts}…",
    "documents.progress.combining": "Writing the summary from the notes on all {parts} parts…",
    "documents.progress.ocr": "Reading page {page} of {pages} with text recognition…",
    "documents.progress.searching": "Looking for the passages that answer your question…",
    "documents.progress.reading_passages": "Reading {n} passages from {where}…",
    "documents.page_ref": "p. {page}",
    "documents.pages_ref": "pp. {pages}",
    "documents.section_ref": "section “{heading}”",
    "documents.lines_ref": "lines {lines}",
    "documents.beginning_ref": "the beginning",
    "documents.in_document": "{name}, {where}",
    "documents.list_pair": "{first}; {second}",
    "documents.whole_document": "{name} (all of it)",
    "documents.read_for_answer": "Read for this answer: {where}.",
    "documents.read_whole_for_answer": "Read all of it for this answer ({where}), {how}.",
    "documents.citation_not_found": "not found on {where}",
    "documents.citations_checked": "{passed} of {checked} page references checked against the pages.",
    # errors
    "documents.old_word": "'{name}' is in the old Word format (.doc). Open it in Word and save it as .docx, then drop it here again.",
    "documents.unsupported": "Rotary cannot read '{name}'. It reads PDF, Word (.docx), text and Markdown files.",
    "documents.cannot_open": "'{name}' could not be opened.",
    "documents.is_folder": "'{name}' is a folder, not a document.",
    "documents.empty_file": "'{name}' is empty.",
    "documents.no_text": "'{name}' contains no text to read.",
    "documents.too_many_bytes": "'{name}' is {mb:,.0f} MB; Rotary reads documents up to {limit:,.0f} MB.",
    "documents.not_pdf": "This file is not a PDF, although its name ends in .pdf.",
    "documents.too_many_pages": "This PDF has {n:,} pages; Rotary reads documents up to {limit:,} pages.",
    "documents.pictures_only": "This PDF's pages are pictures (probably scanned), and text recognition is not installed with this copy of Rotary, so it cannot read them.",
    "documents.pictures_unreadable": "This PDF's pages are pictures (probably scanned), and text recognition found no words on them.",
    "documents.pdf_password": "This PDF is protected by a password. Open it, save a copy without the password, and drop that copy here.",
    "documents.pdf_damaged": "This PDF is damaged and could not be opened.",
    "documents.pdf_too_much_text": "This PDF holds more text than Rotary can read at once (it stopped at page {page} of {pages}).",
    "documents.word_password": "This Word file is protected by a password (or is an old .doc renamed to .docx). Open it in Word, save a copy without the password as .docx, and drop that copy here.",
    "documents.word_damaged": "This Word file is damaged and could not be opened.",
    "documents.not_word": "This file is not a Word document, although its name ends in .docx.",
    "documents.word_too_big": "This Word file unpacks to more data than Rotary reads ({mb:,.0f} MB).",
    "documents.text_too_long": "This text file holds more text than Rotary can read at once.",
    "documents.not_text": "This file does not contain readable text, although its name says it is a text file.",
    "documents.binary": "This file does not contain text (it looks like a program or a picture), although its name says it is a text file.",
    "documents.no_preset": "There is no summary style called '{name}'.",
    "documents.context_too_small": "The model's memory (context) is too small to read documents. Choose a larger context in Settings.",
    "documents.split_failed": "The document could not be split to fit the model's memory.",
    "documents.ocr_stopped": "Text recognition was stopped, so the document was not read.",
    "documents.nothing_to_search": "This conversation has no documents to search. Attach one first.",
    "documents.not_indexed": "'{name}' is no longer in Rotary's list of read documents. Attach it again.",
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


def to_data(message: Msg) -> dict:
    """JSON-ready form, so that a saved message is said again in whatever language is chosen
    when it is read back (the app keeps document overviews this way)."""
    return {"code": message.code,
            "params": {name: to_data(value) if isinstance(value, Msg) else value
                       for name, value in message.params}}


def from_data(data: Any) -> Msg | None:
    """The message ``to_data`` wrote; None when it is not one this catalogue knows."""
    try:
        params = {name: from_data(value) if isinstance(value, dict) else value
                  for name, value in data["params"].items()}
        return msg(data["code"], **params)
    except (KeyError, TypeError, AttributeError):
        return None
