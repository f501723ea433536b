"""Fit or split: pack a document's sections into parts that each fit the model's context.

Sizes are counted with the model's own tokenizer (``count``), never estimated from
characters. A section larger than a part is cut at paragraphs, then lines, then words,
and every piece keeps its section's label, so a point can still be traced to its page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from engine.documents.types import Section

TokenCounter = Callable[[str], int]


@dataclass(frozen=True)
class Part:
    index: int                          # 1-based
    pieces: tuple[Section, ...]
    tokens: int                         # of ``text``, counted with the model's tokenizer

    @property
    def text(self) -> str:
        return "\n\n".join(tagged(piece) for piece in self.pieces)

    @property
    def pages(self) -> tuple[int, ...]:
        return tuple(dict.fromkeys(p.page for p in self.pieces if p.page is not None))

    @property
    def label(self) -> str:
        return span_label([p.label for p in self.pieces], self.pages)


def tagged(piece: Section) -> str:
    return f"[{piece.label}]\n{piece.text}"


def span_label(labels: Sequence[str], pages: Sequence[int]) -> str:
    """"pages 3–5" for a run of pages, "lines 1–120" for line blocks, else "A to C"."""
    pages = sorted(dict.fromkeys(pages))
    if pages and all(label.startswith("page") for label in labels):
        return f"page {pages[0]}" if len(pages) == 1 else f"pages {pages[0]}–{pages[-1]}"
    unique = list(dict.fromkeys(labels))
    if len(unique) == 1:
        return unique[0]
    if all(label.startswith("lines ") for label in unique):
        return f"{unique[0].split('–')[0]}–{unique[-1].split('–')[-1]}"
    return f"{unique[0].split(' to ')[0]} to {unique[-1].split(' to ')[-1]}"


SLACK = 0.97   # pieces are counted one by one; joints may merge a token or two
FILL_FROM = 0.15   # a part with this share of its room left takes the head of the next page


def split_into_parts(sections: Sequence[Section], budget: int, count: TokenCounter) -> list[Part]:
    """Parts of at most ``budget`` tokens, in document order, about equal in size."""
    if budget < 16:
        raise ValueError(f"part budget {budget} tokens is too small to hold any text")
    pieces = [(piece, count(tagged(piece))) for s in sections for piece in _fitting(s, budget, count)]
    total = sum(tokens + 2 for _, tokens in pieces)              # + the "\n\n" joints
    limit = budget * SLACK
    target = min(limit, math.ceil(total / math.ceil(total / limit)) * 1.05)
    groups: list[list[Section]] = []
    current: list[Section] = []
    size = 0
    pending = list(reversed(pieces))                             # a stack, document order
    while pending:
        piece, tokens = pending.pop()
        room = target - size - 2
        if not current or tokens <= room:
            current.append(piece)
            size += tokens + 2
            continue
        cut = _cut_at_lines(piece, room, count) if room >= target * FILL_FROM else None
        if cut is not None:          # fill this part to the brim; the rest opens the next
            current.append(cut[0])
            pending.append((cut[1], count(tagged(cut[1]))))
        else:
            pending.append((piece, tokens))
        groups.append(current)
        current, size = [], 0
    groups.append(current)
    parts = [part for group in groups for part in _exact_parts(group, budget, count)]
    return [Part(i, part.pieces, part.tokens) for i, part in enumerate(parts, start=1)]


def _cut_at_lines(piece: Section, room: float, count: TokenCounter) -> tuple[Section, Section] | None:
    """Split ``piece`` at a line so that its head fits ``room`` tokens (both halves non-empty)."""
    lines = piece.text.split("\n")
    size, taken = count(tagged(_with_text(piece, ""))), 0
    for line in lines[:-1]:
        size += count(line) + 1
        if size > room:
            break
        taken += 1
    if taken == 0:
        return None
    return (_with_text(piece, "\n".join(lines[:taken])),
            _with_text(piece, "\n".join(lines[taken:])))


def _exact_parts(pieces: list[Section], budget: int, count: TokenCounter) -> list[Part]:
    part = Part(0, tuple(pieces), 0)
    part = Part(0, part.pieces, count(part.text))
    if part.tokens <= budget or len(pieces) == 1:
        return [part]
    middle = len(pieces) // 2
    return _exact_parts(pieces[:middle], budget, count) + _exact_parts(pieces[middle:], budget, count)


def _fitting(section: Section, budget: int, count: TokenCounter, depth: int = 0) -> list[Section]:
    if count(tagged(section)) <= budget:
        return [section]
    for separator in ("\n\n", "\n", " ") if depth < 3 else ():
        chunks = [c for c in section.text.split(separator) if c.strip()]
        if len(chunks) > 1:
            return [piece for group in _group(chunks, separator, section, budget, count)
                    for piece in _fitting(group, budget, count, depth + 1)]
    return _cut_tokens(section, budget, count)


def _group(chunks: list[str], separator: str, section: Section, budget: int,
           count: TokenCounter) -> list[Section]:
    """Consecutive chunks joined back while they fit; each chunk is counted once (linear)."""
    overhead = count(tagged(_with_text(section, ""))) + 1
    groups: list[Section] = []
    current: list[str] = []
    size = overhead
    for chunk in chunks:
        tokens = count(chunk) + 1
        if current and size + tokens > budget * SLACK:
            groups.append(_with_text(section, separator.join(current)))
            current, size = [], overhead
        current.append(chunk)
        size += tokens
    groups.append(_with_text(section, separator.join(current)))
    return groups


def _cut_tokens(section: Section, budget: int, count: TokenCounter) -> list[Section]:
    # One "word" longer than a part (a table dump, a base64 blob): halve it until it fits.
    text = section.text
    if count(tagged(section)) <= budget or len(text) < 2:
        return [section]
    middle = len(text) // 2
    return (_cut_tokens(_with_text(section, text[:middle]), budget, count)
            + _cut_tokens(_with_text(section, text[middle:]), budget, count))


def _with_text(section: Section, text: str) -> Section:
    return Section(section.label, text, section.page, section.heading)
