"""Sample documents written at run time for tests and benchmarks (never downloaded).

PDFs are written with pypdf's object model: one Helvetica text page per entry, the
smallest valid text layer (reportlab/fpdf2 would be a dependency for tests only).
"""

from __future__ import annotations

import os
import pathlib
from typing import Sequence

WORDS = ("budget staff travel office printer contract meeting report invoice supplier "
         "training holiday schedule review project deadline customer payment policy").split()


def filler_paragraph(seed: int, words: int = 60) -> str:
    """Deterministic prose-like filler: same seed, same text."""
    picked = [WORDS[(seed * 7 + i * 13 + i * i) % len(WORDS)] for i in range(words)]
    return (" ".join(picked)).capitalize() + "."


def write_pdf(path: str | os.PathLike, pages: Sequence[Sequence[str]], *,
              password: str | None = None, blank: Sequence[int] = ()) -> pathlib.Path:
    """``pages[i]`` is the list of text lines of page i+1; pages in ``blank`` (1-based) get
    no text layer, as a scanned page would."""
    from pypdf import PdfWriter
    from pypdf.generic import (DecodedStreamObject, DictionaryObject, NameObject)

    writer = PdfWriter()
    font = writer._add_object(DictionaryObject({  # pypdf has no public helper
        NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
        NameObject("/BaseFont"): NameObject("/Helvetica"),
        NameObject("/Encoding"): NameObject("/WinAnsiEncoding")}))
    for number, lines in enumerate(pages, start=1):
        page = writer.add_blank_page(width=612, height=792)
        if number in blank:
            continue
        stream = DecodedStreamObject()
        stream.set_data(_text_operators(lines))
        page[NameObject("/Contents")] = writer._add_object(stream)
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject(
            {NameObject("/F1"): font})})
    if password is not None:
        writer.encrypt(user_password=password, owner_password=password, algorithm="RC4-128")
    path = pathlib.Path(path)
    with open(path, "wb") as handle:
        writer.write(handle)
    return path


def _text_operators(lines: Sequence[str]) -> bytes:
    ops = ["BT", "/F1 11 Tf", "14 TL", "56 740 Td"]
    for line in lines:
        escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        ops.append(f"({escaped}) Tj T*")
    ops.append("ET")
    return "\n".join(ops).encode("cp1252", errors="replace")


def wrap(text: str, width: int = 90) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + ([line] if line else [])


def long_pdf(path: str | os.PathLike, n_pages: int, paragraphs_per_page: int = 4,
             **kwargs) -> pathlib.Path:
    """A text PDF of ``n_pages`` pages; page N starts with the line "Page N"."""
    pages = []
    for number in range(1, n_pages + 1):
        lines = [f"Page {number}"]
        for p in range(paragraphs_per_page):
            lines += wrap(filler_paragraph(number * 31 + p))
        pages.append(lines)
    return write_pdf(path, pages, **kwargs)


def write_docx(path: str | os.PathLike, sections: Sequence[tuple[str, Sequence[str]]],
               table: Sequence[Sequence[str]] | None = None) -> pathlib.Path:
    """Headings with paragraphs under each; an optional table after the last section."""
    import docx

    document = docx.Document()
    for heading, paragraphs in sections:
        document.add_heading(heading, level=1)
        for text in paragraphs:
            document.add_paragraph(text)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, value in enumerate(row):
                grid.cell(r, c).text = value
    path = pathlib.Path(path)
    document.save(str(path))
    return path


CJK_FONTS = ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
             "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
             "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
             "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
             "C:/Windows/Fonts/malgun.ttf", "/System/Library/Fonts/PingFang.ttc")


def cjk_font() -> str | None:
    """A font with Hangul and Han on this machine, to draw Korean or Chinese test pages
    (``apt install fonts-wqy-microhei``); None where there is none."""
    return next((path for path in CJK_FONTS if pathlib.Path(path).is_file()), None)


def render_page(lines: Sequence[str], font_path: str | None = None, size: int = 32):
    """A letter page at 200 dpi with ``lines`` drawn on it, as a scanner would give it."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(font_path, size) if font_path else ImageFont.load_default(size=size)
    image = Image.new("L", (1700, 2200), 255)
    draw = ImageDraw.Draw(image)
    for number, line in enumerate(lines):
        draw.text((150, 200 + number * 60), line, font=font, fill=0)
    return image


def write_scanned_pdf(path: str | os.PathLike, pages: Sequence[Sequence[str]],
                      font_path: str | None = None) -> pathlib.Path:
    """A PDF whose pages are pictures of text (no text layer), like a scan."""
    images = [render_page(lines, font_path) for lines in pages]
    path = pathlib.Path(path)
    images[0].save(path, "PDF", save_all=True, append_images=images[1:], resolution=200.0)
    return path
