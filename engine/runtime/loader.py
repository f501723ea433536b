"""Loading a model: inspect → plan → load, stepping down the fallback ladder when memory is short."""

from __future__ import annotations

import dataclasses
import functools
import os
import threading
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from engine.api import ChatRequest, LoadRequest, Placement
from engine.errors import InsufficientMemoryError
from engine.messages import Msg, msg
from engine.runtime.conversation.conversation_memory import ConversationMemory, open_memory
from engine.runtime.generation.generate import GenerationRun, OnPrompt
from engine.runtime.devices import backend_probe, cpu_calibration
from engine.native import backends
from engine.native.backends import selected
from engine.runtime.bindings import llama_cpp_module
from engine.runtime.llama_model import NativeModel, Sampling
from engine.runtime.generation.sampling import SamplingDefaults, model_sampling
from engine.model.facts import ModelFacts
from engine.model.inspect_gguf import inspect_model
from engine.plan import fallback_ladder
from engine.plan import hardware as machine        # machine.probe(): tests replace it
from engine.runtime.devices.placement import measure
from engine.runtime.planning import NO_SLOTS, plan_recipe
from engine.runtime.experts.predictor import RouterPredictor, hidden_node_name
from engine.recipe import Recipe
from engine.runtime.experts.routing import (NativeRoutingRecorder, RoutingRecorder, make_recorder,
                                    stack_decode_hidden, stack_decode_probs, stack_decode_steps,
                                    stack_decode_weights)

Progress = Callable[[float, Msg], None]
Fallback = Callable[[Recipe], None]


@dataclass(frozen=True)
class RoutingTrace:
    ids: np.ndarray                  # int16 [tokens, layers, k]
    weights: np.ndarray | None       # float32 [tokens, layers, k]
    meta: dict
    pred: np.ndarray | None          # int16 [tokens, layers, k], hidden-state predictions
    probs: np.ndarray | None = None  # float32 [tokens, layers, n_expert], router distribution
    hidden: np.ndarray | None = None  # float32 [tokens, layers, n_embd], each router's input


@dataclass
class LoadedModel:
    facts: ModelFacts
    recipe: Recipe
    native: NativeModel
    recorder: RoutingRecorder | NativeRoutingRecorder | None
    summary: Msg                     # where it runs (what it placed), and any note
    placement: Placement | None = None
    last_routing: list = field(default_factory=list)
    # Each conversation's model state (engine/runtime/conversation/conversation_memory.py); None: the
    # context's prefix is reused in place only.
    memory: ConversationMemory | None = None

    def start_chat(self, request: ChatRequest, stop: threading.Event,
                   on_prompt: OnPrompt | None = None,
                   conversation: bool = False) -> GenerationRun:
        """``conversation``: the request is a turn of ``request.conversation_id``, whose
        state is kept (document steps and summaries use the context without keeping it)."""
        if self.recorder is not None:
            self.recorder.enabled = request.record_routing
        sampling = Sampling(temperature=request.temperature, top_p=request.top_p, seed=request.seed)
        if request.model_sampling:
            own = self.sampling_defaults
            sampling = Sampling(own.temperature, own.top_p, own.top_k, request.seed,
                                min_p=own.min_p)
        cache = self.native.slot_cache
        if cache is not None and request.conversation_id is not None:
            cache.switch_conversation(request.conversation_id)
        return GenerationRun(self.native, request.messages, request.max_tokens, sampling, stop,
                             request.request_id, think=request.think, step=request.step,
                             stop_loops=request.stop_loops, on_prompt=on_prompt,
                             memory=self.memory,
                             conversation_id=request.conversation_id if conversation else None)

    @functools.cached_property
    def sampling_defaults(self) -> SamplingDefaults:
        return model_sampling(self.native.metadata())

    def finish_chat(self, run: GenerationRun) -> None:
        self.last_routing = run.routing

    def routing_trace(self, routing: list | None = None) -> RoutingTrace:
        """Routing in the shared trace format: ids [tokens, layers, k] (+ weights, pred)."""
        steps = self.last_routing if routing is None else routing
        layers = list(self.facts.moe_layers)
        meta = {"model": self.facts.name or os.path.basename(self.facts.path),
                "architecture": self.facts.architecture, "n_expert": self.facts.n_expert,
                "k": self.facts.n_expert_used, "layers": layers, "source": "rotary-engine"}
        return RoutingTrace(stack_decode_steps(steps, layers), stack_decode_weights(steps, layers),
                            meta, self._predictions(steps), stack_decode_probs(steps, layers),
                            stack_decode_hidden(steps, layers))

    def _predictions(self, steps: list) -> np.ndarray | None:
        if not steps or not all(step.hidden for step in steps):
            return None
        predictor = RouterPredictor.from_gguf(self.facts)
        return np.stack([predictor.predict_token(step.hidden) for step in steps])

    def forget_conversation(self, conversation_id: int) -> None:
        if self.memory is not None:
            self.memory.forget(conversation_id)

    def close(self) -> None:
        try:
            if self.memory is not None:
                self.memory.close()      # the conversation held goes to disk first
        finally:
            self.native.close()


