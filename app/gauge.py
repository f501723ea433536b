"""The live gauge: pictures to glance at, with the exact numbers in tooltips.

``GaugeModel`` keeps what the engine and the drivers *measured* for the current model and
the current conversation (no widgets, easy to test) and turns it into plain sentences;
``GaugeWidget`` draws it: graphics memory as a bar (Rotary's share / other programs /
free), writing speed as a line over the last minute, the conversation memory as a
filling bar, and the share of this answer's expert work done from the slot cache on the
graphics card, only when the engine reports one (StepRecord.expert_hit_rate). It repaints at most four times a second, however fast tokens
arrive. Every section is reachable with Tab and reads its numbers to screen readers.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QFrame, QLabel, QSizePolicy, QVBoxLayout, QWidget

from engine.api import ServerModelLoaded, next_request_id
from engine.errors import ServerError, ServerUnreachableError
from app.bridge import VramReading, words_per_token
from app.i18n import tr
from app.messages import say
from app.theme import gauge_colour

GB = 2**30      # shown as "GB", as Windows' Task Manager does: an 8 GB card reads 8.0
REFRESH_MS = 250
SPEED_WINDOW_S = 60.0       # the writing-speed chart shows the last minute
SPEED_MIN_SPAN_S = 10.0     # ...but a first short answer is not a sliver at the right edge
SPEED_SAMPLE_S = 0.25       # at most four points a second
SPEED_STALL_S = 1.0         # no step for this long: the answer ended, the chart stands still


def _gb(n_bytes: int) -> str:
    return f"{n_bytes / GB:.1f}"


def _about(n: float) -> str:
    """Round to two significant figures: "about 2,900 words", not "2,873"."""
    n = int(round(n))
    if n >= 100:
        digits = len(str(n)) - 2
        n = int(round(n, -digits))
    return f"{n:,}"


@dataclass
class GaugeModel:
    """Measured numbers for the current model and conversation, or nothing."""

    words_per_token: float = 0.75
    has_gpu: bool | None = None              # None: not known yet
    processor_note: str = ""                 # the loaded model runs on the processor: why
    placed_note: str = ""                    # where the loaded model is, on a graphics card
    on_server: bool = False                  # the model runs on the office server
    server_problem: str = ""                 # "unreachable" or "failed": a load on the server
    vram: VramReading | None = None
    vram_lost: bool = False                  # NVML worked, then stopped
    ram_bytes: int | None = None             # this process's resident memory (psutil)
    prompt_tps: float = 0.0
    decode_tps: float = 0.0
    ttft_s: float | None = None
    context_used: int | None = None
    context_size: int = 0
    hit_rate: float | None = None            # only when the engine reports one
    token_hits: tuple[int, int] | None = None   # this word's (from slots, from memory)
    uploaded_bytes: int = 0                  # copied into slots during this answer
    layer_hits: list = field(default_factory=list)   # [cached layer] hits over this answer
    layer_routed: int = 0                    # routed experts per layer over this answer
    speeds: deque = field(default_factory=deque)    # (monotonic time, tokens/s)
    latest: tuple[float, float] | None = None       # the newest step's, between samples
    last_step_at: float | None = None
    request_floor: int = 0                   # steps of requests up to this id are stale
    reading_document: bool = False           # the steps are a document summary's

    # ---- inputs -------------------------------------------------------------------------

    def on_vram(self, sample: VramReading | None) -> None:
        if sample is None:
            self.vram_lost = self.vram is not None or self.vram_lost
            self.vram = None
        else:
            self.vram, self.vram_lost = sample, False

    def on_step(self, step, now: float | None = None) -> bool:
        """Take one StepRecord; False (ignored) when it belongs to an earlier conversation
        or model, so a late step can never bring stale numbers back."""
        if step.request_id <= self.request_floor:
            return False
        now = time.monotonic() if now is None else now
        self.prompt_tps, self.decode_tps = step.prompt_tps, step.decode_tps
        self.ttft_s = step.ttft_s
        self.context_used, self.context_size = step.context_used, step.context_size
        self.hit_rate = step.expert_hit_rate
        if step.expert_hits is not None and step.expert_misses is not None:
            self.token_hits = (step.expert_hits, step.expert_misses)
            self.uploaded_bytes = (0 if step.generated_tokens <= 1 else self.uploaded_bytes) \
                + (step.expert_uploaded_bytes or 0)
        if step.expert_layer_hits:
            self._add_layer_hits(step)
        if step.generated_tokens > 1 and (not self.speeds
                                          or now - self.speeds[-1][0] >= SPEED_SAMPLE_S):
            self.speeds.append((now, step.decode_tps))
        if step.generated_tokens > 1:
            self.latest = (now, step.decode_tps)
        self.last_step_at = now
        self.forget_old_speeds(now)
        return True

    def chart_time(self, now: float) -> float:
        """The chart's "now": it stops moving once the steps stop (the answer ended)."""
        return now if self.last_step_at is None else min(now, self.last_step_at + SPEED_STALL_S)

    def chart_samples(self) -> list[tuple[float, float]]:
        """The samples and the newest step: a short answer draws a line, not nothing."""
        newer = self.latest is not None and (not self.speeds or self.latest[0] > self.speeds[-1][0])
        return list(self.speeds) + ([self.latest] if newer and self.latest else [])

    def _add_layer_hits(self, step) -> None:
        """Sum each layer's hits over the answer; k routed experts per layer and token."""
        per_layer = step.expert_layer_hits
        k = (step.expert_hits + step.expert_misses) // len(per_layer)
        if step.generated_tokens <= 1 or len(self.layer_hits) != len(per_layer):
            self.layer_hits, self.layer_routed = [0] * len(per_layer), 0
        self.layer_hits = [a + b for a, b in zip(self.layer_hits, per_layer)]
        self.layer_routed += k

    def layer_shares(self) -> list[float]:
        """Per cached layer, the share of its expert work answered from the graphics card."""
        if not self.layer_routed:
            return []
        return [hits / self.layer_routed for hits in self.layer_hits]

    def forget_old_speeds(self, now: float) -> None:
        while self.speeds and now - self.speeds[0][0] > SPEED_WINDOW_S:
            self.speeds.popleft()

    def reset_conversation(self, floor: int) -> None:
        """New chat or another conversation: its numbers are not known until it answers."""
        self.request_floor = max(self.request_floor, floor)
        self.prompt_tps = self.decode_tps = 0.0
        self.ttft_s = self.context_used = self.hit_rate = self.token_hits = None
        self.layer_hits, self.layer_routed = [], 0
        self.uploaded_bytes = 0
        self.speeds.clear()
        self.latest = self.last_step_at = None

    def reset_model(self, floor: int) -> None:
        """Another model is loading: nothing of the previous one stays on screen."""
        self.reset_conversation(floor)
        self.context_size, self.on_server, self.server_problem = 0, False, ""
        self.processor_note = self.placed_note = ""

    # ---- sentences (plain words; the technical term goes into the tooltip) -----------------

    def vram_text(self) -> str:
        if self.server_problem == "unreachable":   # not "No graphics card": the server is
            return tr("The office server cannot be reached, so no model is running. See "
                      "the notice at the top.")
        if self.server_problem:
            return tr("The office server did not start the model. See the notice at the top.")
        if self.on_server:
            return tr("The model runs on the office server, not on this computer.")
        if self.has_gpu is False:
            return self.processor_note or tr("No graphics card: the model runs on the processor.")
        if self.vram is None and self.vram_lost:
            return tr("Graphics memory: unknown (the graphics driver stopped answering)")
        if self.vram is None:         # no live reading (only NVIDIA's driver gives one)
            return self.placed_note or tr("Graphics memory: unknown")
        return tr("Graphics memory: {used} of {total} GB in use").format(
            used=_gb(self.vram.used_bytes), total=_gb(self.vram.total_bytes))

    def vram_parts(self) -> tuple[float, float] | None:
        """(Rotary's share, other programs' share) of the card, 0..1; None when unknown."""
        vram = self.vram
        if vram is None or not vram.total_bytes or self.has_gpu is False or self.on_server:
            return None
        ours = min(vram.process_bytes or 0, vram.used_bytes)
        return ours / vram.total_bytes, (vram.used_bytes - ours) / vram.total_bytes

    def vram_details(self) -> str:
        vram = self.vram
        if vram is None or self.has_gpu is False or self.on_server:
            return ""
        ours = (tr("Rotary {gb} GB").format(gb=_gb(vram.process_bytes))
                if vram.process_bytes is not None else tr("Rotary's share not reported"))
        return tr("Graphics memory (VRAM), measured by the NVIDIA driver: {ours}, other "
                  "programs {other} GB, free {free} GB of {total} GB.").format(
            ours=ours, other=_gb(vram.used_bytes - (vram.process_bytes or 0)),
            free=_gb(vram.free_bytes), total=_gb(vram.total_bytes))

    def vram_legend(self) -> str:
        """What the bar's colours mean, as rich text with coloured squares."""
        vram = self.vram
        if vram is None or self.has_gpu is False or self.on_server:
            return ""
        ours = vram.process_bytes or 0

        def item(colour: str, text: str) -> str:     # one legend entry never breaks apart
            return (f'<span style="color:{gauge_colour(colour).name()}">&#9632;</span>&nbsp;'
                    + text.replace(" ", "&nbsp;"))
        if vram.process_bytes is None:      # e.g. Windows: the driver does not say per program
            return item("other", tr("in use by all programs"))
        return (item("model", tr("Rotary {gb} GB").format(gb=_gb(ours))) + " &nbsp; "
                + item("other", tr("others {gb} GB").format(gb=_gb(vram.used_bytes - ours))))

    def ram_text(self) -> str:
        if not self.ram_bytes:
            return tr("System memory used by Rotary: unknown")
        return tr("System memory used by Rotary: {size} GB").format(size=_gb(self.ram_bytes))

    def words(self, tokens: float) -> float:
        return tokens * self.words_per_token

    def writing_text(self) -> str:
        if not self.decode_tps:
            return tr("Writing speed: shown while an answer is written")
        return tr("Writing speed: about {n} words a second").format(
            n=f"{self.words(self.decode_tps):.0f}")

    def reading_text(self) -> str:
        """A reading speed only where the engine measured reading: not from the office
        server, where the wait for the first word is the network, the server's queue and
        its cache (an instant one made "about 1,300,000 words a second")."""
        if not self.prompt_tps:
            return ""
        if self.on_server:
            return "" if self.ttft_s is None else \
                tr("First word after {s} s").format(s=f"{self.ttft_s:.1f}")
        words = _about(self.words(self.prompt_tps))
        text = (tr("Reading the document: about {n} words a second") if self.reading_document
                else tr("Reading your message: about {n} words a second")).format(n=words)
        if self.ttft_s is not None and self.ttft_s < 0.05:     # read before (a cached prompt)
            text += " · " + _unbroken(tr("first word at once"))
        elif self.ttft_s is not None:   # one phrase: "6.2초 후 첫" broke before "단어"
            text += " · " + _unbroken(tr("first word after {s} s").format(s=f"{self.ttft_s:.1f}"))
        return text

    def speed_details(self) -> str:
        if not self.decode_tps and not self.prompt_tps:
            return tr("Speeds are measured by the engine while it writes an answer.")
        if self.on_server:
            return tr("Measured here while the office server writes: {w} tokens per second. "
                      "A token is a piece of a word; words shown here are tokens × {ratio}."
                      ).format(w=f"{self.decode_tps:.1f}", ratio=f"{self.words_per_token:.2f}")
        return tr("Measured by the engine: writing {w} tokens per second, reading {r} tokens "
                  "per second. A token is a piece of a word; words shown here are tokens "
                  "× {ratio}.").format(w=f"{self.decode_tps:.1f}", r=f"{self.prompt_tps:.0f}",
                                        ratio=f"{self.words_per_token:.2f}")

    def context_fraction(self) -> float | None:
        if not self.context_size or self.context_used is None:
            return None
        return min(1.0, self.context_used / self.context_size)

    def context_text(self) -> str:
        if not self.context_size and self.on_server:    # e.g. llama-cpp-python's server
            if not self.context_used:
                return tr("Conversation memory: not reported by the server")
            return tr("Conversation memory: not reported by the server; about {n} words "
                      "sent so far").format(n=_about(self.words(self.context_used)))
        if not self.context_size:
            return tr("Conversation memory: no model loaded")
        if self.context_used is None:
            return tr("Conversation memory: shown after the next answer")
        left = max(0, self.context_size - self.context_used)
        return tr("Conversation memory: about {n} words left").format(n=_about(self.words(left)))

    def context_details(self) -> str:
        if self.context_used is None:
            return ""
        if not self.context_size and self.on_server:
            return tr("Context: {used} tokens sent so far, counted by the server; it does not "
                      "say how many it can hold.").format(used=f"{self.context_used:,}")
        if not self.context_size:
            return ""
        return tr("Context: {used} of {size} tokens used, measured by the engine.").format(
            used=f"{self.context_used:,}", size=f"{self.context_size:,}")

    def hit_text(self) -> str:
        if self.hit_rate is None:
            return ""
        return tr("Ready on the graphics card: {pct}% of the work").format(
            pct=f"{self.hit_rate * 100:.0f}")

    def hit_details(self) -> str:
        if self.hit_rate is None:
            return ""
        text = tr("Expert hit rate, measured by the engine: the share of expert work whose "
                  "experts were already in graphics memory.")
        if self.token_hits is not None:
            hits, misses = self.token_hits
            text += " " + tr("This word: {hits} of {all} experts from the graphics card; "
                             "{mb} MB copied there during this answer.").format(
                hits=hits, all=hits + misses, mb=f"{self.uploaded_bytes / 2**20:.0f}")
        shares = self.layer_shares()
        if shares:
            text += " " + tr("Per layer, in order: {shares}.").format(
                shares=", ".join(f"{share * 100:.0f}%" for share in shares))
        return text


