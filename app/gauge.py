"""The live gauge: memory, speeds, first-token time, context, and expert reuse.

``GaugeModel`` turns engine numbers into plain sentences (no widgets, easy to test);
``GaugeWidget`` shows them and refreshes at most four times a second, however fast
tokens arrive. VRAM readings come from the bridge's background poller.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from PySide6.QtCore import QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QGroupBox, QLabel, QProgressBar, QSizePolicy, QVBoxLayout, QWidget

from app.i18n import tr

GB = 2**30      # shown as "GB", as Windows' Task Manager does: an 8 GB card reads 8.0
REUSE_WINDOW = 8        # tokens: routing repeats mostly within a few tokens (anchors.md)
REFRESH_MS = 250


def _gb(n_bytes: int) -> str:
    return f"{n_bytes / GB:.1f}"


class ReuseTracker:
    """Per MoE layer: share of this token's experts also used in the last few tokens.
    A layer with high reuse is one where a small set of experts on the GPU would hit."""

    def __init__(self, window: int = REUSE_WINDOW) -> None:
        self.window = window
        self.recent: list[deque] = []

    def add(self, expert_ids: tuple[tuple[int, ...], ...]) -> list[float]:
        if len(self.recent) != len(expert_ids):
            self.recent = [deque(maxlen=self.window) for _ in expert_ids]
        shares = []
        for history, experts in zip(self.recent, expert_ids):
            seen = set().union(*history) if history else set()
            shares.append(len(seen.intersection(experts)) / max(1, len(experts)))
            history.append(frozenset(experts))
        return shares


@dataclass
class GaugeModel:
    has_gpu: bool | None = None             # None: not known yet
    vram: object | None = None               # VramSample
    vram_lost: bool = False                  # NVML worked, then stopped
    ram_held_bytes: int = 0
    prompt_tps: float = 0.0
    decode_tps: float = 0.0
    ttft_s: float | None = None
    context_used: int = 0
    context_size: int = 0
    hit_rate: float | None = None
    layer_reuse: list[float] = field(default_factory=list)
    tracker: ReuseTracker = field(default_factory=ReuseTracker)

    def on_vram(self, sample) -> None:
        if sample is None:
            self.vram_lost = self.vram is not None or self.vram_lost
            self.vram = None
        else:
            self.vram, self.vram_lost = sample, False

    def on_stats(self, step) -> None:
        self.prompt_tps, self.decode_tps = step.prompt_tps, step.decode_tps
        self.ttft_s = step.ttft_s
        self.context_used, self.context_size = step.context_used, step.context_size

    def on_residency(self, expert_ids, hit_rate) -> None:
        self.hit_rate = hit_rate
        if expert_ids:
            self.layer_reuse = self.tracker.add(expert_ids)

    # ---- sentences ----------------------------------------------------------------------

    def vram_text(self) -> str:
        if self.has_gpu is False:
            return tr("No NVIDIA graphics card found. The model runs on the processor.")
        if self.vram is None and self.vram_lost:
            return tr("Graphics memory: unknown (the graphics driver stopped answering)")
        if self.vram is None:
            return tr("Graphics memory: unknown")
        return tr("Graphics memory: {used} GB of {total} GB in use").format(
            used=_gb(self.vram.used_bytes), total=_gb(self.vram.total_bytes))

    def vram_fraction(self) -> float | None:
        if self.vram is None or not self.vram.total_bytes:
            return None
        return self.vram.used_bytes / self.vram.total_bytes

    def ram_text(self) -> str:
        if not self.ram_held_bytes:
            return tr("System memory held by the model: none yet")
        return tr("System memory held by the model: about {size} GB").format(
            size=_gb(self.ram_held_bytes))

    def speed_texts(self) -> tuple[str, str]:
        if not self.decode_tps and not self.prompt_tps:
            return (tr("Reading speed: waiting for the first message"),
                    tr("Writing speed: waiting for the first message"))
        return (tr("Reading speed: {n} tokens per second").format(n=f"{self.prompt_tps:.0f}"),
                tr("Writing speed: {n} tokens per second").format(n=f"{self.decode_tps:.1f}"))

    def ttft_text(self) -> str:
        if self.ttft_s is None:
            return tr("Time to the first word: not measured yet")
        return tr("Time to the first word: {s} seconds").format(s=f"{self.ttft_s:.1f}")

    def context_text(self) -> str:
        if not self.context_size:
            return tr("Conversation memory: not known yet")
        return tr("Conversation memory: {used} of {size} tokens used").format(
            used=f"{self.context_used:,}", size=f"{self.context_size:,}")

    def hit_text(self) -> str:
        if self.hit_rate is None:
            return ""
        return tr("Experts already on the graphics card: {pct}%").format(
            pct=f"{self.hit_rate * 100:.0f}")


class ResidencyStrip(QWidget):
    """One small cell per MoE layer; darker = that layer reuses recent experts more."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.values: list[float] = []
        self.setMinimumHeight(16)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName(tr("Expert reuse per layer"))

    def set_values(self, values: list[float]) -> None:
        self.values = list(values)
        if values:
            average = sum(values) / len(values)
            self.setAccessibleDescription(
                tr("{n} layers; on average {pct}% of experts were used in the last "
                   "few words").format(n=len(values), pct=f"{average * 100:.0f}"))
        self.update()

    def paintEvent(self, event) -> None:
        if not self.values:
            return
        painter = QPainter(self)
        width = self.width() / len(self.values)
        base = self.palette().highlight().color()
        for index, value in enumerate(self.values):
            colour = QColor(base)
            colour.setAlphaF(0.15 + 0.85 * max(0.0, min(1.0, value)))
            painter.fillRect(QRectF(index * width, 0, max(1.0, width - 1), self.height()),
                             colour)
        painter.end()


