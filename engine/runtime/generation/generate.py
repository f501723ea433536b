"""Layered streaming generation, after mlx-lm: ``generate_step`` → ``stream_generate`` → ``generate``.

``generate_step`` yields raw tokens with their routing; ``stream_generate`` adds the
chat template, text pieces and the numbers the gauge shows; ``generate`` collects
a whole answer. All of it runs on the engine thread that owns the NativeModel.
"""

from __future__ import annotations

import codecs
import dataclasses
import logging
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence, TypeVar

from engine.api import ChatMessage, ContextReport, ResponseStats, Reuse, StepRecord, StopReason
from engine.errors import ContextFullError, GenerationError
from engine.messages import msg
from engine.runtime.chat import chat_layer
from engine.runtime.generation.accounting import RunAccount
from engine.runtime.chat.chat_format import THINKING, ChatFormat, detect_format
from engine.runtime.chat.chat_layer import (ChatLayerError, ChatTemplates, LayerParser, choose_format,
                                      reply_reader)
from engine.runtime.conversation.context_window import (Window, anchor, closing_text, fit, last_turn, may_think,
                                           resume, room_for, thinking_budget)
from engine.runtime.conversation.conversation_memory import ConversationMemory, Reused
from engine.runtime.llama_model import NativeModel, Sampling
from engine.runtime.generation.loop_guard import LoopGuard, kept_parts, loop_cut
from engine.runtime.experts.routing import TokenRouting
from engine.runtime.experts.slot_cache import TokenResidency

log = logging.getLogger("rotary.generate")
_T = TypeVar("_T")
# Told after each micro-batch of the prompt: (tokens read so far, tokens to read). The engine
# turns it into PromptProgress events (engine/runtime/generation/prompt_progress.py).
OnPrompt = Callable[[int, int], None]


@dataclass(frozen=True)
class RawStep:
    token: int
    routing: TokenRouting | None   # the forward pass whose logits produced ``token``
    residency: TokenResidency | None  # what the slot cache did in that forward pass
    prompt_tokens: int             # prompt tokens actually read (after prefix reuse)
    prompt_s: float
    ttft_s: float
    reused: Reused = Reused(0, Reuse.NONE)   # the prompt's tokens not read again, and why


def generate_step(model: NativeModel, prompt: Sequence[int], max_tokens: int,
                  stop: threading.Event, steer: list[int] | None = None,
                  on_prompt: OnPrompt | None = None, memory: ConversationMemory | None = None,
                  entered: Reuse = Reuse.IN_PLACE, checkpoint_back: int = 1) -> Iterator[RawStep]:
    """Read the prompt in batches, then sample one token at a time until told to stop.

    ``steer``: tokens the consumer puts there between two steps are read after the last
    sampled token, as if the model had written them (the thinking budget's closing words).
    ``on_prompt``: told how much of the prompt is read, after each micro-batch.
    ``memory``: the conversation's kept state (engine/runtime/conversation/conversation_memory.py): what
    it reuses, and its checkpoint taken ``checkpoint_back`` tokens before the prompt's end,
    where the next prompt will leave this one."""
    started = time.perf_counter()
    reused = memory.reuse(prompt, entered) if memory is not None else _reuse_in_place(model, prompt)
    to_read = list(prompt[reused.tokens:])
    # One line an answer: what was kept and what is read (the app's log shows why a turn was slow).
    log.info("prompt of %d tokens: %d reused (%s), %d to read", len(prompt), reused.tokens,
             reused.source.value, len(to_read))
    split = max(0, memory.checkpoint_at(prompt, checkpoint_back) - reused.tokens) \
        if memory is not None else len(to_read)
    read = _counted(on_prompt, len(to_read))
    routing = _read_prompt(model, to_read[:split], stop, read)
    if memory is not None and not stop.is_set():
        memory.take_checkpoint()
    routing = _read_prompt(model, to_read[split:], stop, read) or routing
    model.after_prompt()
    prompt_s = time.perf_counter() - started
    for _ in range(max_tokens):
        if stop.is_set() or len(model.tokens) >= model.n_ctx:
            return
        token = model.sample()
        yield RawStep(token, routing, model.last_residency, len(to_read), prompt_s,
                      time.perf_counter() - started, reused)
        if model.is_end_of_generation(token):
            return
        routing = _decode(model, [token], step=True)
        if steer:
            routing = _read_prompt(model, steer[:model.n_ctx - len(model.tokens)], stop) \
                or routing
            steer.clear()


