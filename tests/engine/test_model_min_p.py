"""The model's own min-p (``general.sampling.min_p``) is applied when an answer uses the
model's sampling defaults: read from the file, and given to llama.cpp's sampler chain.

A random-weight MoE has a flat next-token distribution, so sampling at temperature 1.5
wanders from the greedy path at once; a min-p of 1.0 keeps only the most likely token, so
every seed then writes exactly the greedy answer. The same file without min-p is the
control: it must wander, or the test could not tell the two apart."""

from __future__ import annotations

import threading

import gguf
import pytest

from engine.api import ChatMessage, ChatRequest
from engine.demo.tiny_moe import (SPECS, _add_model_metadata, _add_tensors,
                                  _add_tokenizer_metadata, build_vocabulary)
from engine.messages import msg, render
from engine.model.inspect_gguf import inspect_model
from engine.runtime.llama_model import NativeModel
from engine.runtime.loader import LoadedModel
from engine.runtime.generation.sampling import model_sampling
from tests.conftest import make_cpu_recipe

QUESTION = (ChatMessage("user", "hello there, the model"),)
SEEDS = (1, 2, 3, 4)
STEPS = 24
WANDERING = {"temp": 1.5, "top_p": 1.0, "top_k": 0}


def _write(path, sampling: dict[str, float]):
    """tiny_moe's "test" model (random weights) with general.sampling.* keys."""
    spec = SPECS["test"]
    tokens, types, merges = build_vocabulary()
    writer = gguf.GGUFWriter(str(path), "qwen3moe")
    _add_model_metadata(writer, spec)
    _add_tokenizer_metadata(writer, tokens, types, merges,
                            "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}"
                            "<|im_end|>\n{% endfor %}<|im_start|>assistant\n")
    for key, value in sampling.items():
        if key == "top_k":
            writer.add_int32(f"general.sampling.{key}", int(value))
        else:
            writer.add_float32(f"general.sampling.{key}", float(value))
    _add_tensors(writer, spec, len(tokens), None)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


@pytest.fixture(scope="module")
def answers(tmp_path_factory):
    """answers(sampling) -> the greedy answer and one answer per seed with the model's own
    sampling (ChatRequest.model_sampling), through LoadedModel.start_chat."""
    directory = tmp_path_factory.mktemp("min-p")

    def run(name: str, sampling: dict[str, float]):
        path = _write(directory / f"{name}.gguf", sampling)
        recipe = make_cpu_recipe()
        loaded = LoadedModel(inspect_model(str(path)), recipe, NativeModel(str(path), recipe),
                             None, msg("runtime.ready"))
        try:
            def answer(**kwargs) -> tuple[str, int]:
                request = ChatRequest(QUESTION, max_tokens=STEPS, record_routing=False,
                                      stop_loops=False, **kwargs)
                chat = loaded.start_chat(request, threading.Event())
                for _record in chat.records():
                    pass
                return chat.text, chat.stats.generated_tokens
            greedy = answer(temperature=0.0)
            own = [answer(model_sampling=True, seed=seed) for seed in SEEDS]
            return loaded.sampling_defaults, greedy, own
        finally:
            loaded.close()
    return run


def test_the_files_min_p_is_read_and_said(tmp_path):
    path = _write(tmp_path / "m.gguf", {**WANDERING, "min_p": 0.05})
    native = NativeModel(str(path), make_cpu_recipe())
    try:
        own = model_sampling(native.metadata())
    finally:
        native.close()
    assert own.source == "model file" and own.min_p == 0.05
    assert "Min-p 0.05" in render(own.said)


def test_the_models_own_min_p_is_applied_to_sampling(answers):
    own, greedy, sampled = answers("min-p-1", {**WANDERING, "min_p": 1.0})
    assert own.min_p == 1.0 and own.temperature == 1.5
    assert greedy[1] >= 8, greedy          # a long enough answer to compare
    assert sampled == [greedy] * len(SEEDS)


def test_without_min_p_the_same_sampling_wanders_from_greedy(answers):
    """The control: the test above could fail (min-p ignored would look like this)."""
    own, greedy, sampled = answers("no-min-p", WANDERING)
    assert own.min_p == 0.0
    assert any(answer != greedy for answer in sampled)
