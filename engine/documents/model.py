"""What the summariser needs of a model, wherever it runs: on this computer or on a server.

``SummaryModel``: count the tokens of a text and of a whole chat prompt (template included)
with the model's own tokenizer, say its context length, and stream an answer with stop
checked between tokens. ``LocalSummaryModel`` is the loaded native model; the office
server's is engine.remote.documents.RemoteSummaryModel.
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


class LocalSummaryModel:
    """The model loaded on this computer (engine.runtime.loader.LoadedModel or a test spy)."""

    on_server = False

    def __init__(self, loaded) -> None:
        self.loaded, self.native = loaded, loaded.native
        self.context_size = self.native.n_ctx
        self.speed_key = (id(self.native), self.native.path, self.native.recipe)

    def count(self, text: str) -> int:
        return len(self.native.tokenize(text, special=False))

    def render(self, messages: Sequence[ChatMessage]) -> list[int]:
        from engine.runtime.generate import render_chat  # noqa: PLC0415

        return self.native.tokenize(render_chat(self.native, messages))

    def count_chat(self, messages: Sequence[ChatMessage]) -> int:
        return len(self.render(messages))

    def clip(self, text: str, max_tokens: int) -> str:
        tokens = self.native.tokenize(text, special=False)
        if len(tokens) <= max_tokens:
            return text
        kept = self.native.model.detokenize(tokens[:max(1, max_tokens)])
        return kept.decode("utf-8", errors="ignore")

    def start_chat(self, request: ChatRequest, stop: threading.Event) -> ChatRun:
        return self.loaded.start_chat(request, stop)

    def finish_chat(self, run: ChatRun) -> None:
        self.loaded.finish_chat(run)


def as_summary_model(model) -> SummaryModel:
    """A SummaryModel as is; anything with a ``native`` model (LoadedModel) wrapped."""
    return model if isinstance(model, SummaryModel) else LocalSummaryModel(model)


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