def _reuse_in_place(model: NativeModel, prompt: Sequence[int]) -> Reused:
    kept = model.reuse_prefix(list(prompt))
    return Reused(kept, Reuse.IN_PLACE if kept else Reuse.NONE)


def _counted(on_prompt: OnPrompt | None, total: int) -> Callable[[int], None] | None:
    """``on_prompt`` told (read so far, ``total``) as batches of the prompt are read, over
    however many ``_read_prompt`` calls read it; told (0, total) now, as reading begins."""
    if on_prompt is None:
        return None
    done = [0]
    on_prompt(0, total)

    def read(batch: int) -> None:
        done[0] += batch
        on_prompt(done[0], total)
    return read


def _read_prompt(model: NativeModel, tokens: list[int], stop: threading.Event,
                 read: Callable[[int], None] | None = None):
    routing = None
    for start in range(0, len(tokens), model.recipe.n_batch):
        if stop.is_set():
            return None
        batch = tokens[start:start + model.recipe.n_batch]
        routing = _decode(model, batch)
        if read is not None:
            read(len(batch))
    return routing


def _decode(model: NativeModel, tokens: list[int], step: bool = False) -> TokenRouting | None:
    recorder = model.recorder
    if recorder is not None:
        recorder.begin()
    try:
        model.decode(tokens, step)
    except RuntimeError as error:
        raise GenerationError(msg("runtime.stopped_unexpectedly"), str(error)) from error
    return recorder.take() if recorder is not None else None


def _syncs(step: RawStep) -> int:
    """Host waits of this token's forward pass besides its logits: each node the recorder
    claimed made the scheduler compute up to it and synchronise; plus the slot cache's."""
    claimed = 0 if step.routing is None else sum(
        len(per_layer) for per_layer in (step.routing.ids, step.routing.weights,
                                         step.routing.hidden, step.routing.probs))
    return claimed + (step.residency.host_waits if step.residency is not None else 0)


# ---- stream_generate --------------------------------------------------------------------

def model_chat_layer(model: NativeModel) -> ChatTemplates:
    """llama.cpp's chat layer for the model's template, parsed once and closed with the model.
    A GGUF without a template (a base model) gets ChatML, as llama-server gives it. Without
    the shim (an incomplete install) or a template llama.cpp refuses: a GenerationError."""
    template = model.metadata().get("tokenizer.chat_template") or ""

    def make() -> ChatTemplates:
        if chat_layer.load() is None:
            raise GenerationError(msg("runtime.chat_layer_missing"),
                                  f"no librotary_chat ({chat_layer.LIB_ENV} or "
                                  f"<backends>/{chat_layer.FOLDER}/)")
        try:
            return ChatTemplates(template if template.strip() else "chatml",
                                 _token_text(model, "bos"), _token_text(model, "eos"))
        except ChatLayerError as error:
            raise GenerationError(msg("runtime.chat_format_unsupported"),
                                  f"llama.cpp's chat layer refused the template: {error}") \
                from error
    layer = model.owned("chat_layer", make)
    assert isinstance(layer, ChatTemplates)
    return layer


def chat_format(model: NativeModel) -> ChatFormat:
    """How this model writes thinking and answers: llama.cpp's reading of its template, or
    Rotary's for the one family llama.cpp does not read (chat_layer.choose_format)."""
    own = detect_format(model.metadata().get("tokenizer.chat_template"))
    return _layer_call(lambda: choose_format(model_chat_layer(model), own))


def render_chat(model: NativeModel, messages: Sequence[ChatMessage],
                think: bool | None = None) -> str:
    """The GGUF's own chat template applied by llama.cpp's chat layer, as llama-server does.

    ``think``: the user's "Think before answering" for templates that take it (None: thinking
    where the template has it, as llama-server). Past answers go back as their text alone:
    their thinking is never sent again (the Qwen, GLM and harmony templates drop it too)."""
    layer = model_chat_layer(model)
    chat = [{"role": m.role, "content": m.content} for m in messages]
    return _layer_call(lambda: layer.render(chat, think).prompt)


