"""A document's sentences in the interface's language.

The engine says every one of them as a catalogue message (engine/messages.py: documents.*):
what a document holds, how it will be read, how much was read, progress. The app only renders
them (app.text.messages.say), so the command line and the app can never say different things.
"""

from __future__ import annotations

from dataclasses import asdict

from engine.api import DocumentFinished, DocumentOverview, DocumentSummary
from engine.messages import Msg, from_data, msg
from app.bridge.facade import summary_presets
from app.conversation.history import StoredMessage
from app.conversation.message_stats import MessageStats
from app.session.document_session import DocumentTask
from app.widgets.markdown_render import close_open_fence
from app.text.i18n import tr
from app.text.messages import say


def title_text(title: object) -> str:
    """A summary style's title (a catalogue message) in the interface's language."""
    return say(title) if isinstance(title, Msg) else str(title)


def found_text(overview: DocumentOverview) -> str:
    """"42 pages, about 31,000 words"."""
    return say(overview.found) if overview.found is not None else overview.name


def overview_text(overview: DocumentOverview) -> str:
    """"42 pages, about 31,000 words, read in 9 parts, about 4 minutes on this computer."
    and the pages that were pictures or had no text."""
    return " ".join(say(m) for m in (overview.message, *overview.notes))


def stored_overview_text(data: dict) -> str:
    """The same, from the overview the history keeps (app/conversation/history.py: ConversationDocument)."""
    found = _message(data.get("found"))
    notes = [_message(item) for item in data.get("notes", ())]
    said = ([msg("documents.sentence", text=found)] if found is not None else []) + notes
    return " ".join(say(m) for m in said if m is not None)


def _message(data: object) -> Msg | None:
    """A saved message, or None where a later Rotary's code is unknown here."""
    if not isinstance(data, dict) or not data:
        return None
    try:
        return from_data(data)
    except (KeyError, TypeError, AttributeError):
        return None


def read_note_text(summary: DocumentSummary) -> str:
    """"Read all of it (42 pages) in 9 parts." or what was read before the stop."""
    return " ".join(say(m) for m in (summary.read_note, *summary.notes))


def answer_text(overview: DocumentOverview, summary: DocumentSummary) -> str:
    """The summary as the conversation keeps it: the notice of a stop, the summary, the note."""
    note = read_note_text(summary)
    if not summary.body:
        return note
    stopped = say(msg("documents.partial_notice")) + "\n\n" if summary.partial else ""
    return f"{stopped}{close_open_fence(summary.body)}\n\n{note}"


def summary_messages(event: DocumentFinished, task: DocumentTask,
                     model_name: str) -> tuple[StoredMessage, StoredMessage]:
    """The document as the user's message, the summary as the answer (kept in history)."""
    overview, summary = event.overview, event.summary
    titles = dict(summary_presets())
    asked = "\n\n" + tr("I asked: {question}").format(question=task.question) \
        if task.question else ""
    user = StoredMessage("user", tr("Document: {name} — {found}\n{style}").format(
        name=overview.name, found=found_text(overview),
        style=title_text(titles.get(summary.preset, summary.preset))) + asked,
        stats=MessageStats(document={
            "path": task.path, "name": overview.name, "kind": overview.kind,
            "pages": overview.pages, "words": overview.words,
            "preset": summary.preset, "question": task.question}))
    answer = StoredMessage("assistant", answer_text(overview, summary), model_name=model_name,
                           stats=MessageStats(document_summary={
                               "partial": summary.partial, "parts": summary.parts,
                               "parts_read": summary.parts_read,
                               "model_calls": summary.model_calls,
                               "citations": [asdict(c) for c in summary.citations]}))
    return user, answer
