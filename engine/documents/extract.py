"""Read a PDF, Word (.docx), text or Markdown file into labelled sections.

Libraries, not hand-written parsers: pypdfium2 for the PDF text layer (3.7x faster than
pypdf on a generated 300-page PDF here; Apache-2.0/BSD-3), python-docx (MIT) and
charset-normalizer (MIT) for text files of unknown encoding.
"""

from __future__ import annotations

import io
import logging
import os
import re
import time
import zipfile
from pathlib import Path

from engine.documents import ocr
from engine.documents.cache import TextCache, file_sha256
from engine.documents.sniff import OLE_MAGIC, real_kind
from engine.documents.types import KINDS, Document, Limits, Section
from engine.errors import (CorruptDocumentError, DocumentError, DocumentTooLargeError,
                           EmptyDocumentError, NoTextLayerError, PasswordProtectedError,
                           ReadingStoppedError, UnsupportedDocumentError)
from engine.messages import msg

log = logging.getLogger("rotary.documents")
FPDF_ERR_PASSWORD = 4


def read_document(path: str | os.PathLike, *, cache: TextCache | None = None,
                  limits: Limits = Limits(), ocr_run: ocr.OcrRun | None = None) -> Document:
    """The document's sections, from the cache when this exact file was read before.

    PDF pages that are pictures are read by text recognition where it is installed
    (``ocr_run``: its stop flag and progress); their text is cached like the rest."""
    path = Path(path)
    kind = _kind_of(path)
    size = _checked_size(path, limits)
    sha256, data = file_sha256(path)
    cache = cache if cache is not None else TextCache()
    cached = cache.get(sha256, str(path))
    if cached is not None:
        return cached
    kind = _content_kind(path, kind, data)
    reader = {"docx": _read_docx}.get(kind, _read_text)
    fields = reader(data, limits, kind) if kind != "pdf" else _read_pdf(data, limits, ocr_run)
    document = Document(path=str(path), name=path.name, kind=kind, sha256=sha256, **fields)
    if not any(s.text.strip() for s in document.sections):
        raise EmptyDocumentError(msg("documents.no_text", name=path.name), f"{size} bytes")
    cache.put(document)
    return document


