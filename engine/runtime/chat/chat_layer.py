"""llama.cpp's own chat layer (common/chat.cpp), through Rotary's small C shim.

``librotary_chat`` (engine/native/chat, built by the install beside llama.cpp's common
library) renders a conversation with the model's template (``common_chat_templates_apply``,
the Jinja engine and per-family handling llama-server uses) and splits a streamed reply into
thinking, answer and tool calls as llama-server does: the whole text so far is parsed, partly
while it streams (``common_chat_parse``), and what is new is the difference from the last
parse (``common_chat_msg_diff``). Every family llama.cpp knows (``common/parsers/*.cpp`` and
its automatic parser for the others) is then read the same way here.

Kept hand-written (llama.cpp has nothing for them in its common library): where a turn ends
(llama-server stops at stop strings in its own server code; here chat_format.TURN_MARKERS
and the format's additional stops), control tokens the parser does not consume, and the
sentence that stands for a tool call (tools are not offered, so a call is never run), and
Apriel 1.5 (engine/runtime/chat/chat_format.py). The install always has the shim (bootstrap.py
fails without it, build.spec will not bundle without it); where it is missing anyway the
engine says so as an error (engine/runtime/generation/generate.model_chat_layer).
"""

from __future__ import annotations

import ctypes
import json
import logging
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from engine.messages import msg
from engine.native import backends
from engine.runtime.chat.chat_format import (_ENDS, _HOLD, _SPECIAL, ANSWER, HUNYUAN_EFFORTS,
                                        REASONING_EFFORTS, THINKING, ChatFormat)

log = logging.getLogger("rotary.chat_layer")

LIB_ENV = "ROTARY_CHAT_LIB"          # a path to librotary_chat (tests, development)
FOLDER = "chat"                      # <backends root>/chat/: the shim and libllama-common


# Declared to llama.cpp only so that its parser knows tool-call markup; never offered to the
# model (the prompt is rendered without it).
PLACEHOLDER_TOOL = {"type": "function", "function": {
    "name": "rotary_no_tools", "description": "Not available.",
    "parameters": {"type": "object", "properties": {}}}}


class ChatLayerError(RuntimeError):
    """The shim refused a template, a conversation or a parser (its message says why)."""


def shim_path() -> Path | None:
    """Where librotary_chat is: $ROTARY_CHAT_LIB, else <backends root>/chat/."""
    if os.environ.get(LIB_ENV):
        return Path(os.environ[LIB_ENV])
    root = backends.backends_root()
    candidate = root / FOLDER / backends.library_name("rotary_chat") if root else None
    return candidate if candidate is not None and candidate.exists() else None


_lib: ctypes.CDLL | None = None
_tried = False


def load() -> ctypes.CDLL | None:
    """The shim, loaded once (after llama_cpp, whose libllama it shares); None without it,
    said once in the log (the engine then refuses to load a model, in words)."""
    global _lib, _tried
    if _tried:
        return _lib
    _tried = True
    path = shim_path()
    if path is None:
        log.error("llama.cpp's chat layer is not installed (no librotary_chat): this "
                  "install is incomplete; python3 bootstrap.py start builds it")
        return None
    try:
        from engine.runtime.bindings import llama_cpp_module  # noqa: PLC0415 - loads libllama first

        llama_cpp_module()
        if sys.platform == "win32":
            os.add_dll_directory(str(path.parent))
        _lib = _declare(ctypes.CDLL(str(path)))
        log.info("llama.cpp's chat layer: %s", path)
    except OSError as error:
        log.error("llama.cpp's chat layer did not load (%s)", error)
    return _lib


def _declare(lib: ctypes.CDLL) -> ctypes.CDLL:
    p, s = ctypes.c_void_p, ctypes.c_char_p
    for name, args, result in (("rotary_chat_last_error", [], s),
                               ("rotary_chat_free_string", [p], None),
                               ("rotary_chat_templates_init", [s, s, s], p),
                               ("rotary_chat_templates_free", [p], None),
                               ("rotary_chat_apply", [p, s], p),
                               ("rotary_chat_parser_new", [s], p),
                               ("rotary_chat_parser_free", [p], None),
                               ("rotary_chat_parser_feed", [p, s, ctypes.c_int], p)):
        function = getattr(lib, name)
        function.argtypes, function.restype = args, result
    return lib


