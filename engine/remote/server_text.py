"""An office server's streamed text, split into thinking and answer as it arrives.

The one reply reader Rotary keeps beside llama.cpp's (engine/runtime/chat/chat_layer.py), because
llama.cpp's cannot serve here: its parser is built from a rendered template (format, parser,
generation prompt) and reads only replies to that prompt. The client never sees the server's
template, nor whether its prompt already opened the thinking section: Qwen3's parser reads
"thought</think>answer" as answer, Qwen3.5's keeps a "<think>" it did not expect, and neither
reads harmony (tests/engine/test_chat_layer.py shows it). So this reads ``<think>`` sections
whether or not they were opened (a close with no open makes what came before thinking),
harmony channels as a server passes them through (``analysis`` is thinking, ``final`` the
answer, ``commentary`` is dropped), and a server's ``reasoning_content`` beside the text; a
turn marker ends the answer, and no control token reaches any text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.runtime.chat.chat_format import (_ENDS, _HOLD, _SPECIAL, ANSWER, DROPPED, HARMONY_END,
                                        THINKING, TURN_MARKERS, ChatFormat)


@dataclass
class ServerTextParser:
    """Feed text pieces as they come; each ``feed`` returns what is new of thinking and answer.
    ``ended`` turns True at an end of turn; feed nothing more."""

    fmt: ChatFormat
    state: str = ANSWER
    ended: bool = False
    thinking: list[str] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)
    _pending: str = ""
    _header: str = ""               # harmony: the message header being read
    _at_start: dict = field(default_factory=lambda: {THINKING: True, ANSWER: True})

    def feed(self, text: str) -> tuple[str, str]:
        if self.ended or not text:
            return "", ""
        out: dict[str, list[str]] = {THINKING: [], ANSWER: []}
        self._pending += text
        self._drain(out, final=False)
        return self._keep(out, THINKING), self._keep(out, ANSWER)

    def add_thinking(self, text: str) -> str:
        """Thinking that arrived apart from the text (a server's reasoning_content)."""
        if not text or self.ended:
            return ""
        if self._at_start[THINKING]:
            text = text.lstrip()
            self._at_start[THINKING] = not text
        if text:
            self.thinking.append(text)
        return text

    def finish(self) -> tuple[str, str]:
        out: dict[str, list[str]] = {THINKING: [], ANSWER: []}
        if not self.ended:
            self._drain(out, final=True)
        return self._keep(out, THINKING), self._keep(out, ANSWER)

    @property
    def thinking_text(self) -> str:
        return "".join(self.thinking).strip()

    @property
    def answer_text(self) -> str:
        return "".join(self.answer).rstrip()

    # ---- inside --------------------------------------------------------------------------

    def _markers(self) -> tuple[str, ...]:
        if self.fmt.family == "harmony":
            return ("<|channel|>", "<|message|>", "<|end|>", "<|start|>", "<|constrain|>",
                    *HARMONY_END, *TURN_MARKERS)
        own = (self.fmt.think_close,) if self.state == THINKING \
            else (self.fmt.think_open, self.fmt.think_close)
        return tuple(m for m in own if m) + _ENDS

    def _drain(self, out: dict, final: bool) -> None:
        while self._pending and not self.ended:
            at, marker = self._next_marker()
            if marker is None:
                keep = 0 if final else self._held_back()
                self._emit(out, self._pending[:len(self._pending) - keep])
                self._pending = self._pending[len(self._pending) - keep:]
                return
            self._emit(out, self._pending[:at])
            self._pending = self._pending[at + len(marker):]
            self._on_marker(marker)

    def _next_marker(self) -> tuple[int, str | None]:
        best, found = len(self._pending) + 1, None
        for marker in self._markers():
            at = self._pending.find(marker)
            if 0 <= at < best or (at == best and found is not None and len(marker) > len(found)):
                best, found = at, marker
        return best, found

    def _held_back(self) -> int:
        """Characters at the end that may still become a marker or a control token."""
        pending = self._pending
        start = pending.rfind("<", max(0, len(pending) - _HOLD))
        unclosed = len(pending) - start if start >= 0 and ">" not in pending[start:] else 0
        partial = max((k for marker in self._markers() for k in range(1, len(marker))
                       if pending.endswith(marker[:k])), default=0)
        return max(unclosed, partial)

    def _on_marker(self, marker: str) -> None:
        if self.fmt.family == "harmony":
            self._on_harmony(marker)
        elif marker in _ENDS:
            self.ended = True
        elif marker == self.fmt.think_open:
            self.state = THINKING
        elif marker == self.fmt.think_close:
            if self.state == ANSWER and not self.thinking:
                self._was_thinking()
            self.state = ANSWER

    def _was_thinking(self) -> None:
        """A close with no open: the prompt had opened the section (a server whose template
        we cannot see). What looked like answer was thinking; the final texts say so."""
        self.thinking, self.answer = self.answer, []
        self._at_start[ANSWER] = True

    def _on_harmony(self, marker: str) -> None:
        if marker in HARMONY_END or marker in TURN_MARKERS:
            self.ended = True
        elif marker in ("<|end|>", "<|start|>"):
            self.state, self._header = "header", ""
        elif marker == "<|message|>":
            channel = re.search(r"<\|channel\|>\s*(\w+)", self._header)
            name = channel.group(1) if channel else "final"
            self.state = {"analysis": THINKING, "final": ANSWER}.get(name, DROPPED)
            self._header = ""
        elif self.state == "header":
            self._header += marker

    def _emit(self, out: dict, text: str) -> None:
        if not text:
            return
        if self.state == "header":
            self._header += text
            return
        if self.state not in out:
            return                      # harmony's commentary channel
        text = _SPECIAL.sub("", text)
        if self._at_start[self.state]:
            text = text.lstrip()
            if not text:
                return
            self._at_start[self.state] = False
        out[self.state].append(text)
        (self.thinking if self.state == THINKING else self.answer).append(text)

    @staticmethod
    def _keep(out: dict, which: str) -> str:
        return "".join(out[which])