def _kind_of(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix in KINDS:
        return KINDS[suffix]
    if suffix == ".doc":
        raise UnsupportedDocumentError(msg("documents.old_word", name=path.name))
    raise UnsupportedDocumentError(msg("documents.unsupported", name=path.name),
                                   f"suffix {suffix or '(none)'}")


# What a file really is (engine.documents.sniff), said in plain words, and what to do.
_REAL_KIND = {"xlsx": "documents.is_excel", "xls": "documents.is_old_excel",
              "pptx": "documents.is_powerpoint", "ppt": "documents.is_old_powerpoint",
              "doc": "documents.is_old_word", "odf": "documents.is_opendocument",
              "zip": "documents.is_zip", "ole": "documents.is_old_office",
              "ole_encrypted": "documents.is_locked_office", "rtf": "documents.is_rtf",
              "picture": "documents.is_picture"}
_ADVICE = {"doc": "documents.advice_docx", "zip": "documents.advice_unzip",
           "picture": "documents.advice_picture", "ole_encrypted": "documents.advice_password"}


def _content_kind(path: Path, kind: str, data: bytes) -> str:
    """The kind to read the file as: its name's, unless its content says otherwise. A PDF
    or Word file with the other's name is read as what it is; any other office file with a
    document's name is refused, saying what it really is and what to do."""
    real = real_kind(data)
    if real is None or real == kind or (kind == "docx" and real in ("ole", "ole_encrypted")):
        return kind                     # an unknown OLE file in a .docx: a locked .docx
    if real in ("pdf", "docx"):
        log.info("%s is a %s file despite its name; read as such", path.name, real)
        return real
    raise UnsupportedDocumentError(
        msg("documents.really_is", name=path.name, what=msg(_REAL_KIND[real]),
            suffix=path.suffix.lower(), advice=msg(_ADVICE.get(real, "documents.advice_pdf"))),
        f"content: {real}; name: {path.suffix.lower()}")


def _checked_size(path: Path, limits: Limits) -> int:
    try:
        stat = path.stat()
    except OSError as error:
        raise DocumentError(msg("documents.cannot_open", name=path.name), str(error)) from error
    if not path.is_file():
        raise DocumentError(msg("documents.is_folder", name=path.name))
    if stat.st_size == 0:
        raise EmptyDocumentError(msg("documents.empty_file", name=path.name))
    if stat.st_size > limits.max_bytes:
        raise DocumentTooLargeError(msg("documents.too_many_bytes", name=path.name,
                                        mb=stat.st_size / 2**20, limit=limits.max_bytes / 2**20),
                                    f"{stat.st_size} bytes")
    return stat.st_size


# ---- PDF ------------------------------------------------------------------------------------

def _read_pdf(data: bytes, limits: Limits, ocr_run: ocr.OcrRun | None) -> dict:
    import pypdfium2 as pdfium  # noqa: PLC0415 - ~40 ms, only for PDF files

    if b"%PDF" not in data[:1024]:
        raise CorruptDocumentError(msg("documents.not_pdf"))
    pdf = _open_pdf(pdfium, data)
    try:
        count = len(pdf)
        if count > limits.max_pages:
            raise DocumentTooLargeError(msg("documents.too_many_pages", n=count,
                                            limit=limits.max_pages), f"{count} pages")
        sections, blank = _pdf_pages(pdf, count, limits)
        recognised = _recognise(pdf, blank, ocr_run)
    finally:
        pdf.close()
    read = {page: text for page, text in recognised.texts.items() if text.strip()}
    sections += [Section(f"page {page}", text, page=page) for page, text in read.items()]
    sections.sort(key=lambda section: section.page or 0)     # every PDF section has a page
    if not sections:
        code = "documents.pictures_unreadable" if recognised.texts else "documents.pictures_only"
        raise NoTextLayerError(msg(code), f"{count} pages without text; OCR "
                               f"{recognised.languages or 'not installed'}")
    return {"sections": tuple(sections), "page_count": count,
            "unreadable_pages": tuple(p for p in blank if p not in read),
            "ocr_pages": tuple(read), "ocr_seconds": round(recognised.seconds, 1)}


def _recognise(pdf, blank: list[int], run: ocr.OcrRun | None) -> ocr.Recognised:
    if not blank or not ocr.available():
        if blank:
            log.info("%d pages without text; text recognition is not installed", len(blank))
        return ocr.Recognised({}, 0.0, "")
    try:
        return ocr.recognise_pages(pdf, blank, run)
    except ocr.OcrStopped:
        raise ReadingStoppedError(msg("documents.ocr_stopped")) from None


def _open_pdf(pdfium, data: bytes):
    try:   # bytes, not a path: PDFium's file API mishandles non-ASCII paths on Windows
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        if getattr(error, "err_code", None) == FPDF_ERR_PASSWORD:
            raise PasswordProtectedError(msg("documents.pdf_password"), str(error)) from error
        raise CorruptDocumentError(msg("documents.pdf_damaged"), str(error)) from error


def _pdf_pages(pdf, count: int, limits: Limits) -> tuple[list[Section], list[int]]:
    sections, blank, chars, started = [], [], 0, time.monotonic()
    for index in range(count):
        text = _page_text(pdf, index)
        if not text.strip():
            blank.append(index + 1)
            continue
        chars += len(text)
        if chars > limits.max_chars or time.monotonic() - started > limits.max_seconds:
            raise DocumentTooLargeError(
                msg("documents.pdf_too_much_text", page=index + 1, pages=count),
                f"{chars} characters, {time.monotonic() - started:.0f} s")
        sections.append(Section(f"page {index + 1}", text, page=index + 1))
    return sections, blank


def _page_text(pdf, index: int) -> str:
    page = pdf[index]
    try:
        textpage = page.get_textpage()
        try:
            return _tidy(textpage.get_text_range())
        finally:
            textpage.close()
    finally:
        page.close()


def _tidy(text: str) -> str:
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x0c", "\n").replace("\ufffe", "")
    return "\n".join(line.rstrip() for line in text.split("\n")).strip()


def section_label(heading: str, longest: int = 40) -> str:
    # Labels travel into every prompt: a 300-character heading would eat the part's room.
    short = heading if len(heading) <= longest else heading[:longest - 1].rstrip() + "…"
    return f"section '{short}'"


# ---- Word -----------------------------------------------------------------------------------

def _read_docx(data: bytes, limits: Limits, _kind: str) -> dict:
    import docx  # noqa: PLC0415 - python-docx (lxml): ~65 ms, only for Word files

    if data.startswith(OLE_MAGIC):
        raise PasswordProtectedError(msg("documents.word_password"))
    _check_zip(data, limits)
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as error:  # python-docx raises several types for damaged packages
        raise CorruptDocumentError(msg("documents.word_damaged"),
                                   f"{type(error).__name__}: {error}") from error
    return {"sections": tuple(_docx_sections(document))}


def _check_zip(data: bytes, limits: Limits) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unzipped = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile as error:
        raise CorruptDocumentError(msg("documents.not_word"), str(error)) from error
    if unzipped > limits.max_unzipped_bytes:
        raise DocumentTooLargeError(msg("documents.word_too_big", mb=unzipped / 2**20),
                                    f"{unzipped} bytes unzipped")


def _docx_sections(document) -> list[Section]:
    sections: list[Section] = []
    body: list[str] = []
    heading = ""

    def close_section():
        text = "\n".join(body).strip()
        if text or heading:
            label = section_label(heading) if heading else "beginning of the document"
            sections.append(Section(label, text if text else heading, heading=heading))

    for block in document.iter_inner_content():
        if hasattr(block, "rows"):        # a table: one line per row, cells split by " | "
            body.extend(_table_lines(block))
        elif _is_heading(block):
            close_section()
            heading, body = block.text.strip(), []
        elif block.text.strip():
            body.append(block.text.strip())
    close_section()
    return sections


def _is_heading(paragraph) -> bool:
    name = (paragraph.style.name if paragraph.style is not None else "") or ""
    return bool(paragraph.text.strip()) and (name.startswith("Heading") or name == "Title")


def _table_lines(table) -> list[str]:
    lines = []
    for row in table.rows:
        cells = list(dict.fromkeys(cell.text.strip() for cell in row.cells))  # merged cells repeat
        if any(cells):
            lines.append(" | ".join(cells))
    return lines


# ---- text and Markdown ----------------------------------------------------------------------

MD_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
LINES_PER_BLOCK = 60


def _read_text(data: bytes, limits: Limits, kind: str) -> dict:
    text, encoding = _decode(data)
    if len(text) > limits.max_chars:
        raise DocumentTooLargeError(msg("documents.text_too_long"), f"{len(text)} characters")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n").split("\n")
    sections = _markdown_sections(lines) if kind == "markdown" else []
    return {"sections": tuple(sections or _line_blocks(lines)), "encoding": encoding,
            "lines": len(lines)}


def _decode(data: bytes) -> tuple[str, str]:
    text, encoding = _detect(data)
    controls = sum(1 for ch in text if ord(ch) < 32 and ch not in "\n\r\t\f")
    if controls > max(8, len(text) // 100):
        raise CorruptDocumentError(msg("documents.not_text"), f"{controls} control characters")
    return text.lstrip("\ufeff"), encoding


WESTERN_MARGIN = 0.1   # charset-normalizer "chaos" a cp1252 reading may exceed the best by


def _detect(data: bytes) -> tuple[str, str]:
    from charset_normalizer import from_bytes  # noqa: PLC0415 - ~12 ms, only for text files

    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    best = from_bytes(data).best()
    if best is None or (_looks_binary(data) and not best.encoding.startswith("utf_")):
        raise CorruptDocumentError(msg("documents.binary"))
    # Short Western texts often read as cp1257/cp775 with equal "chaos"; office files on
    # Windows are far more often cp1252, so it wins when it reads almost as cleanly.
    western = from_bytes(data, cp_isolation=["cp1252"]).best()
    if best.bom or western is None or western.chaos > best.chaos + WESTERN_MARGIN:
        return str(best), best.encoding
    return str(western), "cp1252"


def _looks_binary(data: bytes) -> bool:
    head = data[:65536]
    controls = sum(head.count(bytes([b])) for b in (*range(0, 9), *range(14, 27), *range(28, 32)))
    return controls > len(head) // 100


def _markdown_sections(lines: list[str]) -> list[Section]:
    sections: list[Section] = []
    body: list[str] = []
    heading, start = "", 1
    for number, line in enumerate(lines, start=1):
        match = MD_HEADING.match(line)
        if match:
            _add_text_section(sections, heading, body, start)
            heading, body, start = match.group(2).strip(), [], number
        else:
            body.append(line)
    _add_text_section(sections, heading, body, start)
    return sections if any(s.heading for s in sections) else []


def _add_text_section(sections: list[Section], heading: str, body: list[str], start: int) -> None:
    text = "\n".join(body).strip()
    if heading:
        sections.append(Section(section_label(heading), text or heading, heading=heading))
    elif text:
        sections.extend(_line_blocks(body, first_line=start))


def _line_blocks(lines: list[str], first_line: int = 1) -> list[Section]:
    """Plain text has no structure to name: label blocks of lines ("lines 61-120")."""
    sections = []
    for offset in range(0, len(lines), LINES_PER_BLOCK):
        block = lines[offset:offset + LINES_PER_BLOCK]
        text = "\n".join(line.rstrip() for line in block).strip()
        if text:
            first = first_line + offset
            sections.append(Section(f"lines {first}–{first + len(block) - 1}", text))
    return sections
