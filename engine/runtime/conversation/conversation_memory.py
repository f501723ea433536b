"""The loaded model's memory of each conversation, on the engine thread: which conversation
the context holds, checkpoints where its prompts ended, its window's start, and its state
kept in RAM and on disk when it is left (engine/runtime/conversation/conversation_state.py).

A turn's prompt is the last prompt, the answer as the template renders it again (without
thinking) and the new message: it extends the last prompt, not what the model wrote. An
attention model cuts its KV cache after the common prefix. A recurrent or hybrid model
cannot cut its state back, so after each prompt is read (one token short of its end, so
that the same prompt asked again can use it too) its partial state is kept as a
checkpoint; the next turn restores it, cuts the attention KV after it and reads only the
rest. Before any restore the prompt's tokens are compared with the checkpoint's; on any
mismatch everything is read again and the log says why. llama-server's context
checkpoints (``--ctx-checkpoints``) work the same way inside one slot.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Sequence

from engine.api import Reuse
from engine.native.backends import selected
from engine.runtime.conversation.conversation_state import (MAX_CHECKPOINTS, Checkpoint, DiskStore, RamStore,
                                               SavedState, fingerprint, ram_budget, token_digest)
from engine.runtime.llama_model import NativeModel, common_prefix

log = logging.getLogger("rotary.conversation_state")

# Test-only mutation: restore checkpoints this many tokens away from where they were taken
# (tests/engine/test_conversation_state.py shows the exactness tests catch it).
POSITION_SKEW = 0


@dataclass(frozen=True)
class Reused:
    tokens: int                  # prompt tokens the context already holds
    source: Reuse


@dataclass
class StateCosts:
    """What keeping states cost so far (for the benchmark and the log)."""

    saves: int = 0
    save_s: float = 0.0
    restores: int = 0
    restore_s: float = 0.0
    checkpoints: int = 0
    checkpoint_s: float = 0.0
    checkpoint_bytes: int = 0
    ahead_tokens: int = 0                                   # read ahead while the user typed
    state_bytes: list[int] = field(default_factory=list)   # each whole state kept


class ConversationMemory:
    """One loaded model's conversations. ``None`` is a request of no conversation (a
    document step): it uses the context as it finds it and is never kept."""

    def __init__(self, model: NativeModel, ram: RamStore, disk: DiskStore | None = None) -> None:
        self.model, self.ram, self.disk = model, ram, disk
        self.recurrent = model.recurrent
        self.current: int | None = None
        self.checkpoints: list[Checkpoint] = []
        self.windows: dict[int, tuple[str, ...]] = {}
        self.costs = StateCosts()

    # ---- switching conversations -----------------------------------------------------

    def switch_to(self, key: int | None) -> Reuse:
        """Make the context hold ``key``'s conversation: the one it holds is kept first.
        Returns where the state came from (NONE: nothing kept, IN_PLACE: it was there)."""
        if key == self.current:
            return Reuse.IN_PLACE
        self._leave()
        self.current = key
        if key is None:
            return Reuse.IN_PLACE
        source, saved = Reuse.RAM, self.ram.take(key)
        if saved is None and self.disk is not None:
            source, saved = Reuse.DISK, self.disk.load(key)
        if saved is None:
            self.checkpoints = []    # the context keeps what it holds: a shared prefix serves
            return Reuse.NONE
        if not self._restore(saved):
            log.warning("conversation %s's kept state was refused by llama.cpp: everything "
                        "is read again", key)
            return Reuse.NONE
        self.windows.setdefault(key, saved.window)
        return source

    def _leave(self) -> None:
        key, model = self.current, self.model
        if key is None or not model.tokens:
            return
        started = time.perf_counter()
        saved = SavedState(tuple(model.tokens), model.get_state(), tuple(self.checkpoints),
                           self.windows.get(key, ()))
        self.costs.saves += 1
        self.costs.save_s += time.perf_counter() - started
        self.costs.state_bytes.append(saved.nbytes)
        self.ram.put(key, saved)
        if self.disk is not None:
            self.disk.save(key, saved)

    def _restore(self, saved: SavedState) -> bool:
        started = time.perf_counter()
        if not self.model.set_state(saved.state, list(saved.tokens)):
            self.checkpoints = []
            return False
        self.checkpoints = list(saved.checkpoints)
        self.costs.restores += 1
        self.costs.restore_s += time.perf_counter() - started
        return True

    def keep_window(self, key: int | None, start: tuple[str, ...]) -> None:
        if key is not None:
            self.windows[key] = start

    def window(self, key: int | None) -> tuple[str, ...]:
        return self.windows.get(key, ()) if key is not None else ()

    # ---- one prompt ------------------------------------------------------------------

    def reuse(self, prompt: Sequence[int], entered: Reuse = Reuse.IN_PLACE) -> Reused:
        """Keep the longest usable prefix of ``prompt`` in the context; ``entered``: where the
        conversation's state came from (switch_to)."""
        model, prompt = self.model, list(prompt)
        keep = max(0, min(common_prefix(model.tokens, prompt), len(prompt) - 1))
        source = entered if entered is not Reuse.NONE else Reuse.IN_PLACE
        if keep == len(model.tokens) or (not self.recurrent and self._cut(keep)):
            return Reused(len(model.tokens), source if keep else Reuse.NONE)
        if self.recurrent:
            checkpoint = self._checkpoint_for(prompt, keep)
            if checkpoint is not None and self._back_to(checkpoint):
                return Reused(len(model.tokens),
                              Reuse.CHECKPOINT if source is Reuse.IN_PLACE else source)
        model.clear()
        return Reused(0, Reuse.NONE)

    def _checkpoint_for(self, prompt: list[int], keep: int) -> Checkpoint | None:
        usable = [c for c in self.checkpoints if c.position <= keep]
        if not usable:
            log.info("no checkpoint at or before token %d where this prompt leaves the last "
                     "one (checkpoints at %s): everything is read again", keep,
                     [c.position for c in self.checkpoints] or "none")
            return None
        checkpoint = max(usable, key=lambda c: c.position)
        if token_digest(prompt[:checkpoint.position]) != checkpoint.digest:
            log.warning("the checkpoint at token %d was taken after other tokens: everything "
                        "is read again", checkpoint.position)
            return None
        return checkpoint

    def _back_to(self, checkpoint: Checkpoint) -> bool:
        started = time.perf_counter()
        if not self.model.set_state(checkpoint.state, partial=True):
            log.warning("llama.cpp refused the checkpoint at token %d", checkpoint.position)
            return False
        if not self._cut(checkpoint.position):
            log.warning("the memory could not be cut after the checkpoint at token %d",
                        checkpoint.position)
            self.model.clear()
            return False
        self.costs.restores += 1
        self.costs.restore_s += time.perf_counter() - started
        return True

    def _cut(self, keep: int) -> bool:
        """Cut the memory after ``keep`` tokens (POSITION_SKEW: the test-only mutation)."""
        return self.model.cut(keep + POSITION_SKEW)

    def checkpoint_at(self, prompt: Sequence[int], back: int = 1) -> int:
        """Where this prompt's checkpoint is taken: ``back`` tokens before its end, where the
        next turn's prompt will leave it (a recurrent model; at least one, so that the same
        prompt asked again can use it too); an attention model needs none, its KV prefix is
        cut instead."""
        return max(0, len(prompt) - max(1, back)) if self.recurrent else len(prompt)

    def take_checkpoint(self) -> None:
        """Keep the state the context holds now (after checkpoint_at tokens were read)."""
        model = self.model
        position = len(model.tokens)
        if not self.recurrent or position == 0:
            return
        digest = token_digest(model.tokens)
        if any(c.position == position and c.digest == digest for c in self.checkpoints):
            return
        started = time.perf_counter()
        checkpoint = Checkpoint(position, digest, model.get_state(partial=True))
        self.checkpoints = [c for c in self.checkpoints if c.position < position]
        self.checkpoints = (self.checkpoints + [checkpoint])[-MAX_CHECKPOINTS:]
        self.costs.checkpoints += 1
        self.costs.checkpoint_s += time.perf_counter() - started
        self.costs.checkpoint_bytes = checkpoint.nbytes

    # ---- forgetting and closing ------------------------------------------------------

    def forget_context(self) -> None:
        """What the context holds is not known any more (a read failed): none of it is used
        again, and it is not kept."""
        self.current, self.checkpoints = None, []
        self.model.clear()

    def forget(self, key: int) -> None:
        """Drop every state of this conversation: in the context, in RAM and on disk."""
        self.ram.drop(key)
        self.windows.pop(key, None)
        if self.disk is not None:
            self.disk.delete(key)
        if self.current == key:
            self.current, self.checkpoints = None, []
            self.model.clear()

    def close(self) -> None:
        """The model closes: the conversation it holds goes to disk (where there is one)."""
        if self.disk is None:
            return
        if self.current is not None and self.model.tokens:
            self._leave()
            self.current = None
        self.disk.close()


def open_memory(model: NativeModel, state_dir: str | None,
                ram_available: int) -> ConversationMemory:
    """The loaded model's conversation memory: RAM sized from what the plan leaves free, and
    the disk folder the caller gives (None: RAM only)."""
    recipe = model.recipe
    ram = RamStore(ram_budget(ram_available, recipe.ram.total_bytes - recipe.ram.headroom_bytes))
    disk = None
    if state_dir:
        template = model.metadata().get("tokenizer.chat_template") or ""
        try:
            disk = DiskStore(state_dir, fingerprint(model.path, template, recipe, build_key()))
        except OSError as error:
            log.warning("conversation states are kept in RAM only: %s unusable (%s)",
                        state_dir, error)
    return ConversationMemory(model, ram, disk)


def build_key() -> str:
    """The llama.cpp build and device a state was taken with."""
    import llama_cpp  # noqa: PLC0415 - loaded already, with the model

    choice = selected()
    variant = f"{choice.variant.name}:{choice.variant.key}:{choice.device_name}" if choice else ""
    return f"{llama_cpp.__version__}|{variant}"
