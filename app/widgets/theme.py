"""Rotary's look: one palette per colour scheme, one style sheet, following the OS.

Every colour the app shows comes from ``LIGHT`` or ``DARK`` here: the Qt palette (so
native parts such as text boxes and lists match), the style sheet template
``resources/styles/rotary.qss`` (its ``$names`` are filled from the palette and from
type sizes relative to the system font) and the drawings (gauge, fit colours, code
blocks). Widgets name themselves (object names, class names) and never hold a colour.

The OS's light or dark setting is Qt's ``QStyleHints.colorScheme`` (Qt 6.5+); the theme
is applied again when it changes. The platform's own style draws the widgets, in these
colours (the palette) and the style sheet's shapes.
"""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from string import Template

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[2]
STYLES_DIR = ROOT / "resources" / "styles"
STYLE_SHEET = STYLES_DIR / "rotary.qss"
# The bundle carries the icon under resources/icons (build.spec); the source tree keeps it
# with the installers, where installer/make_icons.py renders it.
ICON_PATHS = (ROOT / "resources" / "icons" / "rotary.png", ROOT / "installer" / "icons" / "rotary.png")


def window_icon() -> QIcon:
    """Rotary's icon for every window and the task bar; empty if the file is missing."""
    found = next((path for path in ICON_PATHS if path.exists()), None)
    return QIcon(str(found)) if found else QIcon()


@dataclass(frozen=True)
class Palette:
    """The colours of one scheme. Text colours keep at least 4.5:1 against their
    backgrounds (WCAG AA), muted text included."""

    name: str
    window: str          # side columns, menu and status bars
    surface: str         # the conversation, text boxes, cards
    raised: str          # the gauge's cards
    text: str
    muted: str           # secondary text: speaker names, notes, status lines
    border: str
    hover: str           # a quiet button or list row under the mouse
    selection: str       # the open conversation in the list
    bubble: str          # the user's messages
    accent: str          # the one primary action (Send) and keyboard focus
    accent_hover: str
    on_accent: str       # text on the accent
    focus: str
    danger: str          # Stop
    code: str            # code blocks in answers
    scrollbar: str
    error_bg: str
    error_line: str
    warning_bg: str
    warning_line: str
    info_bg: str
    info_line: str
    # fit levels (never colour alone: words too)
    fit_green: str
    fit_yellow: str
    fit_red: str
    # the gauge: Rotary's share of graphics memory, other programs' share, the empty
    # track, writing speed and the area under it, conversation memory, expert hits
    gauge_model: str
    gauge_other: str
    gauge_track: str
    gauge_speed: str
    gauge_speed_fill: str
    gauge_context: str
    gauge_hits: str


LIGHT = Palette(
    name="light", window="#f3f4f6", surface="#ffffff", raised="#ffffff", text="#1f2329",
    muted="#5b616b", border="#d9dce1", hover="#e7e9ed", selection="#dce6f9", bubble="#e9eff9",
    accent="#2b5fd0", accent_hover="#234fae", on_accent="#ffffff", focus="#2b5fd0",
    danger="#b3261e", code="#f1f2f4", scrollbar="#c3c7ce",
    error_bg="#fdecea", error_line="#b3261e", warning_bg="#fff4d6", warning_line="#8a6100",
    info_bg="#e8f1fd", info_line="#2f5fa7",
    fit_green="#1e7b34", fit_yellow="#8a6100", fit_red="#b3261e",
    gauge_model="#2b63c6", gauge_other="#9a8f7a", gauge_track="#e2e5ea",
    gauge_speed="#2b63c6", gauge_speed_fill="#b7cdf2", gauge_context="#2e8b57",
    gauge_hits="#8a4fbf")

DARK = Palette(
    name="dark", window="#18191c", surface="#212226", raised="#26282c", text="#e7e8eb",
    muted="#a5abb5", border="#3a3d43", hover="#2f3237", selection="#2c3b57", bubble="#2d3646",
    accent="#3d6fd9", accent_hover="#5282e6", on_accent="#ffffff", focus="#8ab4f8",
    danger="#ff8a80", code="#2b2d31", scrollbar="#4a4e55",
    error_bg="#4a1c19", error_line="#ff8a80", warning_bg="#4a3b10", warning_line="#f2c94c",
    info_bg="#1c2c44", info_line="#8ab4f8",
    fit_green="#7ddc8f", fit_yellow="#f2c94c", fit_red="#ff8a80",
    gauge_model="#6ea8ff", gauge_other="#8c8372", gauge_track="#3b4047",
    gauge_speed="#6ea8ff", gauge_speed_fill="#2c4a7a", gauge_context="#6fd49a",
    gauge_hits="#c39bef")


