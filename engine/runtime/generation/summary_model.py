"""The model loaded on this computer as the documents' ``SummaryModel``
(engine/documents/model.py): the documents folder names only the protocol, runtime fills it."""

from __future__ import annotations

import threading
from typing import Sequence

from engine.api import ChatMessage, ChatRequest
from engine.documents.model import ChatRun
from engine.runtime.generation.generate import render_chat


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
