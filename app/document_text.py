"""A document's numbers in the interface's language: what it has, and how much was read.

The engine writes the same sentences in English (engine/documents/report.py) for the command
line; the app says them in the user's language from the overview's and summary's numbers.
"""

from __future__ import annotations

from engine.api import DocumentOverview, DocumentSummary
from app.i18n import tr
from app.markdown_render import close_open_fence


def preset_titles() -> dict[str, str]:
    """The engine's summary styles (engine/documents/presets.py) by name, in the interface's
    language: plain tr() calls, so that lupdate finds them."""
    return {"short": tr("Short summary"), "detailed": tr("Detailed summary"),
            "bullets": tr("Bullet points"), "actions": tr("Action items")}


def found_text(overview: DocumentOverview) -> str:
    """"42 pages" or "1 section"."""
    if overview.kind == "pdf":
        return tr("1 page") if overview.pages == 1 else tr("{n} pages").format(n=overview.pages)
    return tr("1 section") if overview.sections == 1 else \
        tr("{n} sections").format(n=overview.sections)


def words_text(words: int) -> str:
    """"864 words" or "about 31,000 words"."""
    if words < 1000:
        return tr("{n} words").format(n=words)
    return tr("about {n} words").format(n=f"{int(float(f'{words:.2g}')):,}")


def read_note_text(overview: DocumentOverview, summary: DocumentSummary) -> str:
    """"Read all of it (42 pages) in 9 parts." or what was read before the stop."""
    found = found_text(overview)
    how = tr("in one pass") if summary.parts == 1 else tr("in {n} parts").format(n=summary.parts)
    if not summary.partial:
        note = tr("Read all of it ({found}) {how}.").format(found=found, how=how)
    elif summary.parts_read == summary.parts:
        note = tr("Read all of it ({found}) {how}, but stopped before the summary was "
                  "finished.").format(found=found, how=how)
    elif summary.parts_read == 0:
        note = tr("Stopped before any of it ({found}) was read.").format(found=found)
    else:
        note = tr("Partial: read {done} of {parts} parts of it ({found}); the rest was not "
                  "read.").format(done=summary.parts_read, parts=summary.parts, found=found)
    if overview.unreadable_pages:
        shown = ", ".join(str(p) for p in overview.unreadable_pages[:10])
        note += " " + tr("Pages without text could not be read: {pages}.").format(
            pages=shown + ("…" if len(overview.unreadable_pages) > 10 else ""))
    return note


def answer_text(overview: DocumentOverview, summary: DocumentSummary) -> str:
    """The summary as the conversation keeps it: the notice of a stop, the summary, the note."""
    note = read_note_text(overview, summary)
    if not summary.body:
        return note
    stopped = tr("Partial summary: stopped before the end.") + "\n\n" if summary.partial else ""
    return f"{stopped}{close_open_fence(summary.body)}\n\n{note}"