def _take_json(lib: ctypes.CDLL, pointer: int | None) -> Any:
    if not pointer:
        raise ChatLayerError(lib.rotary_chat_last_error().decode("utf-8", "replace"))
    try:
        return json.loads(ctypes.string_at(pointer).decode("utf-8", "replace"))
    finally:
        lib.rotary_chat_free_string(pointer)


@dataclass(frozen=True)
class Rendered:
    """A prompt and how a reply to it is written (common_chat_params)."""

    prompt: str
    format: int
    format_name: str
    generation_prompt: str
    parser: str
    supports_thinking: bool
    thinking_start_tag: str
    thinking_end_tags: tuple[str, ...]
    preserved_tokens: tuple[str, ...]
    additional_stops: tuple[str, ...]
    tool_triggers: tuple[str, ...] = ()     # what starts a tool call (words or patterns)

    @classmethod
    def from_json(cls, data: dict) -> "Rendered":
        return cls(data["prompt"], data["format"], data["format_name"], data["generation_prompt"],
                   data["parser"], data["supports_thinking"], data["thinking_start_tag"],
                   tuple(data["thinking_end_tags"]), tuple(data["preserved_tokens"]),
                   tuple(data["additional_stops"]), tuple(data.get("tool_triggers", ())))

    def starts_thinking(self) -> bool:
        """The prompt leaves the model inside its thinking (Qwen3.5's "<think>\\n")."""
        start = self.thinking_start_tag
        at = self.generation_prompt.rfind(start) if start else -1
        return at >= 0 and not any(end and end in self.generation_prompt[at:]
                                   for end in self.thinking_end_tags)


def _efforts(source: str) -> dict[bool, str]:
    """Templates whose thinking is chosen by ``reasoning_effort`` rather than
    ``enable_thinking`` (llama-server takes the effort from the request; Rotary has only on
    and off): Hunyuan 3's and gpt-oss's."""
    if "reasoning_effort" not in source:
        return {}
    if "no_think" in source:
        return HUNYUAN_EFFORTS
    return REASONING_EFFORTS if "<|channel|>" in source else {}


