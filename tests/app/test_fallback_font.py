"""A Devanagari "।" in an answer is drawn with a real glyph, not an empty box, on a computer
with no Devanagari font: Rotary ships one and puts it after the system font."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFontInfo, QFontMetrics, QTextLayout

from app.chat.message_widget import MessageWidget
from app.widgets.fonts import FONTS_DIR, install_fallback_fonts

DANDA = "\u0964"                      # ।
ROOT = Path(__file__).resolve().parents[2]


def _glyphs(text: str, font) -> list[tuple[str, list[int]]]:
    layout = QTextLayout(text, font)
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    return [(run.rawFont().familyName(), list(run.glyphIndexes())) for run in layout.glyphRuns()]


def test_the_answer_font_has_a_glyph_for_the_devanagari_danda(qapp):
    added = install_fallback_fonts(qapp)
    assert "Noto Sans Devanagari" in added
    assert qapp.font().families()[-1] == "Noto Sans Devanagari"
    # Latin text keeps the system's font (an alias first in the list made Qt take ours,
    # taller, for everything: the window outgrew an 800x600 screen)
    assert QFontInfo(qapp.font()).family() != "Noto Sans Devanagari"
    answer = MessageWidget(0, "assistant", f"नमस्ते{DANDA} Hello.")
    font = answer.body.document().defaultFont()
    assert "Noto Sans Devanagari" in font.families()
    assert QFontMetrics(font).inFontUcs4(ord(DANDA))
    runs = _glyphs(DANDA, font)
    assert runs and all(0 not in glyphs for _, glyphs in runs), runs   # 0: the empty box
    assert install_fallback_fonts(qapp) == added        # once: not registered twice
    answer.deleteLater()


def test_the_bundle_ships_the_font_and_its_licence():
    assert (FONTS_DIR / "NotoSansDevanagari-Regular.ttf").is_file()
    assert "Open Font License" in (FONTS_DIR / "OFL.txt").read_text(encoding="utf-8")
    assert '"resources" / "fonts"' in (ROOT / "build.spec").read_text(encoding="utf-8")
