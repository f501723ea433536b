"""Reading and writing speed as measured (here or through the office server), for "about 4 minutes" and time left."""

from __future__ import annotations

import threading
from dataclasses import dataclass

from engine.api import ChatMessage, ChatRequest, ResponseStats

CALIBRATION_TOKENS = 200       # document tokens read once to measure, when nothing was measured
CALIBRATION_ANSWER = 16
SMOOTHING = 0.5                # weight of the newest call in the running average
MIN_PROMPT_TOKENS = 32         # shorter reads (mostly cache hits) say little about speed


@dataclass
class SpeedMeter:
    prompt_tps: float = 0.0
    decode_tps: float = 0.0
    model_key: tuple = ()      # which loaded model was measured; another one measures again

    def ensure_measured(self, model, sample_text: str) -> None:
        """``model``: an engine.documents.model.SummaryModel (here or on the office server)."""
        key = model.speed_key
        if self.model_key == key and self.prompt_tps > 0 and self.decode_tps > 0:
            return
        self.prompt_tps = self.decode_tps = 0.0
        self.model_key = key
        text = model.clip(sample_text, CALIBRATION_TOKENS)
        request = ChatRequest(messages=(ChatMessage("user", text),), max_tokens=CALIBRATION_ANSWER,
                              temperature=0.0, record_routing=False, think=False,
                              step="summary speed")
        run = model.start_chat(request, threading.Event())
        for _ in run.records():
            pass
        model.finish_chat(run)
        self.add(run.stats, force=True)

    def add(self, stats: ResponseStats, force: bool = False) -> None:
        if stats.prompt_tps > 0 and (force or stats.prompt_tokens >= MIN_PROMPT_TOKENS):
            self.prompt_tps = _mix(self.prompt_tps, stats.prompt_tps)
        if stats.decode_tps > 0:
            self.decode_tps = _mix(self.decode_tps, stats.decode_tps)
        elif force and self.decode_tps <= 0 and stats.total_s > 0:
            # The answer ended after one token: the whole call is the best bound we have.
            self.decode_tps = max(1.0, stats.generated_tokens / stats.total_s)

    def seconds(self, read_tokens: int, write_tokens: int) -> float:
        if self.prompt_tps <= 0 or self.decode_tps <= 0:
            return -1.0
        return read_tokens / self.prompt_tps + write_tokens / self.decode_tps


def _mix(old: float, new: float) -> float:
    return new if old <= 0 else (1 - SMOOTHING) * old + SMOOTHING * new
