"""One streamed answer from the server, as the same StepRecords the local engine yields.

Layers as in engine.runtime.generate: ``chat_deltas`` (the server's text pieces and usage)
→ ``RemoteRun.records`` (StepRecords with the gauge's numbers) → ``RemoteRun.text/stats``.
What a server cannot tell us stays honest: VRAM is "on the server" (``on_server``), and
token counts come from the server (its usage report or its tokenizer), never from characters.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Generator, Iterator

from engine.api import ChatRequest, ResponseStats, ServerInfo, StepRecord
from engine.remote.client import ServerClient, StreamAborted, dropped
from engine.runtime.requests import CancelToken

_STOP_REASONS = {"stop": "eos", "length": "length", "eos": "eos"}


@dataclass(frozen=True)
class Delta:
    text: str = ""
    finish_reason: str | None = None
    usage: dict | None = None       # {"prompt_tokens", "completion_tokens"} when the server sends it


def chat_payload(request: ChatRequest, model: str) -> dict:
    payload = {"model": model, "stream": True,
               "temperature": request.temperature, "top_p": request.top_p,
               "messages": [{"role": m.role, "content": m.content} for m in request.messages],
               "stream_options": {"include_usage": True}}
    if request.max_tokens > 0:          # 0: as long as the server's context allows
        payload["max_tokens"] = request.max_tokens
    if request.seed >= 0:
        payload["seed"] = request.seed
    return payload


def chat_deltas(client: ServerClient, payload: dict, partial: list[str],
                stop: CancelToken) -> Generator[Delta, None, None]:
    for chunk in client.stream_chat(payload, partial, stop):
        usage = chunk.get("usage") or None
        choices = chunk.get("choices") or [{}]
        choice = choices[0] if isinstance(choices[0], dict) else {}
        text = (choice.get("delta") or {}).get("content") or ""
        yield Delta(text, choice.get("finish_reason"), usage)


def _until_aborted(deltas: Iterator[Delta]) -> Iterator[Delta]:
    """The deltas until the request's stop ends the stream (StreamAborted)."""
    try:
        yield from deltas
    except StreamAborted:
        return


@dataclass
class _Counts:
    prompt_tokens: int = 0
    generated: int = 0
    started: float = field(default_factory=time.perf_counter)
    first_token_at: float = 0.0
    last_token_at: float = 0.0
    stop_reason: str = "length"
    usage: dict | None = None


class RemoteRun:
    """One answer: iterate ``records()``; ``text`` and ``stats`` are final afterwards.

    A connection lost mid-answer raises ServerDroppedError with the text received so far.
    """

    def __init__(self, client: ServerClient, server: ServerInfo, request: ChatRequest,
                 stop: CancelToken, prompt_tokens: int = 0,
                 started: float | None = None) -> None:
        self.client, self.server, self.request, self.stop = client, server, request, stop
        self.pieces: list[str] = []
        # ``started``: when the request began, counting its prompt included (the user waits)
        self.counts = _Counts(prompt_tokens=prompt_tokens, started=started or time.perf_counter())
        self._finish_reason: str | None = None

    def records(self) -> Iterator[StepRecord]:
        deltas = chat_deltas(self.client, chat_payload(self.request, self.server.model),
                             self.pieces, self.stop)
        try:
            for delta in _until_aborted(deltas):
                if self.stop.is_set():
                    self.counts.stop_reason = "stopped"
                    return
                if delta.usage:
                    self._take_usage(delta.usage)
                if delta.finish_reason:
                    self._finish_reason = delta.finish_reason
                    self.counts.stop_reason = _STOP_REASONS.get(delta.finish_reason, "eos")
                if delta.text:
                    yield self._record(delta.text)
        finally:
            deltas.close()           # closing the stream tells the server to stop writing
        if self.stop.is_set():
            self.counts.stop_reason = "stopped"
            return
        if self._finish_reason is None:
            # llama-cpp-python's server ends an answer this way when another request
            # interrupts it (its default): the answer is cut, not finished.
            raise dropped(self.client.config.root, self.text,
                          "[DONE] without a finish_reason: the server cut the answer off")

    def _take_usage(self, usage: dict) -> None:
        self.counts.usage = usage
        self.counts.prompt_tokens = int(usage.get("prompt_tokens") or self.counts.prompt_tokens)

    def _record(self, text: str) -> StepRecord:
        counts, now = self.counts, time.perf_counter()
        if counts.generated == 0:
            counts.first_token_at = now
        counts.generated += 1        # servers stream one chunk per token; usage corrects it
        counts.last_token_at = now
        self.pieces.append(text)
        return StepRecord(
            request_id=self.request.request_id, text=text, token=-1,
            generated_tokens=counts.generated, prompt_tokens=counts.prompt_tokens,
            prompt_tps=self._prompt_tps(), decode_tps=self._decode_tps(now),
            ttft_s=counts.first_token_at - counts.started,
            context_used=counts.prompt_tokens + counts.generated,
            context_size=self.server.context_size,
            conversation_id=self.request.conversation_id, on_server=True)

    def _prompt_tps(self) -> float:
        # Reading speed as seen from here: includes the network and the server's queue.
        ttft = self.counts.first_token_at - self.counts.started
        return self.counts.prompt_tokens / ttft if ttft > 0 else 0.0

    def _decode_tps(self, now: float) -> float:
        elapsed = now - self.counts.first_token_at
        return (self.counts.generated - 1) / elapsed if elapsed > 0 else 0.0

    @property
    def text(self) -> str:
        return "".join(self.pieces)

    @property
    def stats(self) -> ResponseStats:
        counts, ended = self.counts, time.perf_counter()
        usage = counts.usage or {}
        generated = int(usage.get("completion_tokens") or counts.generated)
        return ResponseStats(
            request_id=self.request.request_id, prompt_tokens=counts.prompt_tokens,
            generated_tokens=generated, prompt_tps=self._prompt_tps() if counts.generated else 0.0,
            decode_tps=self._decode_tps(counts.last_token_at) if counts.generated > 1 else 0.0,
            ttft_s=counts.first_token_at - counts.started if counts.generated else 0.0,
            total_s=ended - counts.started, context_used=counts.prompt_tokens + generated,
            context_size=self.server.context_size, stop_reason=counts.stop_reason)


def conversation_tokens(client: ServerClient, request: ChatRequest, model: str,
                        stop: CancelToken | None = None) -> int:
    """The messages' tokens by the server's tokenizer (the chat template's few are not counted)."""
    return client.count_tokens("\n".join(m.content for m in request.messages), model, stop)
