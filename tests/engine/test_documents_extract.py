"""Ingestion: PDF, DOCX, TXT/Markdown into labelled sections; cache; bad input."""

from __future__ import annotations

import threading
import time
import zlib

import pytest

from engine.documents import ocr
from engine.documents.cache import TextCache
from engine.documents.extract import read_document
from tests.support.document_samples import long_pdf, write_docx, write_pdf, write_scanned_pdf
from engine.documents.types import Limits
from engine.errors import (CorruptDocumentError, DocumentTooLargeError, EmptyDocumentError,
                           NoTextLayerError, PasswordProtectedError, ReadingStoppedError,
                           UnsupportedDocumentError)


@pytest.fixture
def cache(tmp_path):
    return TextCache(tmp_path / "cache")


def test_pdf_pages_become_labelled_sections(tmp_path, cache):
    path = long_pdf(tmp_path / "report.pdf", 5)
    doc = read_document(path, cache=cache)
    assert doc.kind == "pdf" and doc.page_count == 5
    assert [s.label for s in doc.sections] == [f"page {n}" for n in range(1, 6)]
    assert all(s.text.startswith(f"Page {s.page}") for s in doc.sections)
    assert doc.words > 5 * 4 * 50


def test_pdf_pages_without_text_are_listed(tmp_path, cache):
    path = write_pdf(tmp_path / "mixed.pdf", [["one"], ["two"], ["three"]], blank=(2,))
    doc = read_document(path, cache=cache)
    assert doc.unreadable_pages == (2,)
    assert [s.page for s in doc.sections] == [1, 3]


def test_scanned_pdf_is_reported_as_such(tmp_path, cache):
    path = write_pdf(tmp_path / "scan.pdf", [["x"], ["y"]], blank=(1, 2))
    with pytest.raises(NoTextLayerError, match="scanned"):
        read_document(path, cache=cache)


def test_password_pdf_is_explained(tmp_path, cache):
    path = write_pdf(tmp_path / "secret.pdf", [["classified"]], password="s3cret")
    with pytest.raises(PasswordProtectedError, match="password"):
        read_document(path, cache=cache)


def test_docx_headings_paragraphs_and_tables(tmp_path, cache):
    path = write_docx(tmp_path / "plan.docx",
                      [("Budget", ["We spend 40,000 on travel.", "Printers cost 2,000."]),
                       ("Staff", ["Two new hires in March."])],
                      table=[["Item", "Cost"], ["Laptop", "1,200"]])
    doc = read_document(path, cache=cache)
    assert [s.label for s in doc.sections] == ["section 'Budget'", "section 'Staff'"]
    assert "Printers cost 2,000." in doc.sections[0].text
    assert "Laptop | 1,200" in doc.sections[1].text      # the table follows the last heading


@pytest.mark.parametrize("encoding", ["cp1252", "utf-16", "utf-8"])
def test_text_encodings_are_detected(tmp_path, cache, encoding):
    text = ("Le café coûte 3 €; naïve façade, déjà vu. Über Größe und Maße.\n" * 30)
    path = tmp_path / f"notes-{encoding}.txt"
    path.write_bytes(text.encode(encoding))
    doc = read_document(path, cache=cache)
    assert "Le café coûte 3 €" in doc.text and "Größe" in doc.text
    assert doc.sections[0].label.startswith("lines 1–")


def test_markdown_headings_are_sections(tmp_path, cache):
    path = tmp_path / "minutes.md"
    path.write_text("Intro line.\n\n# Budget\nTravel 40k.\n\n## Action items\n- Ana: call IT\n",
                    encoding="utf-8")
    doc = read_document(path, cache=cache)
    assert [s.label for s in doc.sections] == ["lines 1–2", "section 'Budget'",
                                               "section 'Action items'"]
    assert doc.sections[2].text == "- Ana: call IT"


