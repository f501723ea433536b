"""Reading ahead while the user types: after an answer, while the engine thread has nothing
to do, the conversation's state is extended with the answer as the template will render it
again and the next user message's header; sending then reads only the user's own words.

It runs in small pieces between which the engine thread looks at its queue, so any request
waits at most one piece (about a quarter of a second of reading, by the speed this answer's
prompt was read at); the request then finds the context as far as the reading got, and the
conversation memory (engine/runtime/conversation/conversation_memory.py) uses what matches. A recurrent
model keeps a checkpoint one token before the end of what was read ahead, so that a next
prompt which tokenises its last header token differently still uses it.

When the next message would not fit (a message as long as the last one), the window slides
now, to half the room as it would at the next turn, and the new window is what is read
ahead: the slide is read while the user types instead of after they send. The engine keeps
that window's start, so the next turn starts there (its report says how many messages were
left out, and the app moves its own start).
"""

from __future__ import annotations

import logging

from typing import Sequence

from engine.api import ChatMessage
from engine.runtime.conversation.context_window import anchor, fit
from engine.runtime.conversation.conversation_memory import ConversationMemory
from engine.runtime.generation.generate import GenerationRun, render_chat

log = logging.getLogger("rotary.conversation_state")

NEXT = "ROTARYNEXTUSERMESSAGE"    # stands for the words the user has not written yet
PIECE_S = 0.25                    # reading between two looks at the queue, at most
MIN_PIECE = 16
MIN_NEW = 16                      # a next message's markup (end of turn, headers), at most


def next_turn_prefix(run: GenerationRun) -> list[int] | None:
    """The next turn's prompt up to where the user's words will go (after a slide, where the
    next message would not fit), or None where that is not known: no answer, or a template
    that does not show the marker."""
    if not run.text:
        return None
    messages = run.window.messages + (ChatMessage("assistant", run.text),
                                      ChatMessage("user", NEXT))
    tokens = _prefix(run, messages)
    expected = _last_message_tokens(run) + MIN_NEW      # its words, its turn's markup
    if tokens is None or len(tokens) + expected <= run.room.limit:
        return tokens
    window = fit(messages, lambda kept: _count(run, kept) + expected, run.room)
    if run.memory is not None:
        run.memory.keep_window(run.conversation_id,
                               anchor(window.messages, run.window.left_out + window.left_out))
    return _prefix(run, window.messages)


def _prefix(run: GenerationRun, messages: Sequence[ChatMessage]) -> list[int] | None:
    text = render_chat(run.model, messages, run.think)
    at = text.find(NEXT)
    return run.model.tokenize(text[:at]) if at > 0 else None


def _count(run: GenerationRun, messages: Sequence[ChatMessage]) -> int:
    return len(run.model.tokenize(render_chat(run.model, messages, run.think)))


def _last_message_tokens(run: GenerationRun) -> int:
    users = [m for m in run.window.messages if m.role == "user"]
    return len(run.model.tokenize(users[-1].content, special=False)) if users else 0


def piece_for(prompt_tps: float, n_ubatch: int) -> int:
    """Tokens a piece reads: about PIECE_S of reading at this answer's prompt speed."""
    return max(MIN_PIECE, min(n_ubatch, int(prompt_tps * PIECE_S)))


class ReadAhead:
    """One conversation's reading ahead: ``step()`` reads one piece; False when done."""

    def __init__(self, memory: ConversationMemory, key: int, tokens: list[int],
                 piece: int = MIN_PIECE) -> None:
        self.memory, self.key, self.tokens, self.piece = memory, key, tokens, piece
        self.checkpoint_at = memory.checkpoint_at(tokens)
        self.started = False

    def step(self) -> bool:
        memory, model = self.memory, self.memory.model
        if memory.current != self.key:
            return False
        if not self.started:
            self.started = True
            memory.reuse(self.tokens)
        at = len(model.tokens)
        if at >= len(self.tokens):
            return False
        end = min(len(self.tokens), at + self.piece,
                  self.checkpoint_at if at < self.checkpoint_at else len(self.tokens))
        try:
            self._decode(self.tokens[at:end])
        except RuntimeError as error:
            log.warning("reading ahead stopped: %s", error)
            memory.forget_context()
            return False
        if len(model.tokens) == self.checkpoint_at:
            memory.take_checkpoint()
        return len(model.tokens) < len(self.tokens)

    def _decode(self, tokens: list[int]) -> None:
        model = self.memory.model
        recorder = model.recorder
        if recorder is not None:       # routing of text read ahead is nobody's answer
            recorder.begin()
        model.decode(tokens)
        self.memory.costs.ahead_tokens += len(tokens)
        if recorder is not None:
            recorder.take()


def read_ahead_for(run: GenerationRun | None) -> ReadAhead | None:
    """The reading ahead after this answer, or None (no conversation, nothing to read)."""
    if run is None or run.memory is None or run.conversation_id is None:
        return None
    try:
        tokens = next_turn_prefix(run)
    except Exception as error:  # noqa: BLE001 - a template that refuses the marker: no reading ahead
        log.info("no reading ahead: %s", error)
        return None
    if tokens is None:
        return None
    return ReadAhead(run.memory, run.conversation_id, tokens,
                     piece_for(run.stats.prompt_tps, run.model.recipe.n_ubatch))