def prepare_reply(model: NativeModel, messages: Sequence[ChatMessage], think: bool | None,
                  fmt: ChatFormat) -> tuple[str, LayerParser]:
    """The prompt (llama.cpp's rendering) and the parser that splits the reply to it."""
    layer = model_chat_layer(model)
    chat = [{"role": m.role, "content": m.content} for m in messages]
    return _layer_call(lambda: reply_reader(layer, fmt, chat, think))


def _layer_call(call: Callable[[], _T]) -> _T:
    """A conversation llama.cpp's chat layer refuses is a GenerationError, said in words."""
    try:
        return call()
    except ChatLayerError as error:
        raise GenerationError(msg("runtime.chat_format_unsupported"),
                              f"llama.cpp's chat layer: {error}") from error


def _token_text(model: NativeModel, which: str) -> str:
    token = getattr(model.model, f"token_{which}")()
    return model.model.token_get_text(token) if token >= 0 else ""


@dataclass
class StreamState(RunAccount):
    """The answer's accounting, and what only a local run counts."""

    answer_tokens: int = 0        # tokens that wrote answer text
    expert_hits: int = 0          # slot cache, over this answer
    expert_misses: int = 0


class GenerationRun:
    """One answer: iterate ``records()`` for StepRecords; ``stats`` is final afterwards."""

    def __init__(self, model: NativeModel, messages: Sequence[ChatMessage], max_tokens: int,
                 sampling: Sampling, stop: threading.Event, request_id: int,
                 think: bool | None = None, step: str = "chat", stop_loops: bool = True,
                 on_prompt: OnPrompt | None = None, memory: ConversationMemory | None = None,
                 conversation_id: int | None = None) -> None:
        self.model, self.stop, self.max_tokens, self.step = model, stop, max_tokens, step
        self.stop_loops, self.on_prompt = stop_loops, on_prompt
        self.memory, self.think = memory, think
        self.conversation_id, self.entered = conversation_id, Reuse.IN_PLACE
        if memory is not None:       # the context holds this conversation's state from now
            self.entered = memory.switch_to(conversation_id)
        self.format = chat_format(model)
        # The family from the template's own markup: llama.cpp names its formats by parser
        # ("llama.cpp:peg-native" for gpt-oss), which closing_text and may_think do not know.
        family = detect_format(model.metadata().get("tokenizer.chat_template")).family
        self.room = room_for(model.n_ctx, max_tokens, may_think(self.format, think, family))
        tried: dict[int, tuple[str, list[int]]] = {}    # kept messages are system + a suffix

        def count(kept: Sequence[ChatMessage]) -> int:
            text = render_chat(model, kept, think)
            tried[len(kept)] = (text, model.tokenize(text))
            return len(tried[len(kept)][1])

        self.window = self._fit(messages, count)
        rendered, self.parser = prepare_reply(model, self.window.messages, think, self.format)
        counted_text, counted = tried[len(self.window.messages)]
        self.prompt = counted if counted_text == rendered else model.tokenize(rendered)
        self.guard = LoopGuard()
        if len(self.prompt) >= model.n_ctx:
            self.parser.close()
            raise ContextFullError(msg("runtime.conversation_too_long"),
                                   f"{len(self.prompt)} prompt tokens, context {model.n_ctx}")
        self.closing, self.closing_marker = closing_text(family, self.format.think_close)
        self.thinking_budget = thinking_budget(
            model.n_ctx, len(self.prompt), self.room, len(model.tokenize(self.closing)))
        self.thinking_stopped = False
        self._steer: list[int] = []
        self._answer_tokens = 0          # the answer's text in tokens, once it has ended
        self._raw: list[bytes] = []      # each token's bytes, and the (thinking, answer)
        self._marks: list[tuple[int, int]] = []   # characters shown after it
        self._cut: tuple[int, int] | None = None  # a loop: (thinking, answer) characters kept
        self.loop_details = ""           # a loop: where it began and what was cut, for the log
        model.set_sampling(sampling)
        self.state = StreamState(request_id)
        self.routing: list[TokenRouting] = []
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def _fit(self, messages: Sequence[ChatMessage], count) -> Window:
        """The window: from where this conversation's last one started (the engine keeps
        it, so a caller that sends the whole conversation gets the app's window)."""
        memory, key = self.memory, self.conversation_id
        if memory is None:
            return fit(messages, count, self.room)
        messages, skipped = resume(messages, memory.window(key))
        window = fit(messages, count, self.room)
        left_out = window.left_out + skipped
        memory.keep_window(key, anchor(window.messages, left_out))
        return dataclasses.replace(window, left_out=left_out)

    def _checkpoint_back(self) -> int:
        """How many tokens before this prompt's end the next turn's prompt will leave it: the
        template's generation prompt that the answer, rendered again, replaces (Qwen3.5's
        "<think>\\n" after the assistant's header), found by rendering this turn's last
        messages with and without a stand-in answer; one more for a token that may merge."""
        if self.memory is None or not self.memory.recurrent:
            return 1
        model, last = self.model, last_turn(self.window.messages)
        try:
            alone = model.tokenize(render_chat(model, last, self.think))
            answered = model.tokenize(render_chat(model, last + (
                ChatMessage("assistant", "Answer."), ChatMessage("user", "Next.")), self.think))
        except Exception as error:  # noqa: BLE001 - a template refusing the stand-in: one token
            log.info("checkpoint one token before the prompt's end: %s", error)
            return 1
        same = next((i for i, (a, b) in enumerate(zip(alone, answered)) if a != b),
                    min(len(alone), len(answered)))
        return len(alone) - same + 1

    def records(self) -> Iterator[StepRecord]:
        # ``max_tokens`` is the answer's length: thinking comes on top of it, bounded by the
        # context (a thinking model often thinks longer than its answer).
        limit = self.model.n_ctx if self.format.can_think else self.max_tokens
        try:
            for step in generate_step(self.model, self.prompt, limit, self.stop, self._steer,
                                      self.on_prompt, self.memory, self.entered,
                                      self._checkpoint_back()):
                if self.model.is_end_of_generation(step.token):
                    self.state.stop_reason = StopReason.EOS
                    break
                yield self._record(step)
                if self.parser.state == THINKING and not self.thinking_stopped \
                        and self.state.thinking_tokens >= self.thinking_budget:
                    self._stop_thinking()
                if self.parser.ended:         # the model began a new turn: it is over here
                    self.state.stop_reason = StopReason.EOS
                    break
                if self.guard.add(step.token, self._raw[-1].decode("utf-8", "replace")) \
                        and self.stop_loops:
                    self.state.stop_reason = StopReason.LOOP
                    break
                if self.state.answer_tokens >= self.max_tokens:
                    break
            if self.stop.is_set():
                self.state.stop_reason = StopReason.STOPPED
            self.parser.feed(self._utf8.decode(b"", final=True))
            self.parser.finish()
            if self.state.stop_reason == StopReason.LOOP:
                self._cut_repeats()
        finally:
            self.parser.close()    # llama.cpp's parser state is freed now, not by GC
        self._answer_tokens = len(self.model.tokenize(self.text, special=False)) \
            if self.text else 0

    def _stop_thinking(self) -> None:
        """The thinking budget is spent: the closing words are read next, as if the model
        had written them, and the reply parser reads their marker (engine/runtime/
        conversation/context_window.py)."""
        self.thinking_stopped = True
        self._steer.extend(self.model.tokenize(self.closing))
        self.parser.feed(self._utf8.decode(b"", final=True) + self.closing_marker)

    def _cut_repeats(self) -> None:
        """A loop: the answer keeps what came before the repeats, which holds the repeated
        block once. The repeats' own text is the answer's (or thinking's) tail, whatever the
        parser held back while it streamed; where it is not, the characters shown then."""
        guard, kept = self.guard, self.guard.repeats_at
        tail = b"".join(self._raw[kept:]).decode("utf-8", errors="replace")
        shown = self._marks[kept - 1] if kept > 0 else (0, 0)
        self._cut = loop_cut(self.parser, tail, shown)
        meta = self.model.metadata()
        self.loop_details = (f"model {meta.get('general.name') or self.model.path!r}, "
                             f"step {self.step}: {guard.said()}")
        log.warning("%s", self.loop_details)

    def _record(self, step: RawStep) -> StepRecord:
        state, now = self.state, time.perf_counter()
        if state.generated == 0:
            state.prompt_tokens = step.prompt_tokens
            state.reused_tokens, state.reuse = step.reused.tokens, step.reused.source
        state.token(now, step.prompt_s, step.ttft_s)
        if step.routing is not None:
            self.routing.append(step.routing)
        special = self.model.is_control(step.token)
        raw = self.model.token_bytes(step.token, special=special)
        was_thinking = self.parser.state == THINKING
        thinking, piece = self.parser.feed(raw.decode("utf-8", errors="replace") if special
                                           else self._utf8.decode(raw), special)
        if was_thinking or thinking:
            state.thinking_tokens += 1
        state.answer_tokens += bool(piece)
        self._raw.append(raw)
        last = self._marks[-1] if self._marks else (0, 0)
        self._marks.append((last[0] + len(thinking), last[1] + len(piece)))
        return StepRecord(
            request_id=state.request_id, text=piece, thinking=thinking, token=step.token,
            generated_tokens=state.generated, prompt_tokens=state.prompt_tokens,
            prompt_tps=state.prompt_tps, decode_tps=state.decode_tps(now), ttft_s=state.ttft_s,
            context_used=len(self.model.tokens) + 1, context_size=self.model.n_ctx,
            syncs=_syncs(step),
            **self._residency(step.residency))

    def _residency(self, residency: TokenResidency | None) -> dict:
        cache = self.model.slot_cache
        if cache is None:
            return {}
        state = self.state
        if residency is not None:
            state.expert_hits += residency.hits
            state.expert_misses += residency.misses
        seen = state.expert_hits + state.expert_misses
        return dict(expert_hits=residency.hits if residency else 0,
                    expert_misses=residency.misses if residency else 0,
                    expert_uploaded_bytes=residency.uploaded_bytes if residency else 0,
                    expert_layer_hits=residency.layer_hits if residency else None,
                    expert_hit_rate=state.expert_hits / seen if seen else None,
                    resident_experts=cache.resident())

    @property
    def context_report(self) -> ContextReport:
        """What the model saw of the conversation, and what the next turn will send: the
        prompt plus the answer's text (its thinking is never sent again)."""
        return ContextReport(left_out=self.window.left_out,
                             kept_tokens=len(self.prompt) + self._answer_tokens,
                             context_size=self.model.n_ctx,
                             thinking_stopped=self.thinking_stopped)

    @property
    def text(self) -> str:
        """The answer alone: no thinking, no turn markers, no control tokens; after a loop,
        up to where the repeats began."""
        return kept_parts(self.parser, self._cut)[1]

    @property
    def thinking(self) -> str:
        return kept_parts(self.parser, self._cut)[0]

    @property
    def stats(self) -> ResponseStats:
        # Writing time runs until now: it includes the pass that produced the end of turn.
        return self.state.stats(context_used=len(self.model.tokens), context_size=self.model.n_ctx,
                                decode_until=time.perf_counter())


def stream_generate(model: NativeModel, messages: Sequence[ChatMessage], *, max_tokens: int = 256,
                    sampling: Sampling = Sampling(), stop: threading.Event | None = None,
                    request_id: int = 0) -> Iterator[StepRecord]:
    run = GenerationRun(model, messages, max_tokens, sampling, stop or threading.Event(),
                        request_id)
    yield from run.records()


def generate(model: NativeModel, messages: Sequence[ChatMessage], **kwargs) -> tuple[str, ResponseStats]:
    stop = kwargs.pop("stop", None) or threading.Event()
    run = GenerationRun(model, messages, kwargs.pop("max_tokens", 256),
                        kwargs.pop("sampling", Sampling()), stop, kwargs.pop("request_id", 0))
    for _ in run.records():
        pass
    return run.text, run.stats
