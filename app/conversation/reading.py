"""How far the model has read the user's message, in words, counted down between the
engine's reports (no Qt).

The engine reports a long prompt's progress a few times a second (``PromptProgress``, with the
time left at the rate measured so far on this computer); on a slow device one micro-batch can
take longer than that, so the line is carried forward from the last report at the same rate
and redrawn every second: the percentage creeps up and the time left goes down.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable

from engine.api import PromptProgress
from app.text.i18n import tr

ALMOST_DONE_S = 1.0        # less than this left: "almost done", not a countdown to zero


@dataclass(frozen=True)
class PromptReading:
    """The last report, and when it arrived (``clock``'s seconds)."""

    event: PromptProgress
    received: float

    def fraction_left(self, now: float) -> tuple[float, float]:
        """(share read, seconds left) carried forward to ``now`` at the measured rate."""
        event, since = self.event, max(0.0, now - self.received)
        if event.seconds_left < 0 or event.elapsed_s <= 0:
            return event.fraction, -1.0
        rate = event.read / event.elapsed_s
        read = min(event.total - 1, event.read + rate * since)
        return read / event.total, max(0.0, event.seconds_left - since)

    def text(self, now: float) -> str:
        return reading_text(*self.fraction_left(now))


def reading_text(fraction: float, seconds_left: float) -> str:
    """"Reading your message… 40% — about 25 s left"."""
    percent = min(99, int(fraction * 100))
    if seconds_left < 0:
        return tr("Reading your message… {percent}%").format(percent=percent)
    if seconds_left < ALMOST_DONE_S:
        return tr("Reading your message… {percent}% — almost done").format(percent=percent)
    if seconds_left < 90:
        return tr("Reading your message… {percent}% — about {seconds} s left").format(
            percent=percent, seconds=math.ceil(seconds_left))
    return tr("Reading your message… {percent}% — about {minutes} min left").format(
        percent=percent, minutes=round(seconds_left / 60))


class ReadingLine:
    """The open answer's reading line: the last report, said again each second."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.reading: PromptReading | None = None
        self.stopped: int | None = None     # its reports until the engine stops say nothing

    def report(self, event: PromptProgress) -> str:
        """The line for this report ("" for an answer being stopped)."""
        if event.request_id == self.stopped:
            return ""
        self.reading = PromptReading(event, self.clock())
        return self.reading.text(self.clock())

    def stop(self, request_id: int) -> None:
        """Stop was pressed: "Stopping…" stays until the engine has stopped."""
        self.stopped, self.reading = request_id, None

    def again(self) -> str:
        """The line now ("" when nothing is being read)."""
        return self.reading.text(self.clock()) if self.reading is not None else ""

    def request_id(self) -> int | None:
        return self.reading.event.request_id if self.reading is not None else None

    def clear(self) -> None:
        self.reading = None
