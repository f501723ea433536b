"""Colours follow the operating system's light or dark setting (Qt 6.5+ colorScheme).

The platform style already follows the OS; we only add a small style sheet for the
message cards and the fit colours, and re-apply it when the OS setting changes.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parent.parent
STYLES_DIR = ROOT / "resources" / "styles"
# The bundle carries the icon under resources/icons (build.spec); the source tree keeps it
# with the installers, where installer/make_icons.py renders it.
ICON_PATHS = (ROOT / "resources" / "icons" / "rotary.png", ROOT / "installer" / "icons" / "rotary.png")


def window_icon() -> QIcon:
    """Rotary's icon for every window and the task bar; empty if the file is missing."""
    found = next((path for path in ICON_PATHS if path.exists()), None)
    return QIcon(str(found)) if found else QIcon()

# Fit levels: colour plus words (never colour alone), readable in both schemes.
FIT_COLOURS = {"green": ("#1e7b34", "#7ddc8f"), "yellow": ("#8a6100", "#f2c94c"),
               "red": ("#b3261e", "#ff8a80")}


# The gauge's drawings: (light, dark). Rotary's share of graphics memory, other programs'
# share, the empty track, writing speed, conversation memory used, expert hits.
GAUGE_COLOURS = {"model": ("#2b63c6", "#6ea8ff"), "other": ("#9a8f7a", "#8c8372"),
                 "track": ("#e2e5ea", "#3b4047"), "speed": ("#2b63c6", "#6ea8ff"),
                 "speed_fill": ("#b7cdf2", "#2c4a7a"), "context": ("#2e8b57", "#6fd49a"),
                 "hits": ("#8a4fbf", "#c39bef")}


def is_dark() -> bool:
    app = QGuiApplication.instance()
    if app is None:
        return False
    return app.styleHints().colorScheme() == Qt.ColorScheme.Dark


def fit_colour(level: str) -> str:
    light, dark = FIT_COLOURS.get(level, ("#555555", "#bbbbbb"))
    return dark if is_dark() else light


def gauge_colour(name: str) -> QColor:
    light, dark = GAUGE_COLOURS[name]
    return QColor(dark if is_dark() else light)


def apply_theme(app: QApplication) -> None:
    name = "dark.qss" if is_dark() else "light.qss"
    app.setStyleSheet((STYLES_DIR / name).read_text(encoding="utf-8"))


def follow_os_theme(app: QApplication) -> None:
    apply_theme(app)
    app.styleHints().colorSchemeChanged.connect(lambda _scheme: apply_theme(app))
