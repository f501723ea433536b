"""Plain sentences about a document: what was found, and how much of it was read."""

from __future__ import annotations

from engine.api import DocumentOverview
from engine.documents.plan import DocumentPlan
from engine.documents.split import span_label


def overview_of(plan: DocumentPlan, estimated_s: float,
                on_server: bool = False) -> DocumentOverview:
    doc = plan.document
    found = found_text(doc)
    how = "read in one pass" if plan.whole else f"read in {len(plan.parts)} parts"
    where = "on the office server" if on_server else "on this computer"
    when = f", {duration_text(estimated_s)} {where}" if estimated_s >= 0 else ""
    message = f"{found}, {words_text(doc.words)}, {how}{when}."
    if doc.unreadable_pages:
        message += f" {pages_text(doc.unreadable_pages).capitalize()} {_have(doc)} no text " \
                   "(probably images) and will be skipped."
    return DocumentOverview(
        name=doc.name, kind=doc.kind, pages=doc.page_count, sections=len(doc.sections),
        words=doc.words, tokens=plan.tokens, parts=len(plan.parts), model_calls=plan.model_calls,
        estimated_s=estimated_s, unreadable_pages=doc.unreadable_pages,
        from_cache=doc.from_cache, message=message, on_server=on_server)


def _have(doc) -> str:
    return "has" if len(doc.unreadable_pages) == 1 else "have"


def found_text(doc) -> str:
    """"42 pages" or "1 section": how much the document has."""
    if doc.kind == "pdf":
        return f"{doc.page_count} page{'s' * (doc.page_count != 1)}"
    return f"{len(doc.sections)} section{'s' * (len(doc.sections) != 1)}"


def read_note(plan: DocumentPlan, parts_read: int, partial: bool) -> str:
    """"Read all of it (42 pages) in 9 parts." or what was read before the stop.

    The app says the same in the interface's language from the summary's numbers."""
    doc, parts = plan.document, plan.parts
    found = found_text(doc)
    how = "in one pass" if plan.whole else f"in {len(parts)} parts"
    if not partial:
        note = f"Read all of it ({found}) {how}."
    elif parts_read == len(parts):
        note = f"Read all of it ({found}) {how}, but stopped before the summary was finished."
    elif parts_read == 0:
        note = f"Stopped before any of it ({found}) was read."
    else:
        pieces = [piece for part in parts[:parts_read] for piece in part.pieces]
        read = span_label([p.label for p in pieces], [p.page for p in pieces if p.page])
        note = (f"Partial: read {read} ({parts_read} of {len(parts)} parts) of it ({found}); "
                "the rest was not read.")
    if doc.unreadable_pages:
        note += f" {pages_text(doc.unreadable_pages).capitalize()} {_have(doc)} no text and " \
                "could not be read."
    return note


def pages_text(pages: tuple[int, ...]) -> str:
    if len(pages) == 1:
        return f"page {pages[0]}"
    shown = ", ".join(str(p) for p in pages[:10]) + (f" and {len(pages) - 10} more"
                                                      if len(pages) > 10 else "")
    return f"pages {shown}"


def words_text(words: int) -> str:
    if words < 1000:
        return f"{words} words"
    rounded = int(float(f"{words:.2g}"))
    return f"about {rounded:,} words"


def duration_text(seconds: float) -> str:
    if seconds < 45:
        return "less than a minute"
    minutes = round(seconds / 60)
    if minutes < 90:
        return f"about {max(1, minutes)} minute{'s' * (max(1, minutes) != 1)}"
    return f"about {seconds / 3600:.1f} hours"
