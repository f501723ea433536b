"""Check an answer's page references against the pages they name.

Each ``[p. 12]`` (or ``[report.pdf, p. 12]``, ``[pp. 3–5]``, ``[page 12]``, ``[section
'Budget']``, ``[12쪽]``, ``[第12页]``) is tied to the words written before it since the last
reference or sentence start. That claim's key terms — numbers (amounts, dates, counts of two
digits or more) and names (capitalised words inside a sentence, acronyms) — must occur on
the cited page. A reference whose claim has no such term is "unchecked"; one whose page lacks
a key term is "not_found", and one that names a page the document does not have is "no_page":
the app marks both in the answer, each in its own words. Nothing is dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence

from engine.api import CitationCheck
from engine.messages import Msg, msg

MARKER = re.compile(r"\[([^\[\]\n]{1,160})\](?!\()")        # not a Markdown link "[x](url)"
PAGE_REF = re.compile(r"^(?:p|pp|page|pages)\.?\s*(?P<pages>\d[\d\s,–—\-&and]*)$", re.I)
LOCAL_PAGE_REF = re.compile(r"^(?:第\s*(?P<zh>\d+)\s*页|(?P<ko>\d+)\s*쪽)$")
SECTION_REF = re.compile(r"^section\s+['\"“‘](?P<heading>.+?)['\"”’]$", re.I)
LINES_REF = re.compile(r"^lines?\s+(?P<first>\d+)\s*[–—-]\s*(?P<last>\d+)$", re.I)
SENTENCE_END = re.compile(r"(?<!\d)[.!?](?=\s)|[。！？]|\n")
NUMBER = re.compile(r"\d[\d,.:/\-]*\d|\d")
NAME = re.compile(r"\b[A-Z][A-Za-z'’\-]+\b|\b[A-Z]{2,}\b")
COMMON_CAPITALS = frozenset("""I A An The This That These Those It Its He She They We You Our
Your Their There Here In On At For From To Of And Or But If When Where While After Before
By With Without As Also However Therefore Page Pages Section Lines Source Sources Yes No
Not None All Each Every""".split())
JOINER = re.compile(r"^[\s,;:.\-–—]*$")


@dataclass(frozen=True)
class Ref:
    """One place a marker names: pages of a PDF, or a section / line-block label."""

    document: str                      # a file name as written, or ""
    pages: tuple[int, ...] = ()
    label: str = ""                    # "section 'Budget'", "lines 61–120"


@dataclass(frozen=True)
class Marker:
    start: int
    end: int
    text: str
    refs: tuple[Ref, ...]


# (document name, ref) -> that place's text; None: the document has no such page
PageText = Callable[[str, Ref], "str | None"]


def find_markers(answer: str, names: Sequence[str] = ()) -> list[Marker]:
    """Every bracket that reads as a page or section reference ("[1]" and links are not)."""
    markers = []
    for match in MARKER.finditer(answer):
        refs = tuple(ref for part in re.split(r"\s*;\s*", match.group(1))
                     if (ref := parse_ref(part.strip(), names)) is not None)
        if refs:
            markers.append(Marker(match.start(), match.end(), match.group(), refs))
    return markers


def parse_ref(text: str, names: Sequence[str] = ()) -> Ref | None:
    document, rest = _split_document(text, names)
    if match := PAGE_REF.match(rest):
        pages = _page_numbers(match.group("pages"))
        return Ref(document, pages) if pages else None
    if match := LOCAL_PAGE_REF.match(rest):
        return Ref(document, (int(match.group("zh") or match.group("ko")),))
    if match := SECTION_REF.match(rest):
        return Ref(document, label=f"section '{match.group('heading')}'")
    if match := LINES_REF.match(rest):
        return Ref(document, label=f"lines {match.group('first')}–{match.group('last')}")
    return None


def _split_document(text: str, names: Sequence[str]) -> tuple[str, str]:
    """("report.pdf", "p. 12") from "report.pdf, p. 12" when the name is one of ``names``."""
    head, _, rest = text.partition(",")
    if rest and (head.strip().lower() in {n.lower() for n in names}
                 or re.search(r"\.(pdf|docx|txt|text|md|markdown)$", head.strip(), re.I)):
        return head.strip(), rest.strip()
    return "", text


def _page_numbers(text: str) -> tuple[int, ...]:
    pages: list[int] = []
    for first, last in re.findall(r"(\d+)(?:\s*[–—-]\s*(\d+))?", text):
        low, high = int(first), int(last or first)
        if high >= low and high - low < 200:
            pages.extend(range(low, high + 1))
    return tuple(dict.fromkeys(pages))


# ---- the claim a marker supports, and its key terms -----------------------------------------

def claims(answer: str, markers: list[Marker]) -> list[tuple[list[Marker], str]]:
    """Markers grouped when only spaces or commas stand between them, each group with the text
    it follows: from the last sentence start or the previous group, whichever is later."""
    groups: list[list[Marker]] = []
    for marker in markers:
        if groups and JOINER.match(answer[groups[-1][-1].end:marker.start]):
            groups[-1].append(marker)
        else:
            groups.append([marker])
    result, previous_end = [], 0
    for group in groups:
        start = group[0].start
        before = answer[previous_end:start]
        ends = [m.end() for m in SENTENCE_END.finditer(before)]
        claim = before[ends[-1]:] if ends and before[ends[-1]:].strip(" *_-") else before
        if not claim.strip(" *_-\n") and ends:      # "… 30 days. [p. 3]": the sentence before
            claim = before[ends[-2] if len(ends) > 1 else 0:ends[-1]]
        result.append((group, claim))
        previous_end = group[-1].end
    return result


def key_terms(claim: str) -> tuple[str, ...]:
    """Numbers of two digits or more and names, as they must appear on the page."""
    terms: list[str] = []
    for number in NUMBER.findall(claim):
        for piece in re.split(r"[-/:]", number.replace(",", "")):
            piece = piece.strip(".").lstrip("0")
            if len(piece.replace(".", "")) >= 2:
                terms.append(piece)
    for sentence in SENTENCE_END.split(claim):
        words = sentence.strip(" *_#>-\t").split()
        first = words[0] if words else ""
        for name in NAME.findall(sentence):
            if name not in COMMON_CAPITALS and not (first.startswith(name) and name[1:].islower()):
                terms.append(name)
    return tuple(dict.fromkeys(terms))


def normalised(page: str) -> str:
    return re.sub(r"(?<=\d)[,\u00a0\u202f ](?=\d{3}\b)", "", page)


def on_page(term: str, page: str) -> bool:
    if term[0].isdigit():
        return re.search(rf"(?<![\d.]){re.escape(term)}(?![\d]|\.\d)", page) is not None
    return re.search(rf"\b{re.escape(term)}\b", page, re.I) is not None


# ---- checking -------------------------------------------------------------------------------

def check_answer(answer: str, documents: Sequence[str], page_text: PageText,
                 where: Callable[[Ref, str], Msg] | None = None) -> tuple[CitationCheck, ...]:
    """Every reference of ``answer`` checked. ``documents``: the file names the answer may
    cite (the first is assumed when a reference names none and there is only one);
    ``page_text(name, ref)`` gives a cited place's text, None when it does not exist."""
    where = where or (lambda ref, name: where_msg(ref, name, len(documents) > 1))
    checks = []
    for group, claim in claims(answer, find_markers(answer, documents)):
        terms = key_terms(claim)
        for marker in group:
            checks.append(_check(marker, terms, documents, page_text, where))
    return tuple(checks)


