"""How far the model has read a long prompt, and how long the rest will take.

The prompt-decode loop (engine/runtime/generate.py ``_read_prompt``) reports after each
micro-batch; ``PromptMeter`` turns that into ``PromptProgress`` events, at most a few a
second, with the time left from the rate measured so far on this device (the first batch
included: a processor reads at a steady rate, a graphics card's first batch is its slowest,
so the estimate errs long and then shrinks). A prompt read in one batch reports nothing.
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

    def __call__(self, read: int, total: int) -> None:
        now = self.clock()
        if read == 0 or self.started is None:
            self.started = now             # reading begins (the loop says 0 first)
            return
        if read >= total or now - self.last_sent < self.interval_s:
            return                         # the answer's first token says the rest
        self.last_sent = now
        elapsed = now - self.started
        rate = read / elapsed if elapsed > 0 else 0.0
        self.emit(PromptProgress(self.request_id, self.conversation_id, read, total, elapsed,
                                 (total - read) / rate if rate > 0 else -1.0))
