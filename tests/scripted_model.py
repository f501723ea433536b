"""A model that answers what the test wrote, for checks that need a known answer (citations).

It is a ``SummaryModel`` (engine/documents/model.py): tokens are counted as words, the
context is fixed, and each chat streams the next scripted answer word by word. Everything
else (reading files, the index, choosing passages, checking references) is the engine's own.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from engine.api import ChatRequest, ResponseStats, StepRecord, StopReason


@dataclass
class ScriptedRun:
    request: ChatRequest
    answer: str
    stop: threading.Event
    text: str = ""
    stats: ResponseStats | None = None

    def records(self):
        started, pieces = time.perf_counter(), self.answer.split(" ")
        reason = StopReason.EOS
        for index, word in enumerate(pieces, start=1):
            if self.stop.is_set():
                reason = StopReason.STOPPED
                break
            piece = word if index == 1 else f" {word}"
            self.text += piece
            yield StepRecord(self.request.request_id, piece, index, index, 100, 1000.0, 100.0,
                             0.01, 100 + index, 4096, conversation_id=self.request.conversation_id)
        self.stats = ResponseStats(
            request_id=self.request.request_id, prompt_tokens=100, generated_tokens=len(pieces),
            prompt_tps=1000.0, decode_tps=100.0, ttft_s=0.01, total_s=time.perf_counter() - started,
            context_used=100 + len(pieces), context_size=4096, stop_reason=reason)


@dataclass
class ScriptedModel:
    answers: list[str] = field(default_factory=list)
    context_size: int = 4096
    speed_key: tuple = ("scripted",)
    on_server: bool = False
    requests: list[ChatRequest] = field(default_factory=list)
    answer_for: Callable[[ChatRequest], str] | None = None    # instead of ``answers``

    def count(self, text: str) -> int:
        return len(text.split())

    def count_chat(self, messages) -> int:
        return sum(self.count(m.content) + 4 for m in messages)

    def clip(self, text: str, max_tokens: int) -> str:
        return " ".join(text.split()[:max_tokens])

    def start_chat(self, request: ChatRequest, stop: threading.Event) -> ScriptedRun:
        self.requests.append(request)
        if len(request.messages) == 1:         # the speed measurement: one bare user message
            return ScriptedRun(request, "Measured.", stop)
        if self.answer_for is not None:
            return ScriptedRun(request, self.answer_for(request), stop)
        answer = self.answers.pop(0) if self.answers else "Nothing to add."
        return ScriptedRun(request, answer, stop)

    def finish_chat(self, run: ScriptedRun) -> None:
        pass
