"""What a document holds and how much of it was read, as catalogue messages (engine/messages.py).

The command line prints them in English (``str(msg)``); the app says the same messages in
the interface's language (app/text/messages.py), so no sentence is written twice.
"""

from __future__ import annotations

from typing import Sequence

from engine.api import DocumentOverview
from engine.documents.plan import DocumentPlan
from engine.documents.types import Document
from engine.messages import Msg, msg

MAX_PAGES_LISTED = 10


def overview_of(plan: DocumentPlan, estimated_s: float,
                on_server: bool = False) -> DocumentOverview:
    doc = plan.document
    found = found_msg(doc.kind, doc.page_count, len(doc.sections), doc.lines, doc.words)
    how = msg("documents.read_one_pass") if plan.whole else msg("documents.read_parts",
                                                                   n=len(plan.parts))
    message = (msg("documents.overview_timed", found=found, how=how,
                   duration=duration_msg(estimated_s, on_server)) if estimated_s >= 0
               else msg("documents.overview", found=found, how=how))
    notes = tuple(pages_note(doc, skipped="documents.skipped"))
    return DocumentOverview(
        name=doc.name, kind=doc.kind, pages=doc.page_count, sections=len(doc.sections),
        words=doc.words, tokens=plan.tokens, parts=len(plan.parts), model_calls=plan.model_calls,
        estimated_s=estimated_s, unreadable_pages=doc.unreadable_pages,
        from_cache=doc.from_cache, message=message, on_server=on_server, found=found,
        notes=notes, lines=doc.lines, ocr_pages=doc.ocr_pages, sha256=doc.sha256)


def found_msg(kind: str, pages: int, sections: int, lines: int, words: int) -> Msg:
    """"42 pages, about 31,000 words"."""
    return msg("documents.found", found=amount_msg(kind, pages, sections, lines),
               words=words_msg(words))


def amount_msg(kind: str, pages: int, sections: int, lines: int) -> Msg:
    """"42 pages", "3 sections"; a plain text file counts its lines, as an editor does (its
    blocks of 60 lines are nothing a user would recognise)."""
    if kind == "pdf":
        return msg("documents.pages_one") if pages == 1 else msg("documents.pages", n=pages)
    if kind == "text" and lines:
        return msg("documents.lines_one") if lines == 1 else msg("documents.lines", n=lines)
    return msg("documents.sections_one") if sections == 1 else msg("documents.sections", n=sections)


def words_msg(words: int) -> Msg:
    if words < 1000:
        return msg("documents.words", n=words)
    return msg("documents.words_about", n=int(float(f"{words:.2g}")))


def pages_note(doc: Document, skipped: str) -> list[Msg]:
    """Pages without text (``skipped``: "documents.skipped" before reading, "documents.unread"
    after) and pages read by text recognition."""
    notes = []
    if doc.ocr_pages:
        code = "documents.ocr_page" if len(doc.ocr_pages) == 1 else "documents.ocr_pages"
        notes.append(msg(code, pages=page_list(doc.ocr_pages), seconds=doc.ocr_seconds))
    if doc.unreadable_pages:
        code = f"{skipped}_page" if len(doc.unreadable_pages) == 1 else f"{skipped}_pages"
        notes.append(msg(code, pages=page_list(doc.unreadable_pages)))
    return notes


def page_list(pages: Sequence[int]) -> str | Msg:
    """"3, 7, 9" or "3–40" for a run; "1, 2, … and 30 more" past ten."""
    pages = sorted(pages)
    if len(pages) > 2 and pages[-1] - pages[0] == len(pages) - 1:
        return f"{pages[0]}–{pages[-1]}"
    shown = ", ".join(str(p) for p in pages[:MAX_PAGES_LISTED])
    if len(pages) <= MAX_PAGES_LISTED:
        return shown
    return msg("documents.page_list_more", pages=shown, n=len(pages) - MAX_PAGES_LISTED)


def read_note(plan: DocumentPlan, parts_read: int, partial: bool) -> Msg:
    """"Read all of it (42 pages, …) in 9 parts." or what was read before the stop."""
    doc, parts = plan.document, plan.parts
    found = amount_msg(doc.kind, doc.page_count, len(doc.sections), doc.lines)
    how = msg("documents.in_one_pass") if plan.whole else msg("documents.in_parts", n=len(parts))
    if not partial:
        return msg("documents.note.all", found=found, how=how)
    if parts_read == len(parts):
        return msg("documents.note.all_unfinished", found=found, how=how)
    if parts_read == 0:
        return msg("documents.note.none", found=found)
    # Which pages were read: "read 1 of 2 parts (35 pages)" read as if all 35 were.
    pages = sorted({page for part in parts[:parts_read] for page in part.pages})
    if pages:
        where = msg("documents.page_ref", page=pages[0]) if len(pages) == 1 else \
            msg("documents.pages_ref", pages=page_list(pages))
        return msg("documents.note.partial_pages", where=where, found=found, done=parts_read,
                   parts=len(parts))
    return msg("documents.note.partial", done=parts_read, parts=len(parts), found=found)


def duration_msg(seconds: float, on_server: bool = False) -> Msg:
    where = "documents.server" if on_server else "documents.here"
    if seconds < 45:
        return msg(f"{where}.under_minute")
    minutes = max(1, round(seconds / 60))
    if minutes >= 90:
        return msg(f"{where}.hours", n=seconds / 3600)
    return msg(f"{where}.minute") if minutes == 1 else msg(f"{where}.minutes", n=minutes)


def time_left_msg(seconds: float) -> Msg | None:
    if seconds < 0:
        return None
    if seconds < 45:
        return msg("documents.left.under_minute")
    minutes = max(1, round(seconds / 60))
    return msg("documents.left.minute") if minutes == 1 else msg("documents.left.minutes",
                                                                  n=minutes)
