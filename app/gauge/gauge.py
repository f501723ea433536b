"""The live gauge: pictures to glance at, with the exact numbers in tooltips.

``GaugeWidget`` draws what ``GaugeModel`` (app.gauge.gauge_model) measured, in the sentences of
app.gauge.gauge_text: graphics memory as a bar (Rotary's share / other programs / free), writing
speed as a line over the last minute, the conversation memory as a filling bar, and the
share of this answer's expert work done from the slot cache on the graphics card, only
when the engine reports one (StepRecord.expert_hit_rate). It repaints at most four times
a second, however fast tokens arrive. Every section is reached from the keyboard
(Ctrl+Shift+G, then the arrow keys) and reads its numbers to screen readers.
"""

from __future__ import annotations

import time
from typing import Protocol

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import (QFocusEvent, QKeyEvent, QPainter, QPainterPath, QPaintEvent, QPen,
                           QPolygonF)
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget

from engine.api import ModelLoaded, ServerModelLoaded, StepRecord, next_request_id
from engine.errors import ServerError, ServerUnreachableError
from app.gauge import gauge_text
from app.bridge.facade import VramReading, words_per_token
from app.gauge.gauge_model import SPEED_MIN_SPAN_S, SPEED_STALL_S, SPEED_WINDOW_S, GaugeModel
from app.text.i18n import tr
from app.text.messages import say
from app.widgets.theme import gauge_colour

REFRESH_MS = 250


class FollowedAnswer(Protocol):
    """An answer the gauge follows (app.session.events.AnswerStarted): its request's id."""

    @property
    def request_id(self) -> int: ...


# ---- drawings ------------------------------------------------------------------------------

class Meter(QWidget):
    """A horizontal bar of coloured parts over a track; parts are (fraction, colour name)."""

    HEIGHT = 14

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.parts: list[tuple[float, str]] = []
        self.setFixedHeight(self.HEIGHT)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def set_parts(self, parts: list[tuple[float, str]]) -> None:
        if parts != self.parts:
            self.parts = list(parts)
            self.update()

    def part_rects(self) -> list[tuple[QRectF, str]]:
        """Where each part is drawn (tests check the pixels there)."""
        rects, x, width = [], 0.0, float(self.width())
        for fraction, colour in self.parts:
            w = max(0.0, min(1.0, fraction)) * width
            if w >= 0.5:
                rects.append((QRectF(x, 0, min(w, width - x), self.height()), colour))
            x += w
        return rects

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), gauge_colour("track"))
        for rect, colour in self.part_rects():
            painter.fillRect(rect, gauge_colour(colour))
        painter.end()


class LayerStrip(QWidget):
    """One thin column per cached layer, filled to the share answered from the graphics
    card: a layer that misses often stands out at a glance."""

    HEIGHT = 22

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.shares: list[float] = []
        self.setFixedHeight(self.HEIGHT)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def set_shares(self, shares: list[float]) -> None:
        if shares != self.shares:
            self.shares = list(shares)
            self.update()

    def column_rects(self) -> list[tuple[QRectF, QRectF]]:
        """(track, fill) of each layer's column (tests check the pixels there)."""
        if not self.shares:
            return []
        step = self.width() / len(self.shares)
        gap = 1.0 if step >= 3 else 0.0
        rects = []
        for i, share in enumerate(self.shares):
            track = QRectF(i * step, 0, max(1.0, step - gap), self.height())
            fill_height = max(0.0, min(1.0, share)) * self.height()
            fill = QRectF(track.x(), self.height() - fill_height, track.width(), fill_height)
            rects.append((track, fill))
        return rects

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        for track, fill in self.column_rects():
            painter.fillRect(track, gauge_colour("track"))
            if fill.height() >= 0.5:
                painter.fillRect(fill, gauge_colour("hits"))
        painter.end()


class SpeedChart(QWidget):
    """Writing speed over the last minute (at least the last 10 s across the width): newest
    on the right, scaled to the fastest."""

    HEIGHT = 44

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.points: list[tuple[float, float]] = []     # (seconds ago, tokens/s)
        self.span = SPEED_MIN_SPAN_S                      # seconds across the width
        self.setFixedHeight(self.HEIGHT)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def set_samples(self, samples: list[tuple[float, float]], now: float) -> None:
        self.points = [(now - t, v) for t, v in samples]
        oldest = self.points[0][0] if self.points else 0.0
        self.span = min(SPEED_WINDOW_S, max(SPEED_MIN_SPAN_S, oldest))
        self.update()

    def _line(self) -> list[QPointF]:
        """The samples as points: newest at the right edge, the fastest near the top."""
        top = max((v for _, v in self.points), default=0.0) * 1.2 or 1.0
        w, h = self.width() - 1, self.height() - 2
        return [QPointF(w * (1 - ago / self.span), 1 + h * (1 - v / top))
                for ago, v in self.points]

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), gauge_colour("track"))
        if len(self.points) >= 2:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            line = self._line()
            area = QPainterPath()
            area.moveTo(line[0].x(), self.height())
            for point in line:
                area.lineTo(point)
            area.lineTo(line[-1].x(), self.height())
            painter.fillPath(area, gauge_colour("speed_fill"))
            painter.setPen(QPen(gauge_colour("speed"), 2))
            painter.drawPolyline(QPolygonF(line))
        painter.end()


