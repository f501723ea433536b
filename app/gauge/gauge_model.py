"""What the gauge shows, as numbers: measured by the engine and the drivers for the current
model and the current conversation. No Qt and no words (app.gauge.gauge_text says them;
app.gauge.gauge draws them), so it can be checked without Qt.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Protocol

from engine.api import StepRecord

SPEED_WINDOW_S = 60.0       # the writing-speed chart shows the last minute
SPEED_MIN_SPAN_S = 10.0     # ...but a first short answer is not a sliver at the right edge
SPEED_SAMPLE_S = 0.25       # at most four points a second
SPEED_STALL_S = 1.0         # no step for this long: the answer ended, the chart stands still


class VramSample(Protocol):
    """A graphics-memory reading (the engine's VramReading, which reaches the app through
    app.bridge.engine_bridge; named by its fields here so this module imports no Qt)."""

    @property
    def used_bytes(self) -> int: ...
    @property
    def total_bytes(self) -> int: ...
    @property
    def process_bytes(self) -> int | None: ...
    @property
    def free_bytes(self) -> int: ...


@dataclass
class GaugeModel:
    """Measured numbers for the current model and conversation, or nothing."""

    words_per_token: float = 0.75
    has_gpu: bool | None = None              # None: not known yet
    processor_note: str = ""                 # the loaded model runs on the processor: why
    placed_note: str = ""                    # where the loaded model is, on a graphics card
    on_server: bool = False                  # the model runs on the office server
    server_problem: str = ""                 # "unreachable" or "failed": a load on the server
    vram: VramSample | None = None
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
    layer_hits: list[int] = field(default_factory=list)   # [cached layer] hits over this answer
    layer_routed: int = 0                    # routed experts per layer over this answer
    speeds: deque[tuple[float, float]] = field(default_factory=deque)   # (monotonic time, tokens/s)
    latest: tuple[float, float] | None = None       # the newest step's, between samples
    last_step_at: float | None = None
    request_floor: int = 0                   # steps of requests up to this id are stale
    reading_document: bool = False           # the steps are a document summary's

    # ---- inputs -------------------------------------------------------------------------

    def on_vram(self, sample: VramSample | None) -> None:
        if sample is None:
            self.vram_lost = self.vram is not None or self.vram_lost
            self.vram = None
        else:
            self.vram, self.vram_lost = sample, False

    def on_step(self, step: StepRecord, now: float | None = None) -> bool:
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
                self._add_layer_hits(step.expert_layer_hits,
                                     step.expert_hits + step.expert_misses,
                                     step.generated_tokens <= 1)
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

    def _add_layer_hits(self, per_layer: tuple[int, ...], routed: int, first: bool) -> None:
        """Sum each layer's hits over the answer (``first``: its first token); ``routed``
        experts this token over all layers, so k per layer."""
        k = routed // len(per_layer)
        if first or len(self.layer_hits) != len(per_layer):
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

    # ---- what the drawings show ---------------------------------------------------------

    def vram_parts(self) -> tuple[float, float] | None:
        """(Rotary's share, other programs' share) of the card, 0..1; None when unknown."""
        vram = self.vram
        if vram is None or not vram.total_bytes or self.has_gpu is False or self.on_server:
            return None
        ours = min(vram.process_bytes or 0, vram.used_bytes)
        return ours / vram.total_bytes, (vram.used_bytes - ours) / vram.total_bytes

    def words(self, tokens: float) -> float:
        """A token count as words (the one ratio, app.bridge.engine_bridge.words_per_token)."""
        return tokens * self.words_per_token

    def context_fraction(self) -> float | None:
        if not self.context_size or self.context_used is None:
            return None
        return min(1.0, self.context_used / self.context_size)
