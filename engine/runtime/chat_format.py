"""What Rotary knows of chat formats that llama.cpp's chat layer (engine/runtime/chat_layer.py)
does not: each named here once.

- ``ChatFormat``: what the app and engine need to know of a format (can it think, can that be
  switched, by which markers). llama.cpp's reading of the template fills it
  (``ChatTemplates.chat_format``); ``detect_format`` reads the family from the template's
  own markup where no model is loaded (a model's facts, its sampling defaults) and for the
  one family llama.cpp has no parser for: Apriel 1.5 ("[BEGIN FINAL RESPONSE]").
- ``TURN_MARKERS``: where a turn ends as text (llama-server stops at stop strings in its own
  server code, which the chat layer does not include).
- ``REASONING_EFFORTS``: the ``reasoning_effort`` values for Rotary's thinking on and off.
- ``ReplyParser``: the reader for text no llama.cpp parser can be built for. llama.cpp builds
  its parser from a rendered template (its format, parser and generation prompt); an office
  server's stream comes from a template the client never sees, whose prompt may already have
  opened the thinking section, and Apriel 1.5 has no parser in llama.cpp. It splits a stream of
  text pieces into thinking and answer as it arrives (``<think>`` sections, harmony channels
  as a server passes them through, a close with no open), so no turn marker, channel name or
  control token reaches an answer, and a model that starts a new turn by itself is stopped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

THINKING, ANSWER, DROPPED = "thinking", "answer", "dropped"

# Markers that mean "this turn is over" (or that the model began someone else's turn);
# text after them is never shown. The engine stops at the GGUF's own end-of-generation
# tokens first; these also catch what a server streams as text and non-EOG turn starts.
TURN_MARKERS = ("<|im_start|>", "<|im_end|>", "<start_of_turn>", "<end_of_turn>", "<|turn>",
                "<turn|>", "<|eot_id|>", "<|start_header_id|>", "<|endoftext|>", "<|user|>",
                "<|assistant|>", "<|system|>", "<|observation|>", "<|end_of_text|>",
                "<｜end▁of▁sentence｜>", "<｜User｜>", "</s>", "[END FINAL RESPONSE]")
HARMONY_END = ("<|return|>", "<|call|>")
_ENDS = TURN_MARKERS + ("<|end|>", *HARMONY_END)   # outside harmony every one ends the turn
# Any other control token that a server or a stray sampling writes as text is dropped.
_SPECIAL = re.compile(r"<\|[^<>|\s]{1,40}\|>|<\|[^<>|\s]{1,40}>|<[^<>|\s]{1,40}\|>")
_HOLD = 48      # how far back an unfinished "<…" is held until it is known to be a marker

# ``reasoning_effort`` for thinking on and off (Rotary has only the two): gpt-oss thinks at
# every effort, so off is its lowest; Hunyuan 3's template takes "no_think".
REASONING_EFFORTS = {True: "medium", False: "low"}
HUNYUAN_EFFORTS = {True: "high", False: "no_think"}


@dataclass(frozen=True)
class ChatFormat:
    family: str                     # "think", "gemma4", "harmony" or "plain"
    think_open: str = ""
    think_close: str = ""
    switch: str = ""                # the template variable: "enable_thinking", "reasoning_effort"
    thinks_by_default: bool = False

    @property
    def can_think(self) -> bool:
        return self.family != "plain"

    @property
    def can_switch(self) -> bool:
        return bool(self.switch)


PLAIN = ChatFormat("plain")


def detect_format(template: str | None) -> ChatFormat:
    """The family from the template's own markup."""
    text = template or ""
    if "<|channel|>" in text and "<|message|>" in text:
        return ChatFormat("harmony", switch="reasoning_effort" if "reasoning_effort" in text
                          else "", thinks_by_default=True)
    if "<|channel>" in text and "<channel|>" in text:
        return ChatFormat("gemma4", "<|channel>thought", "<channel|>",
                          "enable_thinking" if "enable_thinking" in text else "", False)
    if "[BEGIN FINAL RESPONSE]" in text:     # Apriel: thinks first, then its final response
        return ChatFormat("think", "", "[BEGIN FINAL RESPONSE]", thinks_by_default=True)
    if "<think>" in text and "</think>" in text:
        return ChatFormat("think", "<think>", "</think>",
                          "enable_thinking" if "enable_thinking" in text else "",
                          thinks_by_default=True)
    return PLAIN


def starts_thinking(fmt: ChatFormat, prompt: str) -> bool:
    """Does the rendered prompt leave the model inside a thinking section (Qwen3.5's
    generation prompt ends with "<think>\\n"), so that its first words are thinking?"""
    if fmt.family not in ("think", "gemma4"):
        return False
    opened = prompt.rfind(fmt.think_open)
    return opened >= 0 and prompt.find(fmt.think_close, opened) < 0


@dataclass
class ReplyParser:
    """Feed text pieces as they come; each ``feed`` returns what is new of thinking and answer.

    ``special``: the piece is one control token (the local engine knows): it is a marker
    or it is dropped, never text. ``ended`` turns True at an end of turn; feed nothing more.
    """

    fmt: ChatFormat
    state: str = ANSWER
    ended: bool = False
    thinking: list[str] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)
    _pending: str = ""
    _header: str = ""               # harmony: the message header being read
    _at_start: dict = field(default_factory=lambda: {THINKING: True, ANSWER: True})

    @classmethod
    def for_prompt(cls, fmt: ChatFormat, prompt: str) -> "ReplyParser":
        if fmt.family == "harmony":     # the prompt ends with "<|start|>assistant": a header
            return cls(fmt, state="header")
        return cls(fmt, state=THINKING if starts_thinking(fmt, prompt) else ANSWER)

    def feed(self, text: str, special: bool = False) -> tuple[str, str]:
        if self.ended or not text:
            return "", ""
        out: dict[str, list[str]] = {THINKING: [], ANSWER: []}
        if special and not self._is_marker(text):
            text = ""                   # a control token that means nothing here
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

    def _is_marker(self, text: str) -> bool:
        return any(m.startswith(text) or text.startswith(m) for m in self._markers()) \
            or bool(_SPECIAL.fullmatch(text))

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