def test_second_read_comes_from_the_cache(tmp_path, cache, monkeypatch):
    path = long_pdf(tmp_path / "cached.pdf", 3)
    first = read_document(path, cache=cache)
    assert not first.from_cache and list(cache.directory.glob("*.json"))
    import engine.documents.extract as extract
    monkeypatch.setattr(extract, "_read_pdf", lambda *a: pytest.fail("extracted again"))
    second = read_document(path, cache=cache)
    assert second.from_cache and second.sections == first.sections


def test_non_ascii_path(tmp_path, cache):
    folder = tmp_path / "Übersicht – 報告"
    folder.mkdir()
    doc = read_document(long_pdf(folder / "Jahresbericht é.pdf", 2), cache=cache)
    assert doc.page_count == 2 and doc.name == "Jahresbericht é.pdf"


# ---- bad input: each a typed error with a plain message ----------------------------------

def test_empty_file(tmp_path, cache):
    (tmp_path / "empty.txt").write_bytes(b"")
    with pytest.raises(EmptyDocumentError, match="empty"):
        read_document(tmp_path / "empty.txt", cache=cache)


def test_whitespace_only_text_is_empty(tmp_path, cache):
    (tmp_path / "blank.md").write_text("\n \n\t\n", encoding="utf-8")
    with pytest.raises(EmptyDocumentError):
        read_document(tmp_path / "blank.md", cache=cache)


@pytest.mark.parametrize("name", ["program.pdf", "program.docx", "program.txt"])
def test_binary_file_with_a_document_extension(tmp_path, cache, name):
    import random
    data = random.Random(1).randbytes(20000)
    (tmp_path / name).write_bytes(data)
    with pytest.raises(CorruptDocumentError):
        read_document(tmp_path / name, cache=cache)


def test_corrupt_pdf(tmp_path, cache):
    data = long_pdf(tmp_path / "ok.pdf", 3).read_bytes()
    (tmp_path / "broken.pdf").write_bytes(data[:200] + b"\x00garbage" * 50)
    with pytest.raises(CorruptDocumentError, match="damaged"):
        read_document(tmp_path / "broken.pdf", cache=cache)


