"""Older turns slide out, a message too long alone is a clear error, and thinking has a
budget (engine/runtime/conversation/context_window.py), on the rule and through the real engine."""

from __future__ import annotations

import re
import threading

import pytest

from engine.api import ChatMessage
from engine.runtime.conversation import context_window
from engine.runtime.conversation.context_window import (MessageTooLongError, Room, closing_text, fit,
                                           room_for, thinking_budget)
from engine.runtime.generation.generate import GenerationRun, render_chat
from engine.runtime.llama_model import NativeModel, Sampling
from tests.support.reply_models import ANSWER, THINKING, write_reply_model

SYSTEM = ChatMessage("system", "be brief")


def _words(messages) -> int:          # a stand-in tokenizer: one token a word, 2 per message
    return sum(len(m.content.split()) + 2 for m in messages)


def _chat(turns: int, words: int = 10) -> tuple[ChatMessage, ...]:
    out = []
    for i in range(turns):
        out.append(ChatMessage("user", " ".join([f"q{i}"] * words)))
        out.append(ChatMessage("assistant", " ".join([f"a{i}"] * words)))
    return tuple(out)


# ---- the rule -------------------------------------------------------------------------------

def test_a_conversation_that_fits_is_sent_whole():
    messages = (SYSTEM, *_chat(2), ChatMessage("user", "now"))
    window = fit(messages, _words, Room(200, 20, 20))
    assert window.messages == messages and window.left_out == 0


def test_the_oldest_turns_go_first_to_the_target_and_system_and_newest_stay():
    messages = (SYSTEM, *_chat(10), ChatMessage("user", "now"))      # 4 + 240 + 3 tokens
    room = Room(200, 20, 20)                                         # limit 160, target 80
    window = fit(messages, _words, room)
    assert window.messages[0] == SYSTEM and window.messages[-1] == messages[-1]
    assert window.messages[1].role == "user"                         # begins with a question
    assert _words(window.messages) == window.prompt_tokens <= room.target
    assert window.left_out == len(messages) - len(window.messages)
    # the fewest that reach the target: one turn more would have fitted nowhere below it
    one_more = (SYSTEM, *messages[1 + window.left_out - 2:])
    assert _words(one_more) > room.target


def test_a_newest_message_too_long_alone_is_a_clear_error_not_the_whole_chat():
    long_one = ChatMessage("user", "word " * 300)
    with pytest.raises(MessageTooLongError) as caught:
        fit((SYSTEM, *_chat(2), long_one), _words, Room(200, 20, 20))
    assert "too long" in caught.value.message and "earlier messages are kept" in \
        caught.value.message
    # one that fits the context but not the limit is read alone: the answer gets the rest
    window = fit((SYSTEM, *_chat(2), ChatMessage("user", "word " * 170)), _words,
                 Room(200, 20, 20))
    assert window.messages[0] == SYSTEM and len(window.messages) == 2 and window.left_out == 4


def test_room_keeps_a_quarter_for_thinking_and_the_answer_bounded():
    assert room_for(512, 1024, True) == Room(512, 128, 128)
    assert room_for(16384, 1024, True) == Room(16384, 1024, 4096)
    assert room_for(16384, 1024, False).thinking == 0
    assert thinking_budget(16384, 5000, room_for(16384, 1024, True), 40) == 16384 - 5000 - 1064


def test_each_format_closes_its_thinking_with_its_own_marker():
    assert closing_text("think", "</think>")[1] == "\n</think>\n\n"
    assert closing_text("think", "</think>")[0].startswith("\n\nConsidering the limited time")
    assert closing_text("gemma4", "<channel|>")[1] == "<channel|>"
    assert closing_text("harmony", "")[1].endswith("<|channel|>final<|message|>")


# ---- through the engine: 40 turns at a 512-token context ----------------------------------

@pytest.fixture
def model(tiny_moe_path, cpu_recipe):
    native = NativeModel(str(tiny_moe_path), cpu_recipe(n_ctx=512))
    yield native
    native.close()


def _converse(model, turns: int, words: int = 18):
    """The app's part: it sends its window (system + messages from its start) and moves the
    start by what the engine left out. Returns per turn (start, prompt tokens read, prompt
    tokens, tokens in the context at the end)."""
    messages: list[ChatMessage] = []
    start, seen = 0, []
    for turn in range(turns):
        messages.append(ChatMessage("user", f"question {turn}: " + "the model " * words))
        run = GenerationRun(model, (SYSTEM, *messages[start:]), 24,
                            Sampling(temperature=0.8, seed=turn), threading.Event(), turn)
        for _ in run.records():
            pass
        report = run.context_report
        start += report.left_out
        messages.append(ChatMessage("assistant", run.text or "ok"))
        seen.append((start, run.stats.prompt_tokens, len(run.prompt), len(model.tokens)))
    return seen


