"""Fonts Rotary ships for scripts a computer may have no font for.

An answer in Hindi or Marathi (or a Devanagari "।" in any answer) showed empty boxes on a
Linux desktop without Devanagari fonts. The bundle carries Noto Sans Devanagari
(resources/fonts, SIL Open Font License); it is registered with Qt at start and named after
the system font (the family it resolves to) in the application font's families, so Qt falls
back to it for any character the system font lacks (fontconfig would find a registered font on Linux by itself; the
families list makes it the first choice on every platform).
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtGui import QFontDatabase, QFontInfo
from PySide6.QtWidgets import QApplication

log = logging.getLogger("rotary.fonts")


FONTS_DIR = Path(__file__).resolve().parents[2] / "resources" / "fonts"   # build.spec ships it


def install_fallback_fonts(app: QApplication) -> list[str]:
    """Register the shipped fonts (once) and put their families after the system font's;
    returns the families added."""
    added = app.property("rotary_fallback_families")
    if added is None:
        added = []
        for path in sorted(FONTS_DIR.glob("*.ttf")):
            font_id = QFontDatabase.addApplicationFont(str(path))
            if font_id < 0:
                log.warning("could not load the font %s", path)
                continue
            added += [f for f in QFontDatabase.applicationFontFamilies(font_id) if f not in added]
        app.setProperty("rotary_fallback_families", added)
    font = app.font()
    families = font.families() or [font.family()]
    missing = [family for family in added if family not in families]
    if missing:
        # The family the system font resolves to goes first: an alias such as "Sans Serif"
        # is no family of Qt's database, and Qt would take the next one in the list (ours,
        # taller) for every character.
        resolved = QFontInfo(font).family()
        font.setFamilies([*dict.fromkeys([resolved, *families]), *missing])
        app.setFont(font)
    return list(added)
