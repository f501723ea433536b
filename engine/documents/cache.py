"""Extracted text cached by the file's SHA-256 under the app's data folder (never uploaded)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
from pathlib import Path

import platformdirs

from engine.documents.types import Document, Section

log = logging.getLogger("rotary.documents")
CACHE_VERSION = 2          # bump when extraction changes what it produces (2: OCR, lines)


def default_cache_dir() -> Path:
    # Same rule as app/settings/paths.py (ROTARY_HOME for tests and portable installs); the engine
    # may not import the app, so the two lines are repeated here.
    home = os.environ.get("ROTARY_HOME")
    root = Path(home) / "data" if home else Path(platformdirs.user_data_dir("Rotary", appauthor=False))
    return root / "documents"


def file_sha256(path: str | os.PathLike, chunk: int = 1 << 20) -> tuple[str, bytes]:
    """Hash and contents in one read (the size limit was checked before)."""
    digest, parts = hashlib.sha256(), []
    with open(path, "rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
            parts.append(block)
    return digest.hexdigest(), b"".join(parts)


class TextCache:
    def __init__(self, directory: str | os.PathLike | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_cache_dir()

    def _file(self, sha256: str) -> Path:
        return self.directory / f"{sha256}.json"

    def get(self, sha256: str, path: str) -> Document | None:
        try:
            data = json.loads(self._file(sha256).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if data.get("version") != CACHE_VERSION:
            return None
        try:
            sections = tuple(Section(**s) for s in data["sections"])
            return Document(path=path, name=Path(path).name, kind=data["kind"], sha256=sha256,
                            sections=sections, page_count=data["page_count"],
                            unreadable_pages=tuple(data["unreadable_pages"]),
                            encoding=data["encoding"], lines=data["lines"],
                            ocr_pages=tuple(data["ocr_pages"]), ocr_seconds=data["ocr_seconds"],
                            from_cache=True)
        except (KeyError, TypeError):
            log.warning("ignoring a damaged document cache entry %s", sha256)
            return None

    def put(self, document: Document) -> None:
        data = {"version": CACHE_VERSION, "kind": document.kind, "page_count": document.page_count,
                "unreadable_pages": list(document.unreadable_pages), "encoding": document.encoding,
                "lines": document.lines, "ocr_pages": list(document.ocr_pages),
                "ocr_seconds": document.ocr_seconds,
                "sections": [dataclasses.asdict(s) for s in document.sections]}
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            partial = self._file(document.sha256).with_suffix(".partial")
            partial.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
            partial.replace(self._file(document.sha256))
        except OSError:   # a read-only data folder only costs the next read its speed
            log.warning("could not cache document text in %s", self.directory, exc_info=True)