def system_scheme() -> Qt.ColorScheme:
    """What the OS says: light, dark or unknown (unknown is drawn light)."""
    app = QGuiApplication.instance()
    return app.styleHints().colorScheme() if isinstance(app, QGuiApplication) \
        else Qt.ColorScheme.Unknown


def is_dark() -> bool:
    return system_scheme() == Qt.ColorScheme.Dark


def palette(dark: bool | None = None) -> Palette:
    return DARK if (is_dark() if dark is None else dark) else LIGHT


def fit_colour(level: str) -> str:
    return getattr(palette(), f"fit_{level}", palette().muted)


def gauge_colour(name: str) -> QColor:
    return QColor(getattr(palette(), f"gauge_{name}"))


def code_background(dark: bool) -> str:
    return palette(dark).code


def qt_palette(colours: Palette) -> QPalette:
    """The same colours for the parts Qt draws itself (Fusion reads the palette)."""
    result = QPalette()
    roles = QPalette.ColorRole
    for role, value in ((roles.Window, colours.window), (roles.WindowText, colours.text),
                        (roles.Base, colours.surface), (roles.AlternateBase, colours.window),
                        (roles.Text, colours.text), (roles.Button, colours.surface),
                        (roles.ButtonText, colours.text), (roles.BrightText, colours.on_accent),
                        (roles.Highlight, colours.accent),
                        (roles.HighlightedText, colours.on_accent),
                        (roles.ToolTipBase, colours.surface), (roles.ToolTipText, colours.text),
                        (roles.PlaceholderText, colours.muted), (roles.Link, colours.accent),
                        (roles.Light, colours.surface), (roles.Midlight, colours.hover),
                        (roles.Mid, colours.border), (roles.Dark, colours.scrollbar),
                        (roles.Shadow, colours.scrollbar)):
        result.setColor(role, QColor(value))
    disabled = QPalette.ColorGroup.Disabled
    for role in (roles.WindowText, roles.Text, roles.ButtonText):
        result.setColor(disabled, role, QColor(colours.muted))
    return result


def style_sheet(colours: Palette, base_pt: float) -> str:
    """rotary.qss with the palette's colours and type sizes relative to the system's
    font (a user's larger system font makes everything larger)."""
    sizes = {"small_pt": f"{max(7.0, base_pt - 1):.1f}pt", "body_pt": f"{base_pt + 1:.1f}pt",
             "title_pt": f"{base_pt + 2:.1f}pt", "hint_pt": f"{base_pt + 3:.1f}pt"}
    template = Template(STYLE_SHEET.read_text(encoding="utf-8"))
    return template.substitute(asdict(colours), **sizes)


def apply_theme(app: QApplication) -> None:
    """Set the palette and style sheet, only when they change: setting them repolishes every
    widget the application has."""
    colours = palette()
    sheet = style_sheet(colours, _system_point_size(app))
    if app.property("rotary_theme") == sheet:
        return
    app.setProperty("rotary_theme", sheet)
    app.setPalette(qt_palette(colours))
    app.setStyleSheet(sheet)


def _system_point_size(app: QApplication) -> float:
    """The system font's size, remembered before we ever restyle (the style sheet never
    sets the application font, but a font from a platform theme may come without points)."""
    size = app.property("rotary_system_pt")
    if size is None:
        size = app.font().pointSizeF()
        size = size if size > 0 else 10.0
        app.setProperty("rotary_system_pt", size)
    return float(size)


def follow_os_theme(app: QApplication) -> None:
    """Apply the theme now and whenever the OS switches between light and dark."""
    apply_theme(app)
    if not app.property("rotary_follows_os_theme"):     # once, however many windows
        app.setProperty("rotary_follows_os_theme", True)
        app.styleHints().colorSchemeChanged.connect(lambda _scheme: apply_theme(app))


def set_taskbar_identity(app: QApplication) -> None:
    """The icon in the window's corner and in the task bar. Linux desktops match the
    window to rotary.desktop by this name (installer/linux); on Windows an app id of our
    own keeps the task bar from grouping a run from source under python.exe's icon (the
    bundle's Rotary.exe carries the icon itself, and its pinned shortcut must still match)."""
    app.setWindowIcon(window_icon())
    QGuiApplication.setDesktopFileName("rotary")
    if sys.platform == "win32" and not getattr(sys, "frozen", False):
        import ctypes  # noqa: PLC0415 - Windows only
        ctypes.windll.shell32.SetCurrentProcessExplicitAppUserModelID("Rotary.Rotary")
