"""Screen reader announcements.

Qt 6.8+ has ``QAccessibleAnnouncementEvent`` with a politeness
setting; it maps to ARIA live regions / UIA notifications / AT-SPI announcements.
A streamed answer is announced politely in whole sentences, at most every couple of
seconds, so a screen reader is not interrupted on every token.
"""

from __future__ import annotations

import re
import time

from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent
from PySide6.QtWidgets import QWidget

_SENTENCE_END = re.compile(r"[.!?。！？\n](?=\s|$)")


def announce(widget: QWidget, text: str, polite: bool = True) -> None:
    if not text.strip():
        return
    event = QAccessibleAnnouncementEvent(widget, text.strip())
    event.setPoliteness(QAccessible.AnnouncementPoliteness.Polite if polite
                        else QAccessible.AnnouncementPoliteness.Assertive)
    QAccessible.updateAccessibility(event)


class StreamAnnouncer:
    """Collects streamed text and announces finished sentences politely."""

    def __init__(self, widget: QWidget, min_interval: float = 2.0) -> None:
        self.widget, self.min_interval = widget, min_interval
        self.pending = ""
        self.last_time = 0.0
        self.sent: list[str] = []        # what was announced (tests and debugging)

    def reset(self) -> None:
        self.pending, self.last_time = "", time.monotonic()

    def add(self, piece: str) -> None:
        self.pending += piece
        if time.monotonic() - self.last_time < self.min_interval:
            return
        ends = [m.end() for m in _SENTENCE_END.finditer(self.pending)]
        if ends:
            self._say(self.pending[:ends[-1]])
            self.pending = self.pending[ends[-1]:]

    def finish(self, closing: str) -> None:
        self._say((self.pending + " " + closing).strip())
        self.pending = ""

    def _say(self, text: str) -> None:
        self.last_time = time.monotonic()
        if text.strip():
            self.sent.append(text.strip())
            announce(self.widget, text)
