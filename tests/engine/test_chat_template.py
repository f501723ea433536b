"""A GGUF without a chat template (a base model): llama.cpp's chat layer renders it as ChatML,
as llama-server does, and the model's facts say it looks like a base model. Without the
chat layer the engine refuses in words rather than format the conversation some other way."""

from __future__ import annotations

import queue

import pytest

from engine.api import (ChatMessage, ChatRequest, LoadRequest, ModelLoaded, RequestFailed,
                        RequestFinished)
from engine.demo.tiny_moe import write_tiny_moe
from engine.errors import GenerationError
from engine.model.inspect_gguf import inspect_model
from engine.runtime.chat import chat_layer
from engine.runtime.generation.generate import generate, render_chat
from engine.runtime.llama_model import NativeModel, Sampling
from engine.runtime.service import EngineService

MESSAGES = (ChatMessage("system", "Be brief."), ChatMessage("user", "Hello?"))
CHATML = ("<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHello?<|im_end|>\n"
          "<|im_start|>assistant\n")


def test_a_model_without_template_is_flagged_and_answers_in_chatml(tmp_path, cpu_recipe,
                                                                   tiny_moe_path):
    base = write_tiny_moe(tmp_path / "base.gguf", "test", chat_template=None)
    assert inspect_model(str(base)).looks_like_base_model
    assert not inspect_model(str(tiny_moe_path)).looks_like_base_model
    model = NativeModel(str(base), cpu_recipe())
    try:
        assert render_chat(model, MESSAGES) == CHATML
        text, stats = generate(model, MESSAGES, max_tokens=8,
                               sampling=Sampling(temperature=0.0))
        assert stats.prompt_tokens > 0 and stats.generated_tokens > 0
    finally:
        model.close()


@pytest.fixture
def no_chat_layer(monkeypatch):
    monkeypatch.setenv(chat_layer.LIB_ENV, "/nonexistent/librotary_chat.so")
    monkeypatch.setattr(chat_layer, "_tried", False)
    monkeypatch.setattr(chat_layer, "_lib", None)


def test_without_the_chat_layer_a_conversation_is_a_clear_error(no_chat_layer, cpu_recipe,
                                                                tiny_moe_path):
    model = NativeModel(str(tiny_moe_path), cpu_recipe())
    try:
        with pytest.raises(GenerationError) as raised:
            render_chat(model, MESSAGES)
        assert raised.value.msg is not None
        assert raised.value.msg.code == "runtime.chat_layer_missing"
        assert "Install Rotary again" in raised.value.message
    finally:
        model.close()


def test_without_the_chat_layer_loading_fails_in_words_and_keeps_no_model(no_chat_layer,
                                                                         cpu_recipe,
                                                                         tiny_moe_path):
    events: queue.Queue = queue.Queue()
    service = EngineService(events.put)
    try:
        service.load(LoadRequest(model_path=str(tiny_moe_path), recipe=cpu_recipe()))
        failed = _next(events, (ModelLoaded, RequestFailed))
        assert isinstance(failed, RequestFailed)
        assert failed.error.msg is not None and failed.error.msg.code == "runtime.chat_layer_missing"
        service.chat(ChatRequest(messages=MESSAGES))
        refused = _next(events, (RequestFinished, RequestFailed))
        assert isinstance(refused, RequestFailed)
        assert refused.error.msg is not None and refused.error.msg.code == "engine.no_model"
    finally:
        service.shutdown()


def _next(events: queue.Queue, kinds: tuple[type, ...]):
    while not isinstance(event := events.get(timeout=60), kinds):
        pass
    return event