def test_corrupt_docx(tmp_path, cache):
    data = write_docx(tmp_path / "ok.docx", [("A", ["b"])]).read_bytes()
    (tmp_path / "broken.docx").write_bytes(data[: len(data) // 2])
    with pytest.raises(CorruptDocumentError):
        read_document(tmp_path / "broken.docx", cache=cache)


def test_encrypted_docx_is_explained(tmp_path, cache):
    (tmp_path / "locked.docx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 4000)
    with pytest.raises(PasswordProtectedError):
        read_document(tmp_path / "locked.docx", cache=cache)


def test_file_over_the_size_limit_is_refused_before_reading(tmp_path, cache, monkeypatch):
    path = long_pdf(tmp_path / "big.pdf", 2)
    import engine.documents.extract as extract
    monkeypatch.setattr(extract, "file_sha256", lambda *a: pytest.fail("read the file"))
    with pytest.raises(DocumentTooLargeError, match="up to 0 MB"):
        read_document(path, cache=cache, limits=Limits(max_bytes=1000))


def test_unsupported_types(tmp_path, cache):
    (tmp_path / "sheet.xlsx").write_bytes(b"PK")
    (tmp_path / "old.doc").write_bytes(b"x")
    with pytest.raises(UnsupportedDocumentError, match="PDF, Word"):
        read_document(tmp_path / "sheet.xlsx", cache=cache)
    with pytest.raises(UnsupportedDocumentError, match="save it as .docx"):
        read_document(tmp_path / "old.doc", cache=cache)


def test_pdf_bomb_page_count_is_bounded(tmp_path, cache):
    path = write_pdf(tmp_path / "pages.pdf", [["p"]] * 60)
    started = time.monotonic()
    with pytest.raises(DocumentTooLargeError, match="60 pages"):
        read_document(path, cache=cache, limits=Limits(max_pages=50))
    assert time.monotonic() - started < 5


def test_pdf_bomb_decompression_is_bounded(tmp_path, cache):
    """A small file whose page stream inflates to 200 MB: bounded time, a plain message or text."""
    from pypdf import PdfWriter
    from pypdf.generic import NameObject, StreamObject
    writer = PdfWriter()
    page = writer.add_blank_page(612, 792)
    stream = StreamObject()
    stream._data = zlib.compress(b"BT /F1 1 Tf (a) Tj ET\n" + b" " * 200_000_000, 9)
    stream[NameObject("/Filter")] = NameObject("/FlateDecode")
    page[NameObject("/Contents")] = writer._add_object(stream)
    path = tmp_path / "bomb.pdf"
    with open(path, "wb") as handle:
        writer.write(handle)
    assert path.stat().st_size < 1_000_000
    started = time.monotonic()
    try:
        read_document(path, cache=cache)
    except (NoTextLayerError, DocumentTooLargeError, CorruptDocumentError):
        pass
    assert time.monotonic() - started < 30


@pytest.mark.skipif(not ocr.available(), reason="text recognition is not installed")
def test_a_stop_during_text_recognition_is_a_stop_and_nothing_is_cached(tmp_path):
    scan = write_scanned_pdf(tmp_path / "scan.pdf", [["Page one."], ["Page two."]])
    stop = threading.Event()
    seen = []

    def progress(page, pages, _left):          # the user presses Stop while page 1 is read
        seen.append(page)
        stop.set()

    with pytest.raises(ReadingStoppedError):
        read_document(scan, cache=TextCache(tmp_path / "cache"), ocr_run=ocr.OcrRun(stop, progress))
    assert seen == [1]
    assert not list((tmp_path / "cache").rglob("*.json"))       # a stopped read is not kept


def _package(path, *members):
    import zipfile
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        for member in members:
            archive.writestr(member, "<x/>")
    return path


@pytest.mark.parametrize("members, name, said", [
    (("xl/workbook.xml", "xl/worksheets/sheet1.xml"), "budget.docx", "an Excel workbook"),
    (("ppt/presentation.xml",), "slides.docx", "a PowerPoint presentation"),
    (("xl/workbook.xml",), "numbers.txt", "an Excel workbook"),
])
def test_an_office_file_with_another_name_says_what_it_really_is(tmp_path, cache, members,
                                                                 name, said):
    """A spreadsheet renamed .docx was "This Word file is damaged"."""
    path = _package(tmp_path / name, *members)
    with pytest.raises(UnsupportedDocumentError) as raised:
        read_document(path, cache=cache)
    text = raised.value.message
    assert said in text and "save it as PDF" in text and "damaged" not in text


@pytest.mark.parametrize("stream, said", [("Workbook", "an old Excel workbook (.xls)"),
                                           ("WordDocument", "an old Word document (.doc)"),
                                           ("PowerPoint Document", "an old PowerPoint")])
def test_an_old_office_file_with_a_pdf_name_says_what_it_is(tmp_path, cache, stream, said):
    path = tmp_path / "report.pdf"
    path.write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 500
                     + stream.encode("utf-16-le") + b"\0" * 4000)
    with pytest.raises(UnsupportedDocumentError, match=said.replace("(", r"\(").replace(")", r"\)")):
        read_document(path, cache=cache)


def test_a_pdf_or_word_file_with_the_others_name_is_read_as_what_it_is(tmp_path, cache):
    pdf = long_pdf(tmp_path / "real.pdf", 2).read_bytes()
    (tmp_path / "named.docx").write_bytes(pdf)
    assert read_document(tmp_path / "named.docx", cache=cache).kind == "pdf"
    word = write_docx(tmp_path / "real.docx", [("Heading", ["Some text."])]).read_bytes()
    (tmp_path / "named.pdf").write_bytes(word)
    assert read_document(tmp_path / "named.pdf", cache=cache).kind == "docx"