class GaugeSection(QFrame):
    """A caption, a drawing and a small note; focused (Ctrl+Shift+G, a click, the arrow
    keys from the next section) it shows a visible frame, and a screen reader hears the
    caption and the exact numbers. Tab passes it by: it is text to read, not a control."""

    def __init__(self, drawing: QWidget | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.caption, self.note = QLabel(), QLabel()
        self._texts: tuple[str, str, str] | None = None
        self.drawing = drawing
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(3)
        for part in (self.caption, drawing, self.note):
            if part is None:
                continue
            if isinstance(part, QLabel):
                part.setWordWrap(True)
                part.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            layout.addWidget(part)
        self.caption.setObjectName("gauge_caption")
        self.note.setObjectName("gauge_note")

    def show_texts(self, caption: str, note: str, details: str) -> None:
        """``note`` may be rich text (a colour legend); screen readers get ``details``.
        Unchanged texts are not set again, so a screen reader hears no repeated changes."""
        if (caption, note, details) == self._texts:
            return
        self._texts = (caption, note, details)
        self.caption.setText(caption)
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self.setAccessibleName(caption)
        plain_note = "" if note.startswith("<") else note
        self.setAccessibleDescription(" ".join(t for t in (plain_note, details) if t))
        self.setToolTip(details)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Up and Down move between the visible sections of the gauge."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space) and \
                "href=" in self.note.text():     # "Details" without a Tab stop of its own
            self.note.linkActivated.emit("details")
            return
        steps: dict[int, int] = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1}
        step = steps.get(event.key())
        parent = self.parentWidget()
        siblings = [s for s in parent.findChildren(GaugeSection)
                    if s.isVisible()] if parent is not None else []
        if step is None or self not in siblings:
            super().keyPressEvent(event)
            return
        index = siblings.index(self) + step
        if 0 <= index < len(siblings):
            siblings[index].setFocus(Qt.FocusReason.OtherFocusReason)

    def focusInEvent(self, event: QFocusEvent) -> None:
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self.hasFocus():        # a clear frame, not a thin text cursor
            painter = QPainter(self)
            painter.setPen(QPen(self.palette().highlight().color(), 2))
            painter.drawRoundedRect(QRectF(self.rect()).adjusted(1, 1, -1, -1), 4, 4)
            painter.end()


