"""The passages of every document read, in an SQLite full-text index (FTS5, ranked by BM25).

The index is a file of its own: the app keeps it beside its history database (which holds
the conversation → document links, app/conversation/history.py), ``python -m engine ask`` beside the text
cache. Only the engine thread writes to it while the app runs, so SQLite's default 5-second
wait for a lock is plenty.

Korean and Chinese are found by indexing every run of Hangul, Han or Kana characters as its
overlapping two-character pieces (and single characters), the CJK bigram scheme of Lucene's
CJKAnalyzer. SQLite's ``trigram`` tokenizer was the alternative: it cannot match a query term
shorter than three characters, and most Korean and Chinese words are two ("예산", "预算").
Latin text goes through FTS5's own ``porter unicode61`` tokenizer (stems, accents folded).
"""

from __future__ import annotations

import re
import sqlite3
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from engine.documents.types import Document, Section

INDEX_VERSION = 1          # bump when passages or terms change: documents are indexed again
PASSAGE_CHARS = 1200       # longer sections are cut at paragraphs/lines (index granularity only)

SCHEMA = """
CREATE TABLE IF NOT EXISTS doc_index_files (
    sha256 TEXT PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL,
    pages INTEGER NOT NULL, passages INTEGER NOT NULL, version INTEGER NOT NULL,
    indexed REAL NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS doc_index_passages USING fts5(
    terms, sha256 UNINDEXED, position UNINDEXED, label UNINDEXED, page UNINDEXED,
    text UNINDEXED, tokenize = 'porter unicode61 remove_diacritics 2');
"""

CJK_RUN = re.compile(r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
                     r"\uac00-\ud7a3\uf900-\ufaff]+")
WORD = re.compile(r"\w+", re.UNICODE)
# Question words and function words: they match every page and rank nothing.
STOP_WORDS = frozenset("""a an and are as at be by can could did do does for from has have how
i in is it its me my of on or our please say says said should tell that the their there these
this those to was we were what when where which who whom why will with would you your about
document documents file page pages""".split())


@dataclass(frozen=True)
class Passage:
    sha256: str
    name: str                  # the file's name
    position: int              # order within its document
    label: str                 # "page 12", "section 'Budget'", "lines 61–120"
    page: int | None
    text: str


@dataclass(frozen=True)
class IndexedDocument:
    sha256: str
    name: str
    kind: str
    pages: int
    passages: int


def cjk_pieces(run: str) -> list[str]:
    """A run of CJK characters as single characters and overlapping pairs."""
    return list(run) + [run[i:i + 2] for i in range(len(run) - 1)]


def index_terms(text: str) -> str:
    """What FTS5 indexes: the text, with CJK runs spelled out as pieces FTS5 can match."""
    text = unicodedata.normalize("NFKC", text)
    return CJK_RUN.sub(lambda m: " " + " ".join(cjk_pieces(m.group())) + " ", text)


def query_terms(question: str) -> list[str]:
    """The question's search terms: words without stop words, CJK runs as pairs."""
    terms: list[str] = []
    text = unicodedata.normalize("NFKC", question).lower()
    for match in CJK_RUN.finditer(text):
        run = match.group()
        terms += [run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)]
    for word in WORD.findall(CJK_RUN.sub(" ", text)):
        if word not in STOP_WORDS and (len(word) > 1 or word.isdigit()):
            terms.append(word)
    return list(dict.fromkeys(terms))


def fts_query(terms: Iterable[str]) -> str:
    """Any of the terms (OR), each quoted so that FTS5 reads no operator inside it."""
    return " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)


def split_passages(sections: Sequence[Section], longest: int = PASSAGE_CHARS) -> list[Section]:
    """Sections cut at paragraphs, then lines, into passages of at most ``longest`` characters;
    each keeps its section's label and page."""
    passages = []
    for section in sections:
        passages += _cut(section, longest)
    return passages


def _cut(section: Section, longest: int) -> list[Section]:
    if len(section.text) <= longest:
        return [section]
    for separator in ("\n\n", "\n", " "):
        chunks = [c for c in section.text.split(separator) if c.strip()]
        if len(chunks) > 1:
            break
    else:
        middle = len(section.text) // 2
        chunks, separator = [section.text[:middle], section.text[middle:]], ""
    pieces, current = [], ""
    for chunk in chunks:
        if current and len(current) + len(separator) + len(chunk) > longest:
            pieces.append(current)
            current = chunk
        else:
            current = f"{current}{separator}{chunk}" if current else chunk
    pieces.append(current)
    return [piece for text in pieces
            for piece in _cut(Section(section.label, text, section.page, section.heading), longest)]


