"""What the summariser needs of a model, wherever it runs: on this computer or on a server.

``SummaryModel``: count the tokens of a text and of a whole chat prompt (template included)
with the model's own tokenizer, say its context length, and stream an answer with stop
checked between tokens. The model loaded here is engine.runtime.generation.summary_model.LocalSummaryModel;
the office server's is engine.remote.documents.RemoteSummaryModel (both folders import this
one, never the other way round).
"""

from __future__ import annotations

import threading
from typing import Callable, Iterator, Protocol, Sequence, runtime_checkable

from engine.api import ChatMessage, ChatRequest, ResponseStats, StepRecord


class ChatRun(Protocol):
    """One streamed answer: iterate ``records()``; ``text`` and ``stats`` are final after."""

    def records(self) -> Iterator[StepRecord]: ...

    @property
    def text(self) -> str: ...

    @property
    def stats(self) -> ResponseStats: ...


@runtime_checkable
class SummaryModel(Protocol):
    context_size: int           # tokens one call may hold, prompt and answer together
    speed_key: tuple            # another key: reading and writing speed are measured again
    on_server: bool             # for the time estimate: "on the office server"

    def count(self, text: str) -> int: ...

    def count_chat(self, messages: Sequence[ChatMessage]) -> int: ...

    def clip(self, text: str, max_tokens: int) -> str: ...

    def start_chat(self, request: ChatRequest, stop: threading.Event) -> ChatRun: ...

    def finish_chat(self, run: ChatRun) -> None: ...


def clip_by_words(text: str, max_tokens: int, count: Callable[[str], int]) -> str:
    """The longest word-boundary prefix of ``text`` with at most ``max_tokens`` tokens, found
    by bisection with ``count`` (for tokenizers that give counts, not token ids)."""
    if count(text) <= max_tokens:
        return text
    words = text.split(" ")
    low, high = 1, len(words) - 1          # low: fits (or the least we keep); high: unknown
    while low < high:
        middle = (low + high + 1) // 2
        if count(" ".join(words[:middle])) <= max_tokens:
            low = middle
        else:
            high = middle - 1
    return " ".join(words[:low])