class GaugeWidget(QFrame):
    MIN_WIDTH, MAX_WIDTH = 170, 280     # never wide enough to squeeze the chat

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(tr("How the model is running"))
        self.model = GaugeModel(words_per_token=words_per_token())
        self._dirty = False
        self.vram_bar, self.context_bar, self.hit_bar = Meter(), Meter(), Meter()
        self.layer_strip = LayerStrip()
        self.chart = SpeedChart()
        self.sections = {"vram": GaugeSection(self.vram_bar), "ram": GaugeSection(),
                         "speed": GaugeSection(self.chart),
                         "context": GaugeSection(self.context_bar),
                         "hits": GaugeSection(_stacked(self.hit_bar, self.layer_strip))}
        self.hit_details_shown = False
        self.sections["hits"].note.linkActivated.connect(self.toggle_hit_details)
        self.setMinimumWidth(self.MIN_WIDTH)
        self.setMaximumWidth(self.MAX_WIDTH)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        title = QLabel(tr("How it is running"))
        title.setObjectName("gauge_title")
        layout.addWidget(title)
        for section in self.sections.values():
            layout.addWidget(section)
        layout.addStretch(1)
        self.timer = QTimer(self, interval=REFRESH_MS)
        self.timer.timeout.connect(self._tick)
        self.timer.start()
        self.refresh()

    # ---- inputs (wired to the bridge and the chat in app.application / app.wiring) -------

    def set_has_gpu(self, has_gpu: bool) -> None:
        self.model.has_gpu = has_gpu
        self._dirty = True

    def on_vram(self, sample: VramReading | None) -> None:
        self.model.on_vram(sample)
        self._dirty = True

    def on_ram(self, held_bytes: int | None) -> None:
        self.model.ram_bytes = held_bytes
        self._dirty = True

    def on_stats(self, step: StepRecord) -> None:
        if self.model.on_step(step):
            self._dirty = True

    def on_conversation_context(self, context: tuple[int, int] | None) -> None:
        """(tokens the open conversation takes, context size) after its latest answer, as
        the engine counted them (app.conversation.window), or None: not known yet. The
        steps of an answer show the memory it fills while it writes; this is what is left
        for the conversation once it is written (its thinking is not sent again)."""
        if context is not None and int(context[1]) == self.model.context_size:
            self.model.context_used = min(int(context[0]), self.model.context_size)
        self.refresh()

    def on_model_loaded(self, event: ModelLoaded | ServerModelLoaded) -> None:
        self.model.context_size = int(event.context_size)
        self.model.on_server = isinstance(event, ServerModelLoaded)
        placement = getattr(event, "placement", None)
        if placement is not None:        # what the loaded model placed, not what was planned
            self.model.has_gpu = placement.gpu is not None
            self.model.processor_note = say(placement.message) if placement.gpu is None else ""
            self.model.placed_note = say(placement.message) if placement.gpu is not None else ""
        self.model.server_problem = ""
        self._dirty = True

    def on_load_failed(self, error: BaseException) -> None:
        """A load on the office server failed: the side panel says so, not "No graphics
        card" (the computer's own card has nothing to do with it)."""
        self.model.server_problem = "unreachable" if isinstance(error, ServerUnreachableError) \
            else "failed" if isinstance(error, ServerError) else ""
        self.refresh()

    def on_model_unloaded(self) -> None:
        self.reset_model()

    def reset_model(self, *_args: object) -> None:
        self.model.reset_model(_newest_request_id())
        self.refresh()

    def reset_conversation(self, *_args: object) -> None:
        self.model.reset_conversation(_newest_request_id())
        self.refresh()

    def follow(self, answer: FollowedAnswer | None) -> None:
        """``answer`` (app.session.events.AnswerStarted) streams into the open conversation,
        perhaps again after its conversation was reopened: its steps count."""
        if answer is not None:
            self.model.request_floor = min(self.model.request_floor, answer.request_id - 1)

    # ---- drawing --------------------------------------------------------------------------

    def _tick(self) -> None:
        # The chart moves left as time passes, so it repaints while it holds points.
        last = self.model.last_step_at
        if self._dirty or (last is not None and time.monotonic() - last
                           < SPEED_STALL_S + 2 * REFRESH_MS / 1000):
            self.refresh()

    def refresh(self) -> None:
        self._dirty = False
        model = self.model
        now = model.chart_time(time.monotonic())
        model.forget_old_speeds(now)
        parts = model.vram_parts()
        self.vram_bar.set_parts([] if parts is None else [(parts[0], "model"),
                                                          (parts[1], "other")])
        self.vram_bar.setVisible(parts is not None)
        self.sections["vram"].show_texts(gauge_text.vram_text(model),
                                         gauge_text.vram_legend(model),
                                         gauge_text.vram_details(model))
        self.sections["ram"].show_texts(gauge_text.ram_text(model), "",
                                        gauge_text.ram_details())
        self.chart.set_samples(model.chart_samples(), now)
        self.sections["speed"].show_texts(gauge_text.writing_text(model),
                                          gauge_text.reading_text(model),
                                          gauge_text.speed_details(model))
        fraction = model.context_fraction()
        self.context_bar.set_parts([] if fraction is None else [(fraction, "context")])
        self.context_bar.setVisible(fraction is not None)
        self.sections["context"].show_texts(gauge_text.context_text(model), "",
                                            gauge_text.context_details(model))
        self._refresh_hits()

    def toggle_hit_details(self, *_link: str) -> None:
        self.hit_details_shown = not self.hit_details_shown
        self._refresh_hits()

    def _refresh_hits(self) -> None:
        """Plain words and one bar; the engine's view (per part of the model, experts)
        only behind "Details"."""
        model, section = self.model, self.sections["hits"]
        section.setVisible(model.hit_rate is not None)
        if model.hit_rate is None:
            return
        self.hit_bar.set_parts([(model.hit_rate, "hits")])
        shares = model.layer_shares()
        self.layer_strip.set_shares(shares)
        shown = self.hit_details_shown
        self.layer_strip.setVisible(bool(shares) and shown)
        link = '<a href="details">{}</a>'.format(tr("Hide details") if shown else tr("Details"))
        plain = tr("How much of the model's work for this answer was already on the graphics "
                   "card: more is faster.")
        details = gauge_text.hit_details(model)
        section.show_texts(gauge_text.hit_text(model), (details + " " if shown else "") + link,
                           details if shown else plain)

    def first_section(self) -> GaugeSection:
        return self.sections["vram"]


def _stacked(*drawings: QWidget) -> QWidget:
    """Several drawings in one section, one under the other."""
    holder = QWidget()
    layout = QVBoxLayout(holder)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(3)
    for drawing in drawings:
        layout.addWidget(drawing)
    return holder


def _newest_request_id() -> int:
    """Every request made from now on has a larger id (ids come from one counter)."""
    return next_request_id()
