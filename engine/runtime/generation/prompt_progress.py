"""How far the model has read a long prompt, and how long the rest will take.

The prompt-decode loop (engine/runtime/generation/generate.py ``_read_prompt``) reports after each
micro-batch; ``PromptMeter`` turns that into ``PromptProgress`` events, at most a few a
second, with the time left measured on this device. Reading gets slower as it goes: each
batch attends to everything read before it, so a batch's time grows with its position. The
time to read ``r`` tokens is fitted as ``a·r + c·r²`` (least squares over the batches after
the first, both terms at least 0) and the rest is that curve's remainder. Measured with
``python -m tools.prompt_estimate`` (a 5,711-token prompt on the processor): at 32% read a plain
rate so far said 0.53 s left, the fit 1.37 s, and the rest took 1.74 s. A prompt read in one
batch reports nothing.
"""

from __future__ import annotations

import time
from typing import Callable

from engine.api import PromptProgress

INTERVAL_S = 0.25       # at most four events a second: the app redraws once a second anyway


class PromptMeter:
    """``meter(read, total)`` from the engine thread; ``emit`` gets the throttled events."""

    def __init__(self, request_id: int, conversation_id: int | None,
                 emit: Callable[[PromptProgress], None], interval_s: float = INTERVAL_S,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.request_id, self.conversation_id = request_id, conversation_id
        self.emit, self.interval_s, self.clock = emit, interval_s, clock
        self.started: float | None = None
        self.last_sent = float("-inf")
        self.curve = ReadingCurve()

    def __call__(self, read: int, total: int) -> None:
        now = self.clock()
        if read == 0 or self.started is None:
            self.started, self.curve = now, ReadingCurve()   # reading begins (0 comes first)
            return
        elapsed = now - self.started
        self.curve.add(read, elapsed)
        if read >= total or now - self.last_sent < self.interval_s:
            return                         # the answer's first token says the rest
        self.last_sent = now
        self.emit(PromptProgress(self.request_id, self.conversation_id, read, total, elapsed,
                                 self.curve.left(read, total)))


class ReadingCurve:
    """Seconds to read up to ``r`` tokens as ``a·r + c·r²``, fitted (least squares, both at
    least 0) to the reports after the first batch: the first batch also pays for setting up
    the computation, and would make every later estimate too long."""

    def __init__(self) -> None:
        self.first: tuple[int, float] | None = None
        self.sums = [0.0] * 5       # over later reports: Σx², Σx·q, Σq², Σx·y, Σq·y

    def add(self, read: int, seconds: float) -> None:
        if self.first is None:
            self.first = (read, seconds)
            return
        r0, t0 = self.first
        x, q, y = float(read - r0), float(read * read - r0 * r0), seconds - t0
        for i, value in enumerate((x * x, x * q, q * q, x * y, q * y)):
            self.sums[i] += value

    def fit(self) -> tuple[float, float]:
        xx, xq, qq, xy, qy = self.sums
        det = xx * qq - xq * xq
        if det > 1e-9 * xx * qq:
            a, c = (xy * qq - qy * xq) / det, (xx * qy - xq * xy) / det
            if a >= 0 and c >= 0:
                return a, c
        # one term alone: the better fitting of a straight rate and a pure square
        linear, square = max(xy, 0.0) / xx, max(qy, 0.0) / qq
        if xy * linear >= qy * square:
            return linear, 0.0
        return 0.0, square

    def left(self, read: int, total: int) -> float:
        """Seconds to read the rest; -1 while nothing has been measured."""
        if self.first is None:
            return -1.0
        if not self.sums[0]:                # one batch so far: its own rate
            r0, t0 = self.first
            return (total - read) * t0 / r0 if r0 and t0 > 0 else -1.0
        a, c = self.fit()
        return max(0.0, a * (total - read) + c * (total * total - read * read))
