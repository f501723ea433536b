"""Document summaries on the office server: engine.documents' SummaryModel over HTTP.

Every count comes from the server: texts from its tokenizer endpoint, whole chat prompts
from llama-server's /apply-template or vLLM's chat /tokenize. A server that can count texts
but not chats (llama-cpp-python's) has its chat template's tokens measured once, from the
prompt_tokens it reports for a one-token answer. A server that cannot count at all gets a
plain ServerNoTokenizerError: never characters ÷ 4.
"""

from __future__ import annotations

import threading
from typing import Sequence

from engine.api import ChatMessage, ChatRequest, ServerInfo
from engine.documents.model import ChatRun, clip_by_words
from engine.errors import ServerContextFullError, ServerProtocolError
from engine.messages import msg
from engine.remote.chat_tokens import ChatTokenCounter
from engine.remote.client import ServerClient, no_tokenizer
from engine.remote.errors import context_size_in
from engine.remote.stream import RemoteRun


PROBE_WORD = "Hello"
CONTEXT_PROBE_TOKENS = 16384   # a server that reads this many in one prompt holds at least that


class RemoteSummaryModel:
    """Used on the engine thread only (requests one after another: llama-cpp-python's
    server would otherwise cut an answer off)."""

    on_server = True

    def __init__(self, client: ServerClient, server: ServerInfo) -> None:
        self.client, self.model = client, server.model
        if not client.find_tokenizer(server.model):
            raise no_tokenizer(client.config.root)
        self._chat_counter = ChatTokenCounter(client, server.model)
        self._template: dict[tuple[str, ...], int] = {}    # roles -> the template's own tokens
        self._last: tuple[tuple, int] = ((), 0)
        self.context_size = server.context_size or self._learn_context()
        self.server = ServerInfo(server.address, server.model, self.context_size, server.tokenizer)
        self.speed_key = ("office server", server.address, server.model)

    # ---- counting by the server --------------------------------------------------------

    def count(self, text: str) -> int:
        return self.client.count_tokens(text, self.model)

    def count_chat(self, messages: Sequence[ChatMessage]) -> int:
        key = tuple((m.role, m.content) for m in messages)
        if self._last[0] != key:          # start_chat counts the prompt _call just counted
            self._last = (key, self._count_chat(messages))
        return self._last[1]

    def _count_chat(self, messages: Sequence[ChatMessage]) -> int:
        try:
            return self._chat_counter([{"role": m.role, "content": m.content} for m in messages])
        except ServerProtocolError:       # texts only: add the template's measured share
            roles = tuple(m.role for m in messages)
            return self._template_tokens(roles) + sum(self.count(m.content) for m in messages)

    def _template_tokens(self, roles: tuple[str, ...]) -> int:
        if roles not in self._template:
            probe = [{"role": role, "content": PROBE_WORD} for role in roles]
            self._template[roles] = (self._prompt_tokens(probe)
                                     - len(roles) * self.count(PROBE_WORD))
        return self._template[roles]

    def _prompt_tokens(self, messages: list[dict]) -> int:
        """The prompt tokens the server reports for these messages (one token is written)."""
        body = self.client.post_json("/v1/chat/completions", {
            "model": self.model, "messages": messages, "max_tokens": 1, "temperature": 0.0,
            "stream": False})
        usage = body.get("usage") if isinstance(body, dict) else None
        tokens = usage.get("prompt_tokens") if isinstance(usage, dict) else None
        if not isinstance(tokens, int) or tokens <= 0:
            raise ServerProtocolError(msg("remote.no_prompt_size"),
                                      "no usage.prompt_tokens: " + str(body)[:300])
        return tokens

    def _learn_context(self) -> int:
        """The context the server refuses a long prompt with, or what it proved it can read."""
        words = " ".join([PROBE_WORD] * CONTEXT_PROBE_TOKENS)
        try:
            return self._prompt_tokens([{"role": "user", "content": words}])
        except ServerContextFullError as error:
            size = context_size_in(error.details)
            if size:
                return size
            raise ServerProtocolError(msg("remote.no_context_size"), error.details) from error

    def clip(self, text: str, max_tokens: int) -> str:
        return clip_by_words(text, max_tokens, self.count)

    # ---- the answer ---------------------------------------------------------------------

    def start_chat(self, request: ChatRequest, stop: threading.Event) -> RemoteRun:
        counted = self.count_chat(request.messages)     # the server's usage corrects it
        return RemoteRun(self.client, self.server, request, stop, counted)

    def finish_chat(self, run: ChatRun) -> None:
        """Nothing to keep: the server holds its own prompt cache."""