# ---- drawings ------------------------------------------------------------------------------

class Meter(QWidget):
    """A horizontal bar of coloured parts over a track; parts are (fraction, colour name)."""

    HEIGHT = 14

    def __init__(self, parent=None) -> None:
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

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), gauge_colour("track"))
        for rect, colour in self.part_rects():
            painter.fillRect(rect, gauge_colour(colour))
        painter.end()


class LayerStrip(QWidget):
    """One thin column per cached layer, filled to the share answered from the graphics
    card: a layer that misses often stands out at a glance."""

    HEIGHT = 22

    def __init__(self, parent=None) -> None:
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

    def paintEvent(self, event) -> None:
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

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.points: list[tuple[float, float]] = []     # (seconds ago, tokens/s)
        self.span = SPEED_MIN_SPAN_S                      # seconds across the width
        self.setFixedHeight(self.HEIGHT)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def set_samples(self, samples, now: float) -> None:
        self.points = [(now - t, v) for t, v in samples]
        oldest = self.points[0][0] if self.points else 0.0
        self.span = min(SPEED_WINDOW_S, max(SPEED_MIN_SPAN_S, oldest))
        self.update()

    def polygon(self) -> QPolygonF:
        top = max((v for _, v in self.points), default=0.0) * 1.2 or 1.0
        w, h = self.width() - 1, self.height() - 2
        return QPolygonF([QPointF(w * (1 - ago / self.span), 1 + h * (1 - v / top))
                          for ago, v in self.points])

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), gauge_colour("track"))
        if len(self.points) >= 2:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            line = self.polygon()
            area = QPainterPath()
            area.moveTo(line[0].x(), self.height())
            for point in line:
                area.lineTo(point)
            area.lineTo(line[line.size() - 1].x(), self.height())
            painter.fillPath(area, gauge_colour("speed_fill"))
            painter.setPen(QPen(gauge_colour("speed"), 2))
            painter.drawPolyline(line)
        painter.end()


