"""One streamed answer from the server, as the same StepRecords the local engine yields.

Layers as in engine.runtime.generation.generate: ``chat_deltas`` (the server's text pieces and usage)
→ ``RemoteRun.records`` (StepRecords with the gauge's numbers) → ``RemoteRun.text/stats``.
What a server cannot tell us stays honest: VRAM is "on the server" (``on_server``), and
token counts come from the server (its usage report or its tokenizer), never from characters.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from typing import Generator, Iterator

from engine.api import ChatRequest, ResponseStats, ServerInfo, StepRecord, StopReason
from engine.remote.client import ServerClient, StreamAborted, dropped
from engine.runtime.generation.accounting import RunAccount
from engine.remote.server_text import ServerTextParser
from engine.runtime.chat.chat_format import REASONING_EFFORTS, THINKING, ChatFormat
from engine.runtime.generation.loop_guard import LoopGuard, kept_parts, loop_cut

log = logging.getLogger("rotary.remote")

# What a server streams as content when it does not separate reasoning itself (llama-server
# with --reasoning-format none, vLLM without a reasoning parser): <think> sections as text.
# Read by engine/remote/server_text.py, not llama.cpp's parser (that module says why).
SERVER_FORMAT = ChatFormat("think", "<think>", "</think>")
# gpt-oss behind a server that passes harmony through as text ("<|channel|>analysis…").
SERVER_HARMONY = ChatFormat("harmony", thinks_by_default=True)

# The server's finish_reason (OpenAI's words); any other ends the turn too.
_STOP_REASONS = {"stop": StopReason.EOS, "length": StopReason.LENGTH, "eos": StopReason.EOS}


@dataclass(frozen=True)
class Delta:
    text: str = ""
    finish_reason: str | None = None
    reasoning: str = ""             # the server's reasoning_content (vLLM, llama-server)
    usage: dict | None = None       # {"prompt_tokens", "completion_tokens"} when the server sends it


def chat_payload(request: ChatRequest, model: str) -> dict:
    payload = {"model": model, "stream": True,
               "messages": [{"role": m.role, "content": m.content} for m in request.messages],
               "stream_options": {"include_usage": True}}
    if not request.model_sampling:  # else the server applies the model's own defaults
        payload.update(temperature=request.temperature, top_p=request.top_p)
    if request.max_tokens > 0:          # 0: as long as the server's context allows
        payload["max_tokens"] = request.max_tokens
    if request.seed >= 0:
        payload["seed"] = request.seed
    if request.think is not None:   # vLLM and llama-server pass these to the chat template
        payload["chat_template_kwargs"] = {"enable_thinking": request.think}
        payload["reasoning_effort"] = REASONING_EFFORTS[request.think]
    return payload


def chat_deltas(client: ServerClient, payload: dict, partial: list[str],
                stop: threading.Event) -> Generator[Delta, None, None]:
    for chunk in client.stream_chat(payload, partial, stop):
        usage = chunk.get("usage") or None
        choices = chunk.get("choices") or [{}]
        choice = choices[0] if isinstance(choices[0], dict) else {}
        delta = choice.get("delta") or {}
        reasoning = delta.get("reasoning_content") or delta.get("reasoning") or ""
        yield Delta(delta.get("content") or "", choice.get("finish_reason"), usage=usage,
                    reasoning=reasoning if isinstance(reasoning, str) else "")


def _until_aborted(deltas: Iterator[Delta]) -> Iterator[Delta]:
    """The deltas until the request's stop ends the stream (StreamAborted)."""
    try:
        yield from deltas
    except StreamAborted:
        return


