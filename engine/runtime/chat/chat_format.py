"""What Rotary knows of chat formats that llama.cpp's chat layer (engine/runtime/chat/chat_layer.py)
does not: each named here once.

- ``ChatFormat``: what the app and engine need to know of a format (can it think, can that be
  switched, by which markers). llama.cpp's reading of the template fills it
  (``ChatTemplates.chat_format``); ``detect_format`` reads the family from the template's
  own markup where no model is loaded (a model's facts, its sampling defaults) and for the
  one family llama.cpp has no parser for: Apriel 1.5 ("[BEGIN FINAL RESPONSE]").
- ``TURN_MARKERS``: where a turn ends as text (llama-server stops at stop strings in its own
  server code, which the chat layer does not include).
- ``REASONING_EFFORTS``: the ``reasoning_effort`` values for Rotary's thinking on and off.
- ``_SPECIAL``, ``_HOLD``: what a control token written as text looks like, and how far back
  an unfinished one is held; llama.cpp's parser (chat_layer.LayerParser) and the office
  server's text reader (engine/remote/server_text.py) both drop them.

Every reply of a local model is read by llama.cpp's parser (Apriel 1.5 split at its own marker
after it); an office server's streamed text by engine/remote/server_text.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