class ChatTemplates:
    """One model's chat template, parsed once by llama.cpp; ``close()`` frees it (or use
    ``with``). Not thread-safe: the engine thread that owns the model owns this too."""

    def __init__(self, source: str, bos: str = "", eos: str = "",
                 lib: ctypes.CDLL | None = None) -> None:
        loaded = lib or load()
        if loaded is None:
            raise ChatLayerError("llama.cpp's chat layer is not installed")
        self._lib: ctypes.CDLL = loaded
        self.source = source
        self._handle = self._lib.rotary_chat_templates_init(source.encode(), bos.encode(),
                                                            eos.encode())
        if not self._handle:
            raise ChatLayerError(self._lib.rotary_chat_last_error().decode("utf-8", "replace"))
        self._format: ChatFormat | None = None
        self._turn_end: str | None = None
        self._efforts = _efforts(source)
        # The last rendering: a turn renders its window to count it, then again for its
        # prompt (the same request), and a long conversation takes milliseconds each time.
        self._last: tuple[str, Rendered] | None = None

    def render(self, messages: Sequence[dict], think: bool | None = None,
               add_generation_prompt: bool = True, tools: bool = False) -> Rendered:
        """``think`` None: llama-server's default (thinking on where the template has it); as
        llama-server, the choice reaches the template as ``enable_thinking`` only."""
        if not self._handle:
            raise ChatLayerError("the chat template was closed")
        request = {"messages": list(messages), "enable_thinking": think is not False,
                   "add_generation_prompt": add_generation_prompt,
                   "kwargs": {"reasoning_effort": self._efforts[think]}
                   if self._efforts and think is not None else {}}
        if tools:
            request["tools"] = [PLACEHOLDER_TOOL]
        encoded = json.dumps(request)
        if self._last is not None and self._last[0] == encoded:
            return self._last[1]
        pointer = self._lib.rotary_chat_apply(self._handle, encoded.encode())
        rendered = Rendered.from_json(_take_json(self._lib, pointer))
        self._last = (encoded, rendered)
        return rendered

    def chat_format(self) -> ChatFormat:
        """What the app and engine need to know: can it think, can that be switched, by
        which markers. Switchable where llama.cpp renders different prompts for on and off."""
        if self._format is None:
            probe = [{"role": "user", "content": "Hello"}]
            on, off = self.render(probe, True), self.render(probe, False)
            if not (on.supports_thinking or on.thinking_start_tag or on.thinking_end_tags):
                self._format = ChatFormat("plain")
            else:
                self._format = ChatFormat(
                    f"llama.cpp:{on.format_name}", on.thinking_start_tag,
                    on.thinking_end_tags[0] if on.thinking_end_tags else "",
                    ("reasoning_effort" if self._efforts else "enable_thinking")
                    if on.prompt != off.prompt else "",
                    thinks_by_default=self.render(probe, None).prompt == on.prompt)
        return self._format

    def turn_end(self) -> str:
        """The marker the template closes an answer with ("<|im_end|>", "<seed:eos>", "[e~["),
        read from its own rendering of one answer: a reply stops there even where the model
        file does not call that token an end of generation."""
        if self._turn_end is None:
            answer = "Rotary-probe-answer"
            rendered = self.render([{"role": "user", "content": "Hello"},
                                    {"role": "assistant", "content": answer}],
                                   add_generation_prompt=False).prompt
            after = rendered[rendered.rfind(answer) + len(answer):].strip() \
                if answer in rendered else ""
            # markup only ("<|im_end|>", "[e~["): a word there (Solar's next "assistant") is
            # no marker, and a stop on a word would cut answers that use it
            pieces = re.findall(r"<[^<>\s]+>|\[[^\[\]\s\w]*\w*[^\[\]\s\w]+\[?\]?", after)
            probe = self.render([{"role": "user", "content": "Hello"}], True)
            markers = (probe.thinking_start_tag, *probe.thinking_end_tags)
            end = pieces[-1] if pieces else ""
            # rwkv-world's template opens the next answer itself: that is no end.
            self._turn_end = "" if not end or end in probe.generation_prompt or any(
                m and (end in m or m in end) for m in markers) else end
        return self._turn_end

    def parser(self, rendered: Rendered, messages: Sequence[dict] = (),
               think: bool | None = None) -> "LayerParser":
        """The parser for a reply to ``rendered``. Given the conversation, it is llama.cpp's
        parser for the same prompt with a tool declared, so that a tool call the model makes
        anyway is recognised as one (and never shown as its raw markup)."""
        parsing = rendered
        if messages:
            try:
                parsing = self.render(_last_turn(messages), think, tools=True)
            except ChatLayerError as error:       # a template that takes no tools
                log.debug("no tool-aware parser for this template: %s", error)
        return LayerParser(self._lib, parsing, self.chat_format(), self.turn_end(),
                           plain=rendered if parsing is not rendered else None)

    def close(self) -> None:
        if self._handle:
            self._lib.rotary_chat_templates_free(self._handle)
            self._handle = None

    def __enter__(self) -> "ChatTemplates":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _last_turn(messages: Sequence[dict]) -> list[dict]:
    """The system messages and the conversation from its last user message: what the reply
    parser's rendering needs (its format, grammar and generation prompt), without rendering a
    long conversation a second time each turn."""
    messages = list(messages)
    system = [m for m in messages[:1] if m.get("role") == "system"]
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=0)
    return system + messages[max(last_user, len(system)):]


def choose_format(layer: ChatTemplates, own: ChatFormat) -> ChatFormat:
    """llama.cpp's reading of the template, or Rotary's own where llama.cpp finds no thinking
    that Rotary's reading does (Apriel 1.5's "[BEGIN FINAL RESPONSE]": llama.cpp has nothing)."""
    fmt = layer.chat_format()
    return own if own.can_think and not fmt.can_think else fmt


def reply_reader(layer: ChatTemplates, own: ChatFormat, messages: Sequence[dict],
                 think: bool | None) -> tuple[str, "LayerParser"]:
    """The prompt (llama.cpp's rendering) and llama.cpp's parser for the reply to it."""
    rendered = layer.render(messages, think)
    parser = layer.parser(rendered, messages, think)
    fmt = choose_format(layer, own)
    if fmt is not layer.chat_format():
        parser.split_at(fmt.think_close)
    return rendered.prompt, parser


