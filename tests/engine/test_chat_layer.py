"""llama.cpp's chat layer (engine/runtime/chat/chat_layer.py over librotary_chat) on every chat
template the vendored llama.cpp ships in models/templates: three turns rendered (thinking on
and off where the template has the switch), and a reply written in the family's own format
read back with thinking and answer apart and no marker in the answer.

The templates are read where the install left them (the extracted sdist the shim was built
from; $ROTARY_LLAMA_TEMPLATES), not copied here: they come from many model vendors.
"""

from __future__ import annotations

import logging
import os
import pathlib
import re
import subprocess
import sys

import pytest

import llama_build
from engine.runtime.chat import chat_layer
from engine.remote.server_text import ServerTextParser
from engine.runtime.chat.chat_format import _SPECIAL, TURN_MARKERS, detect_format
from engine.remote.stream import SERVER_FORMAT
from engine.runtime.chat.chat_layer import (ChatLayerError, ChatTemplates, LayerParser, choose_format,
                                      reply_reader)

TEMPLATES = pathlib.Path(os.environ.get("ROTARY_LLAMA_TEMPLATES")
                         or llama_build.chat_shim_folder() / "templates")
# The templates with a reasoning section: the 32 Rotary's own detect_format read
# before, and the 10 it took as plain.
BEFORE = ("Bielik-11B-v3.0-Instruct", "GLM-4.6", "GLM-4.7-Flash", "HuggingFaceTB-SmolLM3-3B",
          "Kimi-K2-Thinking", "LFM2.5-8B-A1B", "MiniMax-M2", "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
          "NVIDIA-Nemotron-Nano-v2", "Qwen-QwQ-32B", "Qwen-Qwen3-0.6B", "Qwen3.5-4B", "Reka-Edge",
          "Spark2.5", "StepFun3.5-Flash", "deepseek-ai-DeepSeek-R1-Distill-Llama-8B",
          "deepseek-ai-DeepSeek-R1-Distill-Qwen-32B", "deepseek-ai-DeepSeek-V3.1",
          "deepseek-ai-DeepSeek-V3.2", "deepseek-ai-DeepSeek-V4-Flash-0731",
          "deepseek-ai-DeepSeek-V4", "google-gemma-4-31B-it-interleaved", "google-gemma-4-31B-it",
          "ibm-granite-granite-3.3-2B-Instruct", "inclusionai-ling-3.0-flash",
          "llama-cpp-deepseek-r1", "llama-cpp-rwkv-world", "openai-gpt-oss-120b",
          "openbmb-MiniCPM5-1B", "poolside-Laguna-S-2.1", "poolside-Laguna-XS-2.1",
          "poolside-Laguna-XS.2")
ADDED = ("ByteDance-Seed-OSS", "Apriel-1.6-15b-Thinker-fixed", "unsloth-Apriel-1.5",
         "mistralai-Ministral-3-14B-Reasoning-2512", "CohereForAI-c4ai-command-r7b-12-2024-tool_use",
         "Cohere2MoE", "MiniMax-M3", "Kimi-K3", "tencent-Hy3", "muse-glimmer")
REASONING = BEFORE + ADDED
THOUGHT = "First I weigh the two printer offers against each other."
ANSWER = "The second offer is cheaper."
TURNS = [{"role": "user", "content": "Compare the offers."},
         {"role": "assistant", "content": "Which offers do you mean?"},
         {"role": "user", "content": "The two printer offers."}]


def _expect_layer() -> bool:
    return os.environ.get("ROTARY_EXPECT_CHAT_LAYER") == "1"


@pytest.fixture(scope="module")
def lib():
    loaded = chat_layer.load()
    if loaded is None or not TEMPLATES.is_dir():
        reason = ("librotary_chat or llama.cpp's templates are not installed "
                  "(python3 bootstrap.py test builds both)")
        if _expect_layer():
            pytest.fail(reason)
        pytest.skip(reason)
    return loaded


def _templates() -> list[str]:
    return sorted(p.stem for p in TEMPLATES.glob("*.jinja")) if TEMPLATES.is_dir() else []