class GaugeWidget(QGroupBox):
    def __init__(self, parent=None) -> None:
        super().__init__(tr("Live numbers"), parent)
        self.model = GaugeModel()
        self._dirty = False
        self.labels: dict[str, QLabel] = {}
        self.vram_bar = QProgressBar()
        self.vram_bar.setAccessibleName(tr("Graphics memory in use"))
        self.vram_bar.setTextVisible(False)
        self.strip = ResidencyStrip()
        self.strip_label = QLabel(tr("Expert reuse per layer (darker = reused more)"))
        self._build()
        self.timer = QTimer(self, interval=REFRESH_MS)
        self.timer.timeout.connect(self._refresh_if_dirty)
        self.timer.start()
        self.refresh()

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        for key in ("vram", "ram", "reading", "writing", "ttft", "context", "hits"):
            label = QLabel()
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByKeyboard)
            label.setFocusPolicy(Qt.FocusPolicy.TabFocus)   # screen readers can reach it
            self.labels[key] = label
            layout.addWidget(label)
            if key == "vram":
                layout.addWidget(self.vram_bar)
        layout.addWidget(self.strip_label)
        layout.addWidget(self.strip)
        layout.addStretch(1)

    # ---- inputs (wired to the bridge in app.wiring) -------------------------------------

    def set_has_gpu(self, has_gpu: bool) -> None:
        self.model.has_gpu = has_gpu
        self._dirty = True

    def on_vram(self, sample) -> None:
        self.model.on_vram(sample)
        self._dirty = True

    def on_stats(self, step) -> None:
        self.model.on_stats(step)
        self._dirty = True

    def on_residency(self, expert_ids, hit_rate) -> None:
        self.model.on_residency(expert_ids, hit_rate)
        self._dirty = True

    def on_model_loaded(self, event) -> None:
        self.model.ram_held_bytes = int(event.recipe.ram.total_bytes - event.recipe.ram.headroom_bytes)
        self.model.context_size = int(event.recipe.n_ctx)
        self._dirty = True

    def on_model_unloaded(self) -> None:
        self.model.ram_held_bytes = 0
        self._dirty = True

    # ---- drawing --------------------------------------------------------------------------

    def _refresh_if_dirty(self) -> None:
        if self._dirty:
            self.refresh()

    def refresh(self) -> None:
        self._dirty = False
        model = self.model
        reading, writing = model.speed_texts()
        texts = {"vram": model.vram_text(), "ram": model.ram_text(), "reading": reading,
                 "writing": writing, "ttft": model.ttft_text(),
                 "context": model.context_text(), "hits": model.hit_text()}
        for key, text in texts.items():
            self.labels[key].setText(text)
            self.labels[key].setAccessibleName(text)
            self.labels[key].setVisible(bool(text))
        fraction = model.vram_fraction()
        self.vram_bar.setVisible(fraction is not None)
        self.vram_bar.setValue(int((fraction or 0) * 100))
        self.strip.set_values(model.layer_reuse)
        self.strip.setVisible(bool(model.layer_reuse))
        self.strip_label.setVisible(bool(model.layer_reuse))