def load_with_fallback(request: LoadRequest, progress: Progress, fallback: Fallback,
                       with_weights: bool = False, with_hidden: bool = False,
                       with_probs: bool = False) -> LoadedModel:
    progress(0.0, msg("runtime.checking_file"))
    facts = inspect_model(request.model_path)
    # Two variants on one card (CUDA and Vulkan): the measured faster one, before llama_cpp
    # loads and fixes the variant for this process (engine/runtime/devices/backend_probe.py).
    backend_probe.prefer(facts, request, progress)
    # The processor build measured fastest for this model's weights (engine/native/cpu_isa.py).
    backends.expect_processor_weights(facts.main_weight_type)
    llama_cpp_module()      # the back-end chosen and loaded: the probe reads its live memory
    hardware = machine.probe()
    advanced = dict(request.advanced or {})
    recipe = request.recipe or plan_recipe(facts, hardware, request.preset, advanced)
    wants_routing = facts.is_moe and (request.record_routing or with_hidden or with_weights or with_probs)
    recorder = _recorder(facts, recipe, with_weights, with_hidden, with_probs) if wants_routing else None
    native, recipe = _load_first_that_fits(facts, hardware, recipe, advanced, recorder, progress,
                                           fallback)
    # The measured upload cap stays with the slot cache (native.slot_cache.transfer): the
    # recipe is what was planned.
    placement = measure_placement(native, hardware)
    summary = placement.message or msg("runtime.ready")   # what llama.cpp placed, never the plan
    if native.slot_cache_note:   # planned slots that this build or this card could not give
        summary = msg("runtime.summary_with_note", summary=summary, note=native.slot_cache_note)
    memory = open_memory(native, request.state_dir, hardware.ram_available_bytes)
    progress(1.0, msg("runtime.ready"))
    cpu_calibration.after_load()     # in the background, where this machine is not measured yet
    return LoadedModel(facts, recipe, native, recorder, summary, placement, memory=memory)


def measure_placement(native: NativeModel, hardware) -> Placement:
    """Bytes per device of the loaded model, from llama.cpp's own record of its buffers."""
    choice = selected()
    device = choice.device if choice is not None else None
    gpus = {d.name: d.description for item in (choice.listing if choice is not None else ())
            if choice is not None and item.variant == choice.variant
            for d in item.devices if d.kind != "cpu"}
    cache = native.slot_cache
    on_gpu = cache is not None and native.slot_banks_on_gpu and device is not None
    software = frozenset(d.name for item in (choice.listing if choice is not None else ())
                         if choice is not None and item.variant == choice.variant
                         for d in item.devices if d.kind == "software")
    return measure(native.load_log, gpus, cache.bank_bytes if cache is not None else 0,
                   device.name if on_gpu and device is not None else "CPU",
                   device.backend if device is not None else "CPU",
                   getattr(hardware, "unused_gpus", ()), software)


def _recorder(facts: ModelFacts, recipe: Recipe, with_weights: bool, with_hidden: bool,
              with_probs: bool = False):
    hidden_name = hidden_node_name(facts.architecture) if with_hidden else ""
    return make_recorder(with_weights, max_rows=recipe.n_ubatch, hidden_name=hidden_name,
                         n_embd=facts.n_embd if with_hidden else 0, with_probs=with_probs)


def _load_first_that_fits(facts, hardware, recipe, advanced, recorder, progress, fallback):
    last_error = None
    for attempt in _attempts(recipe, facts, hardware, advanced):
        if attempt is not recipe:
            fallback(attempt)
        try:
            return _load_native(facts, attempt, recorder, progress), attempt
        except InsufficientMemoryError as error:
            last_error = error
    raise InsufficientMemoryError(msg("runtime.not_enough_memory"),
                                  last_error.details if last_error else "")


def _attempts(first: Recipe, facts, hardware, advanced):
    yield first
    if not first.expert_slots:
        yield from fallback_ladder(facts, hardware, first)
        return
    # Slots first give way: half of them, then the stock whole-layer layout and its ladder.
    half = tuple(n // 2 if n // 2 >= facts.n_expert_used else 0 for n in first.expert_slots)
    if any(half):
        yield dataclasses.replace(first, expert_slots=half, note=msg("runtime.fewer_slots"))
    stock = plan_recipe(facts, hardware, first.preset, advanced, slots=NO_SLOTS)
    yield stock
    yield from fallback_ladder(facts, hardware, stock)


def _load_native(facts, recipe, recorder, progress) -> NativeModel:
    def on_progress(fraction: float) -> bool:
        progress(0.05 + 0.9 * fraction, msg("runtime.loading_into_memory"))
        return True

    return NativeModel(facts.path, recipe, recorder, on_progress)
