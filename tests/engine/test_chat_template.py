"""A GGUF without a chat template (a base model): llama.cpp's built-in template for its
architecture is used, and the model's facts say it looks like a base model."""

from __future__ import annotations

import ctypes

from engine.api import ChatMessage
from engine.demo.tiny_moe import write_tiny_moe
from engine.model.inspect_gguf import inspect_model
from engine.runtime.bindings import llama_cpp_module
from engine.runtime.generate import (BUILTIN_TEMPLATES, builtin_template_name, generate,
                                     render_builtin, render_chat)
from engine.runtime.llama_model import NativeModel, Sampling

MESSAGES = (ChatMessage("system", "Be brief."), ChatMessage("user", "Hello?"))


def _llama_builtin_names() -> set[str]:
    llama = llama_cpp_module()
    count = llama.llama_chat_builtin_templates(None, 0)
    names = (ctypes.c_char_p * count)()
    llama.llama_chat_builtin_templates(names, count)
    return {name.decode() for name in names}


def test_every_fallback_is_a_template_llama_cpp_has():
    assert set(BUILTIN_TEMPLATES.values()) <= _llama_builtin_names()
    assert builtin_template_name("qwen3moe") == "chatml"
    assert builtin_template_name("some-new-arch") == "chatml"


def test_builtin_rendering_ends_with_the_assistant_turn():
    text = render_builtin("chatml", MESSAGES)
    assert text == ("<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHello?"
                    "<|im_end|>\n<|im_start|>assistant\n")
    assert render_builtin("gemma", MESSAGES).endswith("<start_of_turn>model\n")


def test_a_model_without_template_is_flagged_and_still_answers(tmp_path, cpu_recipe,
                                                                tiny_moe_path):
    base = write_tiny_moe(tmp_path / "base.gguf", "test", chat_template=None)
    assert inspect_model(str(base)).looks_like_base_model
    assert not inspect_model(str(tiny_moe_path)).looks_like_base_model
    model = NativeModel(str(base), cpu_recipe())
    try:
        assert render_chat(model, MESSAGES) == render_builtin("chatml", MESSAGES)
        text, stats = generate(model, MESSAGES, max_tokens=8,
                               sampling=Sampling(temperature=0.0))
        assert stats.prompt_tokens > 0 and stats.generated_tokens > 0
    finally:
        model.close()