class GaugeSection(QFrame):
    """A caption, a drawing and a small note; focused (Ctrl+Shift+G, a click, the arrow
    keys from the next section) it shows a visible frame, and a screen reader hears the
    caption and the exact numbers. Tab passes it by: it is text to read, not a control."""

    def __init__(self, drawing: QWidget | None = None, parent=None) -> None:
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

    def keyPressEvent(self, event) -> None:
        """Up and Down move between the visible sections of the gauge."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space) and \
                "href=" in self.note.text():     # "Details" without a Tab stop of its own
            self.note.linkActivated.emit("details")
            return
        step = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1}.get(event.key())
        siblings = [s for s in self.parentWidget().findChildren(GaugeSection)
                    if s.isVisible()] if self.parentWidget() is not None else []
        if step is None or self not in siblings:
            super().keyPressEvent(event)
            return
        index = siblings.index(self) + step
        if 0 <= index < len(siblings):
            siblings[index].setFocus(Qt.FocusReason.OtherFocusReason)

    def focusInEvent(self, event) -> None:
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.update()

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if self.hasFocus():        # a clear frame, not a thin text cursor
            painter = QPainter(self)
            painter.setPen(QPen(self.palette().highlight().color(), 2))
            painter.drawRoundedRect(QRectF(self.rect()).adjusted(1, 1, -1, -1), 4, 4)
            painter.end()


class GaugeWidget(QFrame):
    MIN_WIDTH, MAX_WIDTH = 170, 280     # never wide enough to squeeze the chat

    def __init__(self, parent=None) -> None:
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

    def on_vram(self, sample) -> None:
        self.model.on_vram(sample)
        self._dirty = True

    def on_ram(self, held_bytes) -> None:
        self.model.ram_bytes = held_bytes
        self._dirty = True

    def on_stats(self, step) -> None:
        if self.model.on_step(step):
            self._dirty = True

    def on_conversation_context(self, context) -> None:
        """(tokens the open conversation takes, context size) after its latest answer, as
        the engine counted them (app.conversation.window), or None: not known yet. The
        steps of an answer show the memory it fills while it writes; this is what is left
        for the conversation once it is written (its thinking is not sent again)."""
        if context is not None and int(context[1]) == self.model.context_size:
            self.model.context_used = min(int(context[0]), self.model.context_size)
        self.refresh()

    def on_model_loaded(self, event) -> None:
        self.model.context_size = int(event.context_size)
        self.model.on_server = isinstance(event, ServerModelLoaded)
        placement = getattr(event, "placement", None)
        if placement is not None:        # what the loaded model placed, not what was planned
            self.model.has_gpu = placement.gpu is not None
            self.model.processor_note = say(placement.message) if placement.gpu is None else ""
            self.model.placed_note = say(placement.message) if placement.gpu is not None else ""
        self.model.server_problem = ""
        self._dirty = True

    def on_load_failed(self, error) -> None:
        """A load on the office server failed: the side panel says so, not "No graphics
        card" (the computer's own card has nothing to do with it)."""
        self.model.server_problem = "unreachable" if isinstance(error, ServerUnreachableError) \
            else "failed" if isinstance(error, ServerError) else ""
        self.refresh()

    def on_model_unloaded(self) -> None:
        self.reset_model()

    def reset_model(self, *args) -> None:
        self.model.reset_model(_newest_request_id())
        self.refresh()

    def reset_conversation(self, *args) -> None:
        self.model.reset_conversation(_newest_request_id())
        self.refresh()

    def follow(self, answer) -> None:
        """``answer`` (app.chat_controller.Answer) streams into the open conversation,
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
        self.sections["vram"].show_texts(model.vram_text(), model.vram_legend(),
                                         model.vram_details())
        self.sections["ram"].show_texts(
            model.ram_text(), "", tr("Resident memory (RSS) of the Rotary process, measured "
                                     "by the operating system."))
        self.chart.set_samples(model.chart_samples(), now)
        self.sections["speed"].show_texts(model.writing_text(), model.reading_text(),
                                          model.speed_details())
        fraction = model.context_fraction()
        self.context_bar.set_parts([] if fraction is None else [(fraction, "context")])
        self.context_bar.setVisible(fraction is not None)
        self.sections["context"].show_texts(model.context_text(), "", model.context_details())
        self._refresh_hits()

    def toggle_hit_details(self, *_link) -> None:
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
        section.show_texts(model.hit_text(), (model.hit_details() + " " if shown else "") + link,
                           model.hit_details() if shown else plain)

    def first_section(self) -> GaugeSection:
        return self.sections["vram"]


def _unbroken(phrase: str) -> str:
    """A short phrase kept on one line (no-break spaces): a wrap moves it whole."""
    return phrase.replace(" ", "\u00a0")


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