class RemoteRun:
    """One answer: iterate ``records()``; ``text`` and ``stats`` are final afterwards.

    A connection lost mid-answer raises ServerDroppedError with the text received so far.
    """

    def __init__(self, client: ServerClient, server: ServerInfo, request: ChatRequest,
                 stop: threading.Event, prompt_tokens: int = 0,
                 started: float | None = None) -> None:
        self.client, self.server, self.request, self.stop = client, server, request, stop
        self.pieces: list[str] = []      # everything received (a dropped stream keeps it)
        self.parser = ServerTextParser(SERVER_FORMAT)
        self.guard = LoopGuard()
        # ``started``: when the request began, counting its prompt included (the user waits)
        self.account = RunAccount(request.request_id, prompt_tokens=prompt_tokens,
                                  started=started or time.perf_counter())
        self.usage: dict | None = None   # the server's token counts, when it sends them
        self._finish_reason: str | None = None
        self._marks: list[tuple[int, int]] = []   # (thinking, answer) characters after each piece
        self._cut: tuple[int, int] | None = None  # a loop: the characters kept
        self.loop_details = ""

    def records(self) -> Iterator[StepRecord]:
        deltas = chat_deltas(self.client, chat_payload(self.request, self.server.model),
                             self.pieces, self.stop)
        try:
            for delta in _until_aborted(deltas):
                if self.stop.is_set():
                    self.account.stop_reason = StopReason.STOPPED
                    return
                if delta.usage:
                    self._take_usage(delta.usage)
                if delta.finish_reason:
                    self._finish_reason = delta.finish_reason
                    self.account.stop_reason = _STOP_REASONS.get(delta.finish_reason,
                                                                  StopReason.EOS)
                if delta.text or delta.reasoning:
                    yield self._record(delta)
                    if self.parser.ended:           # the model began another turn
                        self.account.stop_reason, self._finish_reason = StopReason.EOS, "stop"
                        return
                    if self.guard.add(delta.reasoning + delta.text):
                        self.account.stop_reason = StopReason.LOOP
                        break
        finally:
            deltas.close()           # closing the stream tells the server to stop writing
            self.parser.finish()     # what was held back in case it began a marker
        if self.account.stop_reason == StopReason.LOOP:
            self._cut_repeats()
            return
        if self.stop.is_set():
            self.account.stop_reason = StopReason.STOPPED
            return
        if self._finish_reason is None:
            # llama-cpp-python's server ends an answer this way when another request
            # interrupts it (its default): the answer is cut, not finished.
            raise dropped(self.client.config.root, self.text,
                          "[DONE] without a finish_reason: the server cut the answer off")

    def _take_usage(self, usage: dict) -> None:
        self.usage = usage
        self.account.prompt_tokens = int(usage.get("prompt_tokens") or self.account.prompt_tokens)

    def _cut_repeats(self) -> None:
        """As engine/runtime/generation/generate.py: the answer keeps the repeated block once."""
        guard, kept = self.guard, self.guard.repeats_at
        tail = "".join(self.pieces[kept:])
        shown = self._marks[kept - 1] if kept > 0 else (0, 0)
        self._cut = loop_cut(self.parser, tail, shown)
        self.loop_details = (f"model {self.server.model!r} on {self.server.address}, "
                             f"step {self.request.step}: {guard.said('piece')}")
        log.warning("%s", self.loop_details)

    def _record(self, delta: Delta) -> StepRecord:
        account, now = self.account, time.perf_counter()
        # Reading speed as seen from here: the wait includes the network and the server's queue.
        account.token(now)           # servers stream one chunk per token; usage corrects it
        self.pieces.append(delta.text or delta.reasoning)
        if account.generated == 1 and delta.text.lstrip().startswith(("<|channel|>",
                                                                           "<|start|>")):
            self.parser = ServerTextParser(SERVER_HARMONY, state="header")
        was_thinking = self.parser.state == THINKING
        thinking = self.parser.add_thinking(delta.reasoning)
        more, text = self.parser.feed(delta.text)
        thinking += more
        if was_thinking or thinking:
            account.thinking_tokens += 1
        last = self._marks[-1] if self._marks else (0, 0)
        self._marks.append((last[0] + len(thinking), last[1] + len(text)))
        return StepRecord(
            request_id=self.request.request_id, text=text, thinking=thinking, token=-1,
            generated_tokens=account.generated, prompt_tokens=account.prompt_tokens,
            prompt_tps=account.prompt_tps, decode_tps=account.decode_tps(now),
            ttft_s=account.ttft_s, context_used=account.prompt_tokens + account.generated,
            context_size=self.server.context_size,
            conversation_id=self.request.conversation_id, on_server=True)

    @property
    def text(self) -> str:
        """The answer alone (reasoning and <think> sections apart, turn markers dropped);
        after a loop, up to where the repeats began."""
        return kept_parts(self.parser, self._cut)[1]

    @property
    def thinking(self) -> str:
        return kept_parts(self.parser, self._cut)[0]

    @property
    def stats(self) -> ResponseStats:
        account = self.account
        generated = int((self.usage or {}).get("completion_tokens") or account.generated)
        return account.stats(context_used=account.prompt_tokens + generated,
                             context_size=self.server.context_size, generated=generated)


def conversation_tokens(client: ServerClient, request: ChatRequest, model: str,
                        stop: threading.Event | None = None) -> int:
    """The messages' tokens by the server's tokenizer (the chat template's few are not counted)."""
    return client.count_tokens("\n".join(m.content for m in request.messages), model, stop)
