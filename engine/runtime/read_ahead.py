"""Reading ahead while the user types: after an answer, while the engine thread has nothing
to do, the conversation's state is extended with the answer as the template will render it
again and the next user message's header; sending then reads only the user's own words.

It runs in small pieces between which the engine thread looks at its queue, so any request
waits at most one piece (a few dozen tokens); the request then finds the context as far as
the reading got, and the conversation memory (engine/runtime/conversation_memory.py) uses
what matches. A recurrent model keeps a checkpoint one token before the end of what was read
ahead, so that a next prompt which tokenises its last header token differently still uses it.
"""

from __future__ import annotations

import logging

from engine.api import ChatMessage
from engine.runtime.conversation_memory import ConversationMemory
from engine.runtime.generate import GenerationRun, render_chat

log = logging.getLogger("rotary.conversation_state")

NEXT = "ROTARYNEXTUSERMESSAGE"    # stands for the words the user has not written yet
PIECE = 16                        # tokens read between two looks at the queue
MIN_NEW = 16                      # room a next message needs before the window slides


def next_turn_prefix(run: GenerationRun) -> list[int] | None:
    """The next turn's prompt up to where the user's words will go, or None where that is not
    known: no answer, a template that does not show the marker, or a window that will slide."""
    if not run.text:
        return None
    messages = run.window.messages + (ChatMessage("assistant", run.text),
                                      ChatMessage("user", NEXT))
    text = render_chat(run.model, messages, run.think)
    at = text.find(NEXT)
    if at <= 0:
        return None
    tokens = run.model.tokenize(text[:at])
    return tokens if len(tokens) + MIN_NEW <= run.room.limit else None


class ReadAhead:
    """One conversation's reading ahead: ``step()`` reads one piece; False when done."""

    def __init__(self, memory: ConversationMemory, key: int, tokens: list[int],
                 piece: int = PIECE) -> None:
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
    return ReadAhead(run.memory, run.conversation_id, tokens)
