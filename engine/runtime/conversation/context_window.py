"""Which turns of a conversation the model still sees, and how long it may think.

A conversation never hits a wall: when the next prompt would not fit, its oldest turns stop
being sent (Ollama drops the oldest messages; LM Studio calls it a rolling window). The
system prompt and the newest message always stay; a document's retrieved passages travel in
the newest message (engine/documents/ask.py), so they stay too. Only a newest message that
cannot fit by itself is an error (``MessageTooLongError``).

The room is split so that an answer always has some: ``answer`` tokens (the request's
length, at most a quarter of the context) and, for a model that thinks, ``thinking`` tokens
(a quarter of the context) are kept free when the prompt is fitted; the prompt may use the
rest (``limit``). When turns must go, enough go that the prompt falls to ``target`` (half
the limit), not just under the limit: the window's start then stays where it is for many
turns, so the kept prefix is still in the model's memory and only the new turn is read
(dropping the fewest turns each time moves the start every turn, and every turn reads the
whole prompt again; tests/engine/test_context_window.py measures both). A recurrent or
hybrid model cannot shift its memory, so each slide reads the window again: half the room
makes that rare.

The engine keeps where each conversation's window starts (``anchor``, ``resume``), so a
caller that sends the whole conversation every turn gets the same window as the app, which
sends from the start it stored.

Thinking gets a budget: what the context has left after the prompt and the answer's room.
At the budget the model is steered to answer: a short transition sentence and the format's
closing marker are put in its mouth, as Qwen documents for its thinking budget ("Considering
the limited time by the user, I have to give the solution based on the thinking directly
now.\\n</think>.\\n\\n"), and the answer follows.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Callable, Sequence

from engine.api import ChatMessage
from engine.errors import MessageTooLongError
from engine.messages import msg
from engine.plan.speed import WORDS_PER_TOKEN

# Chinese and Japanese write no spaces between words: each ideograph or kana counts as one
# word (as word processors count East Asian text); Korean spaces its words and is counted
# by its spaces, like English. Their punctuation (。，、) separates, as a space does.
_EAST_ASIAN = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
_EAST_ASIAN_MARKS = "\u3000-\u303f\uff01-\uff0f\uff1a-\uff20"    # 。，、「」： as spaces
_WORD = re.compile(f"[{_EAST_ASIAN}]|[^\\s{_EAST_ASIAN}{_EAST_ASIAN_MARKS}]+")
ANSWER_SHARE = 4        # the answer's room: at most a quarter of the context
THINKING_SHARE = 4      # a thinking model keeps a quarter of the context to think in
TARGET_SHARE = 1 / 2    # after a slide the prompt takes at most this share of its limit
MIN_ANSWER = 16         # a newest message that leaves less than this cannot be answered
# Qwen's documented words before its closing marker (Qwen3 model card, "thinking budget").
TRANSITION = ("Considering the limited time by the user, I have to give the solution based "
              "on the thinking directly now.")


@dataclass(frozen=True)
class Room:
    """How the context is shared between prompt, thinking and answer (tokens)."""

    n_ctx: int
    answer: int
    thinking: int

    @property
    def limit(self) -> int:
        """The most tokens a prompt may take."""
        return max(1, self.n_ctx - self.answer - self.thinking)

    @property
    def target(self) -> int:
        """What a prompt is cut down to once turns must go."""
        return max(1, int(self.limit * TARGET_SHARE))


def room_for(n_ctx: int, max_tokens: int, can_think: bool) -> Room:
    return Room(n_ctx, min(max_tokens, n_ctx // ANSWER_SHARE),
                n_ctx // THINKING_SHARE if can_think else 0)


@dataclass(frozen=True)
class Window:
    """The messages sent, and how many of the oldest (after the system prompt) were left out."""

    messages: tuple[ChatMessage, ...]
    left_out: int
    prompt_tokens: int


Count = Callable[[Sequence[ChatMessage]], int]     # the rendered prompt's tokens


def fit(messages: Sequence[ChatMessage], count: Count, room: Room) -> Window:
    """The newest messages that fit under ``room.limit`` (cut to ``room.target`` when
    something must go); the leading system messages and the last message always stay."""
    messages = tuple(messages)
    whole = count(messages)
    if whole <= room.limit:
        return Window(messages, 0, whole)
    system = _leading_system(messages)
    turns = messages[len(system):]
    alone = count(system + turns[-1:])
    if alone > room.limit:      # the newest message alone: it is read if it leaves any room
        if alone > room.n_ctx - MIN_ANSWER:
            raise _too_long(alone, room, turns[-1].content)
        return Window(system + turns[-1:], len(turns) - 1, alone)
    # The fewest left out that reach the target: prompts shrink as more are left out, so
    # a binary search needs log2(turns) renders, not one per turn.
    low, high = 1, len(turns) - 1          # ``high`` leaves only the last message
    while low < high:
        middle = (low + high) // 2
        if count(system + _from_user(turns[middle:])) <= room.target:
            high = middle
        else:
            low = middle + 1
    kept = _from_user(turns[low:])
    left_out = len(turns) - len(kept)
    return Window(system + kept, left_out, count(system + kept))


ANCHOR_MESSAGES = 3     # the window's first kept messages that say where it starts


def anchor(window: Sequence[ChatMessage], left_out: int) -> tuple[str, ...]:
    """Where a window starts: nothing while it starts with the conversation (``left_out``
    turns before it: none), so that a first message sent again later is never taken for the
    start; else digests of its first kept messages after the system prompt."""
    if left_out == 0:
        return ()
    window = tuple(window)
    turns = window[len(_leading_system(window)):]
    return tuple(_digest(m) for m in turns[:ANCHOR_MESSAGES])


def resume(messages: Sequence[ChatMessage],
           start: tuple[str, ...]) -> tuple[tuple[ChatMessage, ...], int]:
    """The messages from where the last window started (``start``, from ``anchor``), and how
    many were skipped; the messages unchanged when that start is not among them. Where the
    start's messages stand more than once, the earliest: a window that begins too early is
    cut to fit again, one that begins too late would hide turns from the model."""
    messages = tuple(messages)
    if not start:
        return messages, 0
    system = _leading_system(messages)
    turns = messages[len(system):]
    digests = [_digest(m) for m in turns]
    for at in range(len(turns) - len(start) + 1):
        if tuple(digests[at:at + len(start)]) == start:
            return system + turns[at:], at
    return messages, 0


def last_turn(messages: Sequence[ChatMessage]) -> tuple[ChatMessage, ...]:
    """The leading system messages and the conversation from its last user message on."""
    messages = tuple(messages)
    system = _leading_system(messages)
    users = [i for i, m in enumerate(messages) if m.role == "user" and i >= len(system)]
    return system + messages[users[-1] if users else len(system):]


def _digest(message: ChatMessage) -> str:
    return hashlib.blake2b(f"{message.role}\0{message.content}".encode(),
                           digest_size=12).hexdigest()


def _leading_system(messages: tuple[ChatMessage, ...]) -> tuple[ChatMessage, ...]:
    n = 0
    while n < len(messages) - 1 and messages[n].role == "system":
        n += 1
    return messages[:n]


def _from_user(turns: tuple[ChatMessage, ...]) -> tuple[ChatMessage, ...]:
    """Start the kept turns at a user message where there is one (templates such as
    Gemma's and Mistral's refuse a conversation that begins with the assistant)."""
    for at in range(len(turns) - 1):
        if turns[at].role == "user":
            return turns[at:]
    return turns[-1:]


def count_words(text: str) -> int:
    """The words in ``text`` as a person counts them: runs between spaces (``wc -w``), and
    each Chinese or Japanese character (see _EAST_ASIAN)."""
    return len(_WORD.findall(text))


def _too_long(tokens: int, room: Room, text: str) -> MessageTooLongError:
    """The message's own word count, and the room in words at this text's own rate (its
    words per token), not a rate for English."""
    words = count_words(text)
    per_token = words / tokens if words and tokens else WORDS_PER_TOKEN
    return MessageTooLongError(
        msg("runtime.message_too_long", words=words,
            room=max(10, int(round((room.n_ctx - MIN_ANSWER) * per_token, -1)))),
        f"the newest message ({words} words) needs {tokens} prompt tokens; the context holds "
        f"{room.n_ctx} and an answer needs at least {MIN_ANSWER}")


def thinking_budget(n_ctx: int, prompt_tokens: int, room: Room, closing_tokens: int) -> int:
    """Tokens the model may think before it is steered to answer: what the context has
    left after the prompt, the answer's room and the closing words."""
    return max(0, n_ctx - prompt_tokens - room.answer - closing_tokens)


def closing_text(family: str, think_close: str) -> tuple[str, str]:
    """(what is put in the model's mouth at the budget, the part of it the reply parser
    reads as markers), for the chat format's family (engine/runtime/chat/chat_format.py)."""
    if family == "harmony":
        marker = "<|end|><|start|>assistant<|channel|>final<|message|>"
        return TRANSITION + marker, marker
    if family == "gemma4":
        return TRANSITION + think_close, think_close
    marker = f"\n{think_close}\n\n"
    return f"\n\n{TRANSITION}{marker}", marker


def may_think(fmt, think: bool | None, family: str = "") -> bool:
    """Will this answer think (``fmt``: engine/runtime/chat/chat_format.ChatFormat; ``family``: the
    template's own, where ``fmt`` is llama.cpp's)? Harmony models think at every effort; a
    switch the user set decides; else the model's default."""
    if not fmt.can_think:
        return False
    if (family or fmt.family) == "harmony":
        return True
    if fmt.can_switch and think is not None:
        return bool(think)
    return bool(fmt.thinks_by_default or not fmt.can_switch)
