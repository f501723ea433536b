"""Tokens of a whole chat prompt as the server reads it, its chat template included.

For document summaries: a part must fit the server's context with the instructions around
it. llama.cpp's llama-server renders the template (/apply-template) and counts (/tokenize);
vLLM counts chat messages in /tokenize itself. A server with neither (llama-cpp-python's)
gets a plain error: the caller counts the texts (``ServerClient.count_tokens``) and keeps
its own margin, never a guess dressed up as a count.
"""

from __future__ import annotations

from typing import Callable

from engine.errors import (ServerAuthError, ServerCertificateError, ServerError,
                           ServerProtocolError, ServerUnreachableError)
from engine.messages import msg
from engine.remote.client import ServerClient

Counter = Callable[[ServerClient, list, str], int]


def _llama_server(client: ServerClient, messages: list, model: str) -> int:
    prompt = client.post_json("/apply-template", {"messages": messages}).get("prompt")
    if not isinstance(prompt, str):
        raise ServerProtocolError(msg("remote.cannot_count_conversation"),
                                  "/apply-template rendered no prompt")
    body = client.post_json("/tokenize", {"content": prompt, "add_special": True,
                                          "parse_special": True})
    return _length(body)


def _vllm(client: ServerClient, messages: list, model: str) -> int:
    body = client.post_json("/tokenize", {"model": model, "messages": messages,
                                          "add_generation_prompt": True})
    return _length(body)


def _length(body) -> int:
    tokens = body.get("tokens") if isinstance(body, dict) else None
    if not isinstance(tokens, list) or not tokens:
        raise ServerProtocolError(msg("remote.no_tokens"), str(body)[:300])
    return len(tokens)


FAMILIES: tuple[tuple[str, Counter], ...] = (("llama-server", _llama_server), ("vllm", _vllm))


def find_chat_counter(client: ServerClient, model: str) -> Counter | None:
    probe = [{"role": "user", "content": "Hello"}]
    for _name, counter in FAMILIES:
        try:
            counter(client, probe, model)
            return counter
        except (ServerUnreachableError, ServerCertificateError, ServerAuthError):
            raise
        except ServerError:        # 404/400/422: not this family
            continue
    return None


class ChatTokenCounter:
    """Finds the server's way once, then counts with it (thread-safe: no shared state
    besides the found function, which is set once)."""

    def __init__(self, client: ServerClient, model: str) -> None:
        self.client, self.model = client, model
        self._counter: Counter | None = None
        self._probed = False

    def __call__(self, messages: list[dict]) -> int:
        if not self._probed:
            self._counter, self._probed = find_chat_counter(self.client, self.model), True
        if self._counter is None:
            raise ServerProtocolError(
                msg("remote.cannot_count_conversation"),
                f"no /apply-template or chat /tokenize at {self.client.config.root}")
        return self._counter(self.client, messages, self.model)