def test_forty_turns_at_512_never_fail_every_prompt_fits_and_the_window_moves(model):
    seen = _converse(model, 40)
    starts = [s for s, *_ in seen]
    assert all(prompt < 512 and used <= 512 for _, _, prompt, used in seen)
    assert starts == sorted(starts) and len(set(starts)) >= 4     # it slid several times
    print("\nwindow starts:", starts)


def test_sliding_by_a_third_rereads_far_fewer_prompt_tokens_than_by_one_turn(model,
                                                                            monkeypatch):
    slack = sum(read for _, read, *_ in _converse(model, 40))
    model.reuse_prefix([0])          # a fresh start for the second conversation
    monkeypatch.setattr(context_window, "TARGET_SHARE", 1.0)     # leave out the fewest
    tight = sum(read for _, read, *_ in _converse(model, 40))
    print(f"\nprompt tokens read over 40 turns: {slack} sliding to 2/3, {tight} "
          f"leaving out the fewest ({slack / 40:.0f} vs {tight / 40:.0f} a turn)")
    assert slack < 0.75 * tight


def test_a_message_too_long_then_a_short_one_that_is_answered(model):
    history = (SYSTEM, ChatMessage("user", "hello"), ChatMessage("assistant", "hi"))
    with pytest.raises(MessageTooLongError):
        GenerationRun(model, history + (ChatMessage("user", "the answer " * 400),), 16,
                      Sampling(temperature=0), threading.Event(), 1)
    run = GenerationRun(model, history + (ChatMessage("user", "what is 2 plus 2?"),), 16,
                        Sampling(temperature=0.8, seed=1), threading.Event(), 2)
    assert list(run.records()) and run.stats.generated_tokens > 0
    assert run.context_report.left_out == 0


# ---- the thinking budget ----------------------------------------------------------------------

def test_thinking_stops_at_its_budget_with_the_closing_marker_and_the_answer_follows(
        tmp_path, cpu_recipe):
    native = NativeModel(str(write_reply_model("qwen35", tmp_path)), cpu_recipe(n_ctx=1024))
    question = (ChatMessage("user", "What does Rotary do?"),)
    try:
        free = GenerationRun(native, question, 60, Sampling(temperature=0), threading.Event(),
                             1, think=True)
        list(free.records())
        steered = GenerationRun(native, question, 60, Sampling(temperature=0),
                                threading.Event(), 2, think=True)
        steered.thinking_budget = 3
        list(steered.records())
        follow_up = render_chat(native, question + (ChatMessage("assistant", steered.text),),
                                True)
    finally:
        native.close()
    assert free.thinking == THINKING and not free.context_report.thinking_stopped
    assert steered.context_report.thinking_stopped
    assert steered.thinking == " ".join(THINKING.split()[:3])
    assert steered.text == ANSWER and "</think>" not in steered.text
    assert "Considering the limited time" not in follow_up + steered.thinking


@pytest.mark.parametrize("name", ["gemma4", "harmony"])
def test_the_budget_closes_gemma_and_harmony_thinking_with_their_own_markers(tmp_path,
                                                                             cpu_recipe, name):
    native = NativeModel(str(write_reply_model(name, tmp_path)), cpu_recipe(n_ctx=1024))
    try:
        run = GenerationRun(native, (ChatMessage("user", "What does Rotary do?"),), 60,
                            Sampling(temperature=0), threading.Event(), 1, think=True)
        run.thinking_budget = 2
        list(run.records())
    finally:
        native.close()
    assert run.context_report.thinking_stopped and len(run.thinking.split()) <= 3
    assert run.text and not re.search(r"<\|?\w*\|?>|channel|final", run.text), run.text
    if name == "gemma4":
        assert run.text == ANSWER


def test_gpt_oss_keeps_thinking_room_when_llama_cpp_names_its_format():
    """llama.cpp's chat layer names a format by its parser ("llama.cpp:peg-native" for gpt-oss);
    the template's own family still says harmony, which thinks at every effort."""
    from engine.runtime.chat.chat_format import ChatFormat

    layer_format = ChatFormat("llama.cpp:peg-native", "<|channel|>analysis<|message|>", "<|end|>",
                              switch="reasoning_effort")
    assert not context_window.may_think(layer_format, False)
    assert context_window.may_think(layer_format, False, "harmony")