@dataclass
class LayerParser:
    """llama.cpp's parser for one reply: ``feed`` returns the new thinking and answer,
    ``finish`` ends the reply; ``ended`` turns True at an end of turn."""

    lib: ctypes.CDLL
    rendered: Rendered
    fmt: ChatFormat
    turn_end: str = ""
    plain: Rendered | None = None    # the prompt's own parser (no tool declared), for finish
    state: str = ANSWER
    ended: bool = False
    thinking: list[str] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)
    tools: dict[int, str] = field(default_factory=dict)
    _pending: str = ""
    _raw: str = ""
    _handle: Any = None
    _at_start: dict = field(default_factory=lambda: {THINKING: True, ANSWER: True})
    _tails: dict = field(default_factory=lambda: {THINKING: "", ANSWER: ""})
    _own_split: str = ""            # Apriel 1.5's marker between thinking and answer
    _split_held: str = ""

    def __post_init__(self) -> None:
        params = {"format": self.rendered.format, "parser": self.rendered.parser,
                  "generation_prompt": self.rendered.generation_prompt}
        self._handle = self.lib.rotary_chat_parser_new(json.dumps(params).encode())
        if not self._handle:
            raise ChatLayerError(self.lib.rotary_chat_last_error().decode("utf-8", "replace"))
        self.state = THINKING if self.rendered.starts_thinking() else ANSWER
        self._stops = tuple(dict.fromkeys(_ENDS + self.rendered.additional_stops
                                          + ((self.turn_end,) if self.turn_end else ())))
        # Words the prompt itself put after the thinking marker (Apriel's "Here are my
        # reasoning steps:") are the prompt's, not the model's thinking.
        opened = self.rendered.generation_prompt.rfind(self.rendered.thinking_start_tag) \
            if self.rendered.thinking_start_tag else -1
        self._prompt_words = self.rendered.generation_prompt[
            opened + len(self.rendered.thinking_start_tag):].strip() if opened >= 0 else ""
        # Harmony's own markup ends its messages, not the turn: llama.cpp's parser reads it.
        if "<|channel|>" in self.rendered.generation_prompt + self.rendered.parser:
            self._stops = tuple(s for s in self._stops if s not in ("<|end|>", "<|start|>"))

    def split_at(self, marker: str) -> None:
        """Apriel 1.5 (chat_format.detect_format): llama.cpp reads its whole reply as answer;
        the reply thinks first, and what comes before ``marker`` is that thinking."""
        self._own_split, self.state = marker, THINKING

    def feed(self, text: str, special: bool = False) -> tuple[str, str]:
        if self.ended or not text:
            return "", ""
        self._pending += text
        stop_at = min((at for at in (self._pending.find(s) for s in self._stops) if at >= 0),
                      default=-1)
        if stop_at >= 0:
            self._pending, self.ended = self._pending[:stop_at], True
            return self._parse(self._take(len(self._pending)), partial=False)
        return self._parse(self._take(len(self._pending) - self._held_back()), partial=True)

    def finish(self) -> tuple[str, str]:
        if self._handle is None:
            return "", ""
        thinking, answer = self._parse(self._take(len(self._pending)), partial=False)
        self.close()
        new: dict[str, list[str]] = {THINKING: [], ANSWER: []}
        self._flush(new)
        self._reconcile(new)
        return thinking + "".join(new[THINKING]), answer + "".join(new[ANSWER])

    def close(self) -> None:
        if self._handle:
            self.lib.rotary_chat_parser_free(self._handle)
        self._handle = None

    @property
    def thinking_text(self) -> str:
        return "".join(self.thinking).strip()

    @property
    def answer_text(self) -> str:
        return "".join(self.answer).strip()

    # ---- inside --------------------------------------------------------------------------

    def _take(self, n: int) -> str:
        taken, self._pending = self._pending[:n], self._pending[n:]
        self._raw += taken
        return taken

    def _reconcile(self, new: dict) -> None:
        """What the tool-aware parser took out of the answer, read again with the prompt's own
        parser: a call to a tool it did not know by name (it starts as the format's tool calls
        start, or is bare JSON) gets the plain sentence; anything else (Command R+'s tool
        template reads a plain answer as no "Action:") is answer after all."""
        if self.tools or self.plain is None or not self._raw or self._own_split:
            return
        plain = LayerParser(self.lib, self.plain, self.fmt, self.turn_end)
        try:
            plain._parse(self._raw, partial=False)
            plain._flush({THINKING: [], ANSWER: []})
        finally:
            plain.close()
        mine, theirs = self.answer_text, plain.answer_text
        if len(theirs) <= len(mine):
            return
        extra = theirs[len(mine):] if theirs.startswith(mine) else theirs
        if self._starts_tool_call(extra):
            self._said(new, "")
        else:
            self._add(new, ANSWER, extra, final=True)

    def _starts_tool_call(self, text: str) -> bool:
        if text.lstrip().startswith(("{", "[", "```")):
            return True
        for trigger in self.rendered.tool_triggers:
            try:
                if trigger in text or re.search(trigger, text, re.M):
                    return True
            except re.error:        # ECMAScript syntax Python's re does not take
                continue
        return False

    def _flush(self, new: dict) -> None:
        if self._own_split and self._split_held:
            self._split(new, "", final=True)
        for which in (THINKING, ANSWER):
            held, self._tails[which] = self._tails[which], ""
            self._add(new, which, held, final=True)

    def _said(self, new: dict, name: str) -> None:
        """The plain sentence that stands where a tool call was (tools are not offered)."""
        sentence = msg("runtime.tool_call_not_offered", name=name) if name \
            else msg("runtime.tool_call_not_offered_unnamed")
        self._add(new, ANSWER, ("\n\n" if self.answer else "") + str(sentence), final=True)

    def _held_back(self) -> int:
        """An unfinished end marker at the end waits until it is known to be one."""
        pending = self._pending
        return max((k for stop in self._stops for k in range(1, min(len(stop), _HOLD))
                    if pending.endswith(stop[:k])), default=0)

    def _parse(self, text: str, partial: bool) -> tuple[str, str]:
        if self._handle is None:
            return "", ""
        result = _take_json(self.lib, self.lib.rotary_chat_parser_feed(
            self._handle, text.encode("utf-8"), int(partial)))
        if result.get("error") and not partial:
            log.info("llama.cpp's parser kept the partial reading of a reply: %s", result["error"])
        new: dict[str, list[str]] = {THINKING: [], ANSWER: []}
        for diff in result["diffs"]:
            self._add(new, THINKING, diff.get("thinking", ""))
            if self._own_split and self.state == THINKING:
                self._split(new, diff.get("answer", ""))
            else:
                self._add(new, ANSWER, diff.get("answer", ""))
            if "tool_index" in diff and diff["tool_index"] not in self.tools:
                self.tools[diff["tool_index"]] = diff.get("tool_name", "")
                self._said(new, diff.get("tool_name", ""))
        return "".join(new[THINKING]), "".join(new[ANSWER])

    def _split(self, new: dict, text: str, final: bool = False) -> None:
        """Before the own marker: thinking; after it: answer. A piece that may begin the
        marker waits for the next one."""
        marker, text = self._own_split, self._split_held + text
        at = text.find(marker)
        if at >= 0:
            self._split_held = ""
            self._add(new, THINKING, text[:at], final=True)
            self.state = ANSWER
            self._add(new, ANSWER, text[at + len(marker):], final)
            return
        keep = 0 if final else max((k for k in range(1, len(marker))
                                    if text.endswith(marker[:k])), default=0)
        self._split_held = text[len(text) - keep:]
        self._add(new, THINKING, text[:len(text) - keep], final)

    def _add(self, new: dict, which: str, text: str, final: bool = False) -> None:
        """Append to thinking or answer; an unfinished "<…" at the end waits for the next
        piece, so that a control token split across two parses is still dropped whole."""
        text = self._tails[which] + text
        opened = text.rfind("<", max(0, len(text) - _HOLD))
        held = "" if final or opened < 0 or ">" in text[opened:] else text[opened:]
        self._tails[which] = held
        text = _SPECIAL.sub("", text[:len(text) - len(held)])
        if self._at_start[which]:
            text = text.lstrip()
            if which == THINKING and self._prompt_words and text.startswith(self._prompt_words):
                text = text[len(self._prompt_words):].lstrip()
            self._at_start[which] = not text
        if text:
            self.state = which
            new[which].append(text)
            (self.thinking if which == THINKING else self.answer).append(text)
