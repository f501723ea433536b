"""Streaming generation: records, speeds, stop between tokens, prefix reuse, typed errors."""

from __future__ import annotations

import threading

import pytest

from engine.api import ChatMessage
from engine.errors import ContextFullError
from engine.runtime.generation.generate import GenerationRun, generate, render_chat, stream_generate
from engine.runtime.llama_model import NativeModel, Sampling
from engine.runtime.experts.routing import RoutingRecorder

HELLO = (ChatMessage("user", "hello there, the model"),)


@pytest.fixture
def model(tiny_moe_path, cpu_recipe):
    native = NativeModel(str(tiny_moe_path), cpu_recipe(), RoutingRecorder())
    yield native
    native.close()


def test_chat_template_from_the_gguf_is_applied(model):
    prompt = render_chat(model, (ChatMessage("system", "be brief"), ChatMessage("user", "hi")))
    assert prompt == ("<|im_start|>system\nbe brief<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n"
                      "<|im_start|>assistant\n")


def test_stream_yields_one_record_per_token_with_gauge_numbers(model):
    records = list(stream_generate(model, HELLO, max_tokens=12, sampling=Sampling(temperature=0),
                                   request_id=7))
    assert 1 <= len(records) <= 12
    last = records[-1]
    assert [r.generated_tokens for r in records] == list(range(1, len(records) + 1))
    assert last.request_id == 7 and last.prompt_tokens > 5
    assert last.prompt_tps > 0 and last.ttft_s > 0
    assert last.context_size == 512 and last.context_used == last.prompt_tokens + len(records)
    if len(records) > 2:
        assert last.decode_tps > 0


def test_greedy_generation_is_deterministic_and_text_matches_records(model):
    first_text, first = generate(model, HELLO, max_tokens=10, sampling=Sampling(temperature=0))
    second_text, _ = generate(model, HELLO, max_tokens=10, sampling=Sampling(temperature=0))
    assert first_text == second_text
    assert first.generated_tokens >= 1 and first.stop_reason in ("length", "eos")


def test_stop_flag_is_checked_between_tokens(model):
    stop = threading.Event()
    run = GenerationRun(model, HELLO, 50, Sampling(temperature=0.9, seed=3), stop, 1)
    seen = 0
    for _ in run.records():
        seen += 1
        if seen == 3:
            stop.set()
    assert seen == 3
    assert run.stats.stop_reason == "stopped" and run.stats.generated_tokens == 3


def test_second_turn_reuses_the_cached_prefix(model):
    text, first = generate(model, HELLO, max_tokens=4, sampling=Sampling(temperature=0))
    follow_up = HELLO + (ChatMessage("assistant", text), ChatMessage("user", "and then?"))
    _, second = generate(model, follow_up, max_tokens=4, sampling=Sampling(temperature=0))
    full_prompt = len(model.tokenize(render_chat(model, follow_up)))
    assert second.prompt_tokens < full_prompt       # only the new part was read


def test_routing_is_kept_for_every_generated_token(model):
    run = GenerationRun(model, HELLO, 8, Sampling(temperature=0.8, seed=1), threading.Event(), 1)
    records = list(run.records())
    assert len(run.routing) == len(records)
    assert all(sorted(step.ids) == [0, 1, 2, 3] for step in run.routing)


def test_prompt_longer_than_context_is_a_typed_error(tiny_moe_path, cpu_recipe):
    native = NativeModel(str(tiny_moe_path), cpu_recipe(n_ctx=256))   # llama.cpp's minimum
    try:
        with pytest.raises(ContextFullError) as caught:
            GenerationRun(native, (ChatMessage("user", "the answer " * 300),), 8, Sampling(),
                          threading.Event(), 1)
    finally:
        native.close()
    assert "too long" in caught.value.message


def test_generation_stops_when_the_context_is_full(tiny_moe_path, cpu_recipe):
    native = NativeModel(str(tiny_moe_path), cpu_recipe(n_ctx=256))
    long_prompt = (ChatMessage("user", "the model " * 110),)    # ~230 of 256 tokens
    try:
        _, stats = generate(native, long_prompt, max_tokens=500,
                            sampling=Sampling(temperature=1.0, seed=2))
    finally:
        native.close()
    assert stats.context_size == 256
    assert stats.context_used <= 256 and stats.generated_tokens < 40
