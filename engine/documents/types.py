"""What ingestion produces: a document as an ordered list of labelled sections."""

from __future__ import annotations

from dataclasses import dataclass, field

KINDS = {".pdf": "pdf", ".docx": "docx", ".txt": "text", ".text": "text",
         ".md": "markdown", ".markdown": "markdown"}


@dataclass(frozen=True)
class Section:
    """One unit of structure: a PDF page, a heading's section, a block of lines."""

    label: str                 # where it came from, in plain words: "page 3", "section 'Budget'"
    text: str
    page: int | None = None    # 1-based, PDFs only
    heading: str = ""


@dataclass(frozen=True)
class Limits:
    """Bounds that keep a hostile or huge file from hanging the app (stated to the user)."""

    max_bytes: int = 200 * 1024 * 1024
    max_pages: int = 5000
    max_chars: int = 20_000_000            # about 3.5 million words
    max_seconds: float = 120.0
    max_unzipped_bytes: int = 500 * 1024 * 1024   # a .docx is a zip: refuse zip bombs


@dataclass(frozen=True)
class Document:
    path: str
    name: str
    kind: str                              # "pdf", "docx", "text" or "markdown"
    sha256: str
    sections: tuple[Section, ...]
    page_count: int = 0                    # PDFs only
    unreadable_pages: tuple[int, ...] = () # pages with no text layer (images, scans)
    encoding: str = ""                     # text files: what charset detection found
    lines: int = 0                         # text files: how many lines (what a user counts)
    ocr_pages: tuple[int, ...] = ()        # pages that were pictures, read by text recognition
    ocr_seconds: float = 0.0               # how long that took (when it was done, not cached)
    from_cache: bool = field(default=False, compare=False)

    @property
    def text(self) -> str:
        return "\n\n".join(section.text for section in self.sections)

    @property
    def words(self) -> int:
        return sum(len(section.text.split()) for section in self.sections)
