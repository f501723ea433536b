"""What a file really is, from its first bytes and (for a ZIP) its member names.

A file's name can lie (a spreadsheet renamed .docx is not "a damaged Word file"), so the
common office formats are told apart by their content: Office Open XML packages by their
top folder (word/, xl/, ppt/), OpenDocument by its ``mimetype`` member, the old binary
Office formats (an OLE compound file) by their main stream's name, PDF by its marker.
A small table of signatures rather than a library: python-magic needs libmagic, which the
Windows bundle does not have, and only these few formats matter here.
"""

from __future__ import annotations

import io
import zipfile

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
# The main stream of each old Office format, as its name is written in the OLE directory.
_OLE_STREAMS = (("ole_encrypted", "EncryptedPackage"), ("doc", "WordDocument"),
                ("xls", "Workbook"), ("xls", "Book"), ("ppt", "PowerPoint Document"))
_ZIP_FOLDERS = (("docx", "word/"), ("xlsx", "xl/"), ("pptx", "ppt/"))
_PICTURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"II*\x00",
             b"MM\x00*")


def real_kind(data: bytes) -> str | None:
    """"pdf", "docx", "xlsx", "pptx", "odf", "zip", "doc", "xls", "ppt", "ole_encrypted",
    "ole", "rtf", "picture", or None when the content says nothing (text, or unknown)."""
    if b"%PDF" in data[:1024]:
        return "pdf"
    if data.startswith(b"PK\x03\x04"):
        return _zip_kind(data)
    if data.startswith(OLE_MAGIC):
        return _ole_kind(data)
    if data.startswith(b"{\\rtf"):
        return "rtf"
    if data.startswith(_PICTURES):
        return "picture"
    return None


def _zip_kind(data: bytes) -> str | None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
            if "mimetype" in names and b"opendocument" in archive.read("mimetype")[:100]:
                return "odf"
    except (zipfile.BadZipFile, KeyError, OSError):
        return None             # a damaged package: the reader of its name says so
    for kind, folder in _ZIP_FOLDERS:
        if any(name.startswith(folder) for name in names):
            return kind
    return "zip"


def _ole_kind(data: bytes) -> str:
    for kind, stream in _OLE_STREAMS:
        if stream.encode("utf-16-le") in data:
            return kind
    return "ole"
