"""Render installer/icons/rotary.svg to the PNG (Linux, window) and ICO (Windows) icons.

Run after changing the SVG; the outputs are committed so that a Windows build machine
needs nothing but the spec.  python installer/make_icons.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parent / "icons"


def render(size: int) -> QImage:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    QSvgRenderer(str(ICONS / "rotary.svg")).render(painter)
    painter.end()
    return image


def main() -> int:
    app = QGuiApplication(sys.argv[:1])  # noqa: F841 - QPainter needs an application
    ok = render(256).save(str(ICONS / "rotary.png"), "PNG")
    ok &= render(256).save(str(ICONS / "rotary.ico"), "ICO")   # Qt's qico image plugin
    print("icons written" if ok else "writing icons failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