def _common(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def family_reply(layer: ChatTemplates, prompt: str) -> str:
    """What a model of this family writes after ``prompt``: the template's own rendering of
    an answer with its reasoning, from where it leaves the prompt; where the template drops
    reasoning from history, the family's thinking markers (llama.cpp's) around the thought,
    then the template's own rendering of the answer."""
    rendered = layer.render(TURNS + [{"role": "assistant", "content": ANSWER,
                                      "reasoning_content": THOUGHT}], True,
                            add_generation_prompt=False).prompt
    reply = rendered[_common(prompt, rendered):]
    if THOUGHT in reply:
        return reply
    own = detect_format(layer.source)
    if own.can_think and not layer.chat_format().can_think:
        # Apriel 1.5: its system prompt asks for "... [BEGIN FINAL RESPONSE] ... [END FINAL
        # RESPONSE]" after the reasoning; llama.cpp has no parser for it
        return f"{THOUGHT}\n{own.think_close}\n{ANSWER}\n[END FINAL RESPONSE]\n<|end|>"
    probe = layer.render(TURNS, True)
    plain = layer.render(TURNS + [{"role": "assistant", "content": ANSWER}], True,
                         add_generation_prompt=False).prompt
    part = plain[_common(prompt, plain):]
    for tag in probe.thinking_end_tags:
        part = part[part.rfind(tag) + len(tag):] if tag in part else part
    part = part if ANSWER in part else ANSWER
    end, cut = layer.turn_end(), part.index(ANSWER) + len(ANSWER)
    part = part[:part.index(end, cut) + len(end)] if end and end in part[cut:] else part[:cut]
    opened = "" if probe.starts_thinking() else probe.thinking_start_tag
    closed = probe.thinking_end_tags[0] if probe.thinking_end_tags else ""
    return opened + THOUGHT + closed + part


def _read(parser: ServerTextParser | LayerParser, reply: str, piece: int = 3) -> tuple[str, str]:
    """Feed the reply in small pieces, as a stream; returns what streamed (thinking, answer)."""
    thinking, answer = [], []
    for at in range(0, len(reply), piece):
        t, a = parser.feed(reply[at:at + piece])
        thinking.append(t)
        answer.append(a)
    t, a = parser.finish()
    return "".join(thinking + [t]), "".join(answer + [a])


def read_correctly(name: str) -> tuple[bool, str]:
    """(read correctly, how): the reply parsed as the engine would parse it, by llama.cpp's
    parser alone or, for Apriel 1.5, split at its own marker after llama.cpp's parse."""
    source = (TEMPLATES / f"{name}.jinja").read_text(encoding="utf-8")
    with ChatTemplates(source, "<s>", "</s>") as layer:
        prompt, parser = reply_reader(layer, detect_format(source), TURNS, True)
        reply = family_reply(layer, prompt)
        streamed_thinking, streamed_answer = _read(parser, reply)
        markers = [m for m in (layer.chat_format().think_open, layer.chat_format().think_close,
                               layer.turn_end(), *TURN_MARKERS, "[BEGIN FINAL RESPONSE]") if m]
        clean = not any(m in parser.answer_text for m in markers) \
            and not _SPECIAL.search(parser.answer_text)
        ok = (parser.thinking_text == THOUGHT and parser.answer_text == ANSWER and clean
              and streamed_thinking.strip() == THOUGHT and streamed_answer.strip() == ANSWER)
        assert isinstance(parser, LayerParser)       # one parser for every template
        return ok, "llama.cpp" if not parser._own_split else "llama.cpp + Apriel's marker"


@pytest.mark.parametrize("name", _templates())
def test_every_template_renders_three_turns_with_thinking_on_and_off(lib, name):
    source = (TEMPLATES / f"{name}.jinja").read_text(encoding="utf-8")
    with ChatTemplates(source, "<s>", "</s>") as layer:
        on, off = layer.render(TURNS, True), layer.render(TURNS, False)
        for turn in TURNS:
            assert turn["content"] in on.prompt and turn["content"] in off.prompt
        fmt = layer.chat_format()
        if fmt.can_switch:
            assert on.prompt != off.prompt
        if "reasoning_effort" not in source:                          # llama-server's default
            assert layer.render(TURNS, None).prompt == on.prompt
        assert fmt.thinks_by_default == (layer.render(TURNS, None).prompt == on.prompt
                                         and fmt.can_think)
        if not choose_format(layer, detect_format(source)).can_think:
            # a family that never thinks: its answer as it writes one, up to its first marker
            # after the answer (where a model's end-of-generation token stops it)
            plain = layer.render(TURNS + [{"role": "assistant", "content": ANSWER}], False,
                                 add_generation_prompt=False).prompt
            start = _common(off.prompt, plain)
            if start < len(off.prompt) and off.generation_prompt in plain:
                # the template renders history differently from a prompt (Command R+ puts its
                # tool instructions last): the answer starts after the last generation prompt
                start = plain.rfind(off.generation_prompt) + len(off.generation_prompt)
            reply = plain[start:]
            end = re.search(r"<[^<>\s]+>|\[e~\[", reply[reply.find(ANSWER) + len(ANSWER):])
            reply = reply[:reply.find(ANSWER) + len(ANSWER) + end.end()] if end else reply
            _, parser = reply_reader(layer, detect_format(source), TURNS, False)
            _read(parser, reply if ANSWER in reply else ANSWER)
            assert parser.answer_text == ANSWER, reply


@pytest.mark.parametrize("name", REASONING)
def test_a_reply_in_the_familys_own_format_is_read_apart(lib, name):
    ok, reader = read_correctly(name)
    assert ok, f"{name} ({reader})"


def test_all_templates_with_a_reasoning_section_are_read(lib):
    rows = [(name, *read_correctly(name)) for name in REASONING]
    print("\n| template | read correctly | parser |\n|---|---|---|")
    for name, ok, reader in rows:
        print(f"| {name} | {'yes' if ok else 'NO'} | {reader} |")
    read = sum(ok for _, ok, _ in rows)
    print(f"templates with a reasoning section read correctly: {read} of {len(rows)} "
          f"(llama.cpp's parser alone {sum(r == 'llama.cpp' for *_, r in rows)}, split at "
          f"Apriel 1.5's marker {sum(r != 'llama.cpp' for *_, r in rows)})")
    assert len(rows) == 42 and read == 42


@pytest.mark.parametrize("name, reply", [
    ("Qwen3.5-4B", "Plan.\n</think>\n\nLet me look.<tool_call>\n<function=get_weather>\n"
                   "<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>"),
    ("Qwen-Qwen3-0.6B", '<think>Plan.</think>Let me look.<tool_call>\n{"name": "get_weather", '
                        '"arguments": {"city": "Paris"}}\n</tool_call>'),
])
def test_a_tool_call_is_a_plain_sentence_never_its_markup(lib, name, reply):
    with ChatTemplates((TEMPLATES / f"{name}.jinja").read_text(encoding="utf-8")) as layer:
        messages = [{"role": "user", "content": "What is the weather?"}]
        rendered = layer.render(messages)
        assert "get_weather" not in rendered.prompt and "rotary_no_tools" not in rendered.prompt
        parser = layer.parser(rendered, messages, None)
        _read(parser, reply)
    assert parser.thinking_text == "Plan."
    assert parser.answer_text.startswith("Let me look.")
    assert "does not offer" in parser.answer_text
    assert not re.search(r"tool_call|get_weather|Paris|[{}<>]", parser.answer_text)


def test_the_closing_marker_of_a_thinking_budget_turns_the_stream_to_answer(lib):
    """context35's budget writes the format's closing marker into the stream: what follows is
    answer (the engine reads the parser's state to count thinking tokens)."""
    with ChatTemplates((TEMPLATES / "Qwen3.5-4B.jinja").read_text(encoding="utf-8")) as layer:
        rendered = layer.render(TURNS, True)
        parser = layer.parser(rendered, TURNS, True)
        assert parser.state == "thinking" and "</think>" in parser.fmt.think_close
        parser.feed("Still weighing")
        parser.feed(" it.\n" + parser.fmt.think_close + "\n\n")
        parser.feed("Cheaper: the second.")
        parser.finish()
    assert (parser.thinking_text, parser.answer_text) == ("Still weighing it.",
                                                          "Cheaper: the second.")


def test_an_end_of_turn_split_across_pieces_ends_the_reply(lib):
    with ChatTemplates((TEMPLATES / "Qwen-Qwen3-0.6B.jinja").read_text(encoding="utf-8")) as layer:
        parser = layer.parser(layer.render(TURNS, False), TURNS, False)
        for piece in ["Done", ". <b", ">x", "<|im_", "end|>", "<|im_start|>user"]:
            parser.feed(piece)
        parser.finish()
    assert parser.ended and parser.answer_text == "Done. <b>x"


def test_closed_templates_refuse_work_and_close_twice(lib):
    layer = ChatTemplates((TEMPLATES / "Qwen3.5-4B.jinja").read_text(encoding="utf-8"))
    layer.close()
    layer.close()
    with pytest.raises(ChatLayerError):
        layer.render(TURNS)


def test_a_template_llama_cpp_cannot_read_is_a_clear_error(lib):
    with pytest.raises(ChatLayerError, match="."):
        ChatTemplates("{% if %}")


def test_without_the_library_the_log_says_so_once_and_no_template_is_read(monkeypatch, caplog):
    monkeypatch.setenv(chat_layer.LIB_ENV, "/nonexistent/librotary_chat.so")
    monkeypatch.setattr(chat_layer, "_tried", False)
    monkeypatch.setattr(chat_layer, "_lib", None)
    with caplog.at_level(logging.ERROR, logger="rotary.chat_layer"):
        assert chat_layer.load() is None
        assert chat_layer.load() is None
    assert len([r for r in caplog.records if "did not load" in r.getMessage()]) == 1
    with pytest.raises(ChatLayerError):
        ChatTemplates("{{ messages }}")


_CHILD = """
import ctypes, sys
import llama_cpp
ctypes.CDLL(sys.argv[1])
paths = {line.split()[-1] for line in open('/proc/self/maps') if line.count(' ') >= 5}
print(' '.join(sorted(p for p in paths if '/libllama' in p or '/libggml' in p)))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
def test_one_build_binds_to_whichever_back_end_llama_cpp_loaded(lib):
    """The shim links libllama and ggml by soname: with a GPU variant chosen, it uses that
    variant's copies, never a second libllama."""
    from engine.native import backends
    for variant in backends.installed_variants():
        env = dict(os.environ, LLAMA_CPP_LIB_PATH=variant.folder)
        if variant.name == backends.CPU_VARIANT:
            env.pop("LLAMA_CPP_LIB_PATH")
        out = subprocess.run([sys.executable, "-c", _CHILD, str(chat_layer.shim_path())], env=env,
                             capture_output=True, text=True, timeout=120, check=True).stdout
        loaded = out.split()
        assert any("libllama" in path for path in loaded)
        assert all(pathlib.Path(path).parent == pathlib.Path(variant.folder) for path in loaded), \
            (variant.name, loaded)


SERVER_REPLIES = ("<think>I plan.</think>The answer.",    # the prompt left thinking closed
                  "I plan.</think>The answer.")            # the server's prompt opened it


def test_no_one_llama_cpp_parser_reads_a_servers_text_so_rotarys_reads_it(lib):
    """Why the office-server client keeps its own ServerTextParser: llama.cpp's parser is
    built from the template's rendering, and reads only the replies to that prompt; the
    client sees neither the server's template nor whether its prompt opened the thinking."""
    def layer_reads(name: str, reply: str) -> bool:
        source = (TEMPLATES / f"{name}.jinja").read_text(encoding="utf-8")
        with ChatTemplates(source, "<s>", "</s>") as layer:
            parser = layer.parser(layer.render(TURNS, True))
            _read(parser, reply)
            return (parser.thinking_text, parser.answer_text) == ("I plan.", "The answer.")

    for name in ("Qwen-Qwen3-0.6B", "Qwen3.5-4B"):
        assert not all(layer_reads(name, reply) for reply in SERVER_REPLIES)
    for reply in SERVER_REPLIES:
        parser = ServerTextParser(SERVER_FORMAT)
        _read(parser, reply)
        assert (parser.thinking_text, parser.answer_text) == ("I plan.", "The answer.")