def _check(marker: Marker, terms: tuple[str, ...], documents: Sequence[str],
           page_text: PageText, where) -> CitationCheck:
    verdicts = []
    for ref in marker.refs:
        names = [_resolve(ref.document, documents)] if ref.document else list(documents)
        texts = {name: page_text(name, ref) for name in names if name}
        existing = {name: normalised(text) for name, text in texts.items() if text is not None}
        if not existing:      # "[p. 21]" of a 20-page file: no page to find the claim on
            verdicts.append(("no_page", names[0] if names else "", ref, terms))
            continue
        best = min(existing, key=lambda n: len([t for t in terms if not on_page(t, existing[n])]))
        missing = tuple(t for t in terms if not on_page(t, existing[best]))
        status = "unchecked" if not terms else ("not_found" if missing else "found")
        verdicts.append((status, best, ref, missing))
    status, name, ref, missing = _worst(verdicts)
    return CitationCheck(marker.text, marker.start, marker.end, name, where(ref, name), status,
                         terms, missing)


def _worst(verdicts):
    order = {"no_page": 0, "not_found": 1, "found": 2, "unchecked": 3}
    return min(verdicts, key=lambda v: order[v[0]])


def _resolve(written: str, documents: Sequence[str]) -> str:
    """The document a reference names, matched without case and with or without its suffix."""
    wanted = written.lower()
    for name in documents:
        if name.lower() in (wanted, f"{wanted}.pdf") or name.lower().rsplit(".", 1)[0] == wanted:
            return name
    return ""


def where_msg(ref: Ref, name: str, with_name: bool) -> Msg:
    """"p. 12", "pp. 3–5", "section “Budget”", with the file's name when there are several."""
    if ref.pages:
        place = msg("documents.page_ref", page=ref.pages[0]) if len(ref.pages) == 1 else \
            msg("documents.pages_ref", pages=_span(ref.pages))
    elif ref.label.startswith("section '"):
        place = msg("documents.section_ref", heading=ref.label[len("section '"):-1])
    else:
        place = msg("documents.lines_ref", lines=ref.label.split(" ", 1)[-1])
    return msg("documents.in_document", name=name, where=place) if with_name and name else place


def _span(pages: Sequence[int]) -> str:
    pages = sorted(pages)
    if pages[-1] - pages[0] == len(pages) - 1:
        return f"{pages[0]}–{pages[-1]}"
    return ", ".join(str(p) for p in pages)


def share_passing(checks: Sequence[CitationCheck]) -> tuple[int, int]:
    """(passed, checked): references whose claim had terms to check."""
    checked = [c for c in checks if c.status != "unchecked"]
    return sum(1 for c in checked if c.status == "found"), len(checked)