class PassageIndex:
    """One connection to the index in ``path`` (created when missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(SCHEMA)

    def __enter__(self) -> "PassageIndex":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    # ---- writing -----------------------------------------------------------------------

    def add(self, document: Document) -> bool:
        """Index ``document`` unless this exact file is already; True when it was written."""
        row = self.db.execute("SELECT version FROM doc_index_files WHERE sha256=?",
                              (document.sha256,)).fetchone()
        if row is not None and row[0] == INDEX_VERSION:
            return False
        passages = split_passages(document.sections)
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self._forget(document.sha256)
            self.db.executemany(
                "INSERT INTO doc_index_passages (terms, sha256, position, label, page, text)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(index_terms(p.text), document.sha256, i, p.label, p.page, p.text)
                 for i, p in enumerate(passages)])
            self.db.execute(
                "INSERT INTO doc_index_files (sha256, name, kind, pages, passages, version,"
                " indexed) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (document.sha256, document.name, document.kind, document.page_count,
                 len(passages), INDEX_VERSION, time.time()))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return True

    def _forget(self, sha256: str) -> None:
        self.db.execute("DELETE FROM doc_index_passages WHERE sha256=?", (sha256,))
        self.db.execute("DELETE FROM doc_index_files WHERE sha256=?", (sha256,))

    def take_over(self, other: str | Path) -> int:
        """Move in the index tables another SQLite file holds (earlier versions of Rotary
        kept them in the app's history database), then drop them there. Copied first and
        dropped after, each file in its own transaction: a crash between leaves copies, which
        the next call skips. Returns the documents moved."""
        if not Path(other).is_file():
            return 0
        self.db.execute("ATTACH DATABASE ? AS other", (str(other),))
        try:
            held = {name for (name,) in self.db.execute(
                "SELECT name FROM other.sqlite_master WHERE type='table'")}
            if not {"doc_index_files", "doc_index_passages"} <= held:
                return 0
            moved = self._copy_from_other()
            self.db.executescript("BEGIN IMMEDIATE; DROP TABLE other.doc_index_passages;"
                                  " DROP TABLE other.doc_index_files; COMMIT;")
            return moved
        finally:
            self.db.execute("DETACH DATABASE other")

    def _copy_from_other(self) -> int:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            new = "(SELECT sha256 FROM other.doc_index_files WHERE sha256 NOT IN" \
                  " (SELECT sha256 FROM main.doc_index_files))"
            self.db.execute("INSERT INTO main.doc_index_passages (terms, sha256, position, label,"
                            " page, text) SELECT terms, sha256, position, label, page, text"
                            f" FROM other.doc_index_passages WHERE sha256 IN {new}")
            moved = self.db.execute("INSERT INTO main.doc_index_files SELECT * FROM"
                                    f" other.doc_index_files WHERE sha256 IN {new}").rowcount
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        return moved

    def keep_only(self, keep: Iterable[str]) -> int:
        """Forget every document not in ``keep`` (those no conversation holds any more)."""
        keep = set(keep)
        gone = [sha for (sha,) in self.db.execute("SELECT sha256 FROM doc_index_files")
                if sha not in keep]
        for sha in gone:
            self._forget(sha)
        return len(gone)

    # ---- reading -----------------------------------------------------------------------

    def documents(self, shas: Sequence[str]) -> list[IndexedDocument]:
        """The indexed ones of ``shas``, in that order."""
        found = {row[0]: IndexedDocument(*row) for row in self.db.execute(
            "SELECT sha256, name, kind, pages, passages FROM doc_index_files WHERE version=?",
            (INDEX_VERSION,)) if row[0] in set(shas)}
        return [found[sha] for sha in shas if sha in found]

    def passages(self, shas: Sequence[str]) -> list[Passage]:
        """Every passage of ``shas``, documents in that order, passages in reading order."""
        order = {sha: i for i, sha in enumerate(shas)}
        names = {d.sha256: d.name for d in self.documents(shas)}
        rows = [row for sha in order for row in self.db.execute(
            "SELECT sha256, position, label, page, text FROM doc_index_passages WHERE sha256=?"
            " ORDER BY position", (sha,))]
        return [Passage(sha, names.get(sha, ""), int(pos), label, page, text)
                for sha, pos, label, page, text in rows]

    def search(self, question: str, shas: Sequence[str],
               limit: int = 500) -> list[tuple[Passage, float]]:
        """Passages of ``shas`` that share a term with ``question``, best (BM25) first."""
        terms = query_terms(question)
        if not terms or not shas:
            return []
        names = {d.sha256: d.name for d in self.documents(shas)}
        marks = ",".join("?" * len(shas))
        rows = self.db.execute(
            "SELECT sha256, position, label, page, text, bm25(doc_index_passages) AS score"
            f" FROM doc_index_passages WHERE doc_index_passages MATCH ? AND sha256 IN ({marks})"
            " ORDER BY score LIMIT ?", (fts_query(terms), *shas, limit))
        return [(Passage(sha, names.get(sha, ""), int(pos), label, page, text), score)
                for sha, pos, label, page, text, score in rows]

    def page_text(self, sha256: str, page: int) -> str | None:
        """All of a PDF page's text (None: the document has no such page indexed)."""
        rows = self.db.execute("SELECT text FROM doc_index_passages WHERE sha256=? AND page=?"
                               " ORDER BY position", (sha256, page)).fetchall()
        return "\n".join(row[0] for row in rows) if rows else None

    def label_text(self, sha256: str, label: str) -> str | None:
        """All text under one section or line-block label (None: no such label)."""
        rows = self.db.execute("SELECT text FROM doc_index_passages WHERE sha256=? AND label=?"
                               " ORDER BY position", (sha256, label)).fetchall()
        return "\n".join(row[0] for row in rows) if rows else None
