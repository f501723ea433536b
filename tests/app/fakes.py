"""The app tests' engine: the real ``EngineService`` (engine/runtime/service.py) on a fake
opener, so every request travels the engine's own queue, stops and failure path.

The opener "loads" a ``ScriptedModel``: it streams a scripted answer token by token (honouring
its request's stop between tokens), can fail a chat or a load with a typed EngineError, can step
down a fallback ladder, and runs documents and questions through the engine's own code. No
model file, no llama.cpp: these tests run without the wheel.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from engine.api import (DeviceUse, DocumentRequest, LoadFallback, LoadProgress, LoadRequest,
                        ModelLoaded, Placement,
                        RequestFinished, ResponseStats, StepRecord, ChatRequest, StopReason)
from engine.errors import EngineError, NotAGGUFError
from engine.messages import Msg, msg, size
from engine.model.facts import AttentionShape, LayerBytes, ModelFacts
from engine.plan import PlanSummary
from engine.plan.hardware import GpuInfo, HardwareInfo, VramReading
from engine.recipe import MemoryEstimate, Recipe
from engine.runtime.planning import PlannedModel
from engine.runtime.generation.prompt_progress import PromptMeter
from engine.runtime.requests import CancelToken
from engine.runtime.service import EngineService

from app.bridge.facade import EngineBackend
from app.settings.server import KeyStore

GIB = 2**30


CHAT_TEMPLATE = "{% for m in messages %}<|im_start|>{{ m.role }}{% endfor %}"


def fake_facts(path: str = "/models/fake.gguf", name: str = "Fake MoE 35B",
               chat_template: str | None = CHAT_TEMPLATE) -> ModelFacts:
    layers = tuple(LayerBytes(i, 1000, 8000) for i in range(8))
    return ModelFacts(path=path, file_size=20 * GIB, architecture="qwen3moe", name=name,
                      file_type="Q4_K_M", n_layers=8, n_embd=64, n_ctx_train=4096,
                      n_vocab=100, n_expert=16, n_expert_used=2, n_expert_shared=0,
                      expert_ffn=32, attention=AttentionShape(), chat_template=chat_template,
                      tensors=(), layers=layers)


def fake_recipe(preset: str = "auto", note: Msg | None = None) -> Recipe:
    return Recipe(preset=preset, n_gpu_layers=-1, cpu_expert_layers=(4, 5, 6, 7), n_ctx=4096,
                  flash_attn=True, kv_type="f16", n_batch=512, n_ubatch=512, n_threads=4,
                  n_threads_batch=4, vram=MemoryEstimate(dense_bytes=5 * GIB),
                  ram=MemoryEstimate(expert_bytes=14 * GIB), note=note)


@dataclass
class FakeScript:
    answer: tuple[str, ...] = ("Hello", " there", "!", " Here", " is", " **bold**", " text.")
    token_delay: float = 0.005
    fail_chat: EngineError | None = None       # next chat fails after a few tokens
    fail_at: int = 3                            # ... before this one (1: before any)
    fail_load: EngineError | None = None
    fallbacks: tuple[str, ...] = ()
    record_routing: bool = True
    answers: list[tuple[str, ...]] = field(default_factory=list)   # per chat, optional
    first_token_delay: float = 0.0              # "reading the prompt" (stop still works)
    # Tokens "read" evenly over first_token_delay, reported through the engine's own meter
    # (engine/runtime/generation/prompt_progress.py) at most every prompt_report_s; 0: no reports.
    prompt_tokens: int = 0
    prompt_report_s: float = 0.25
    chat_template: str | None = CHAT_TEMPLATE   # None: the model looks like a base model
    # Documents and questions run the engine's own code (reading, index, passages, citation
    # checks) against this model (tests/scripted_model.py), unless a test sets ``documents``.
    document_model: object | None = None
    # Per chat, optional: what the engine says of the conversation's place in its memory
    # (engine.api.ContextReport: turns left out, tokens it takes, thinking stopped).
    contexts: list = field(default_factory=list)


class ScriptedModels:
    """The fake opener of the real EngineService: what ``state["engine"]`` is in a test.

    ``requests`` lists what the engine thread handed over, in order (loads, and plain chats
    and documents once started; a chat with documents goes to ``script.document_model``); ``documents``, set by a test, replaces the engine's
    document code as ``(request, stop)``, run on the engine thread in the request's turn."""

    def __init__(self, script: FakeScript) -> None:
        self.script = script
        self.requests: list[object] = []
        self.documents: Callable[[DocumentRequest, CancelToken], None] | None = None
        self.listener = None        # the service's emit, for ``documents`` (set when it runs)
        self.service: EngineService | None = None
        self.forgotten: list[int] = []   # conversations the engine was told to forget

    def __call__(self, request: LoadRequest, emit) -> "ScriptedModel":
        self.requests.append(request)
        for fraction in (0.0, 0.5, 1.0):
            emit(LoadProgress(request.request_id, fraction, msg("runtime.loading_into_memory")))
        if self.script.fail_load is not None:
            raise self.script.fail_load
        recipe = request.recipe or fake_recipe(request.preset or "auto")
        for message in self.script.fallbacks:
            recipe = replace(recipe, note=message)
            emit(LoadFallback(request.request_id, message, recipe))
        facts = fake_facts(request.model_path, chat_template=self.script.chat_template)
        return ScriptedModel(self, facts, recipe)


class ScriptedModel:
    """A loaded model (engine.runtime.service.Model) that answers from the script."""

    def __init__(self, models: ScriptedModels, facts: ModelFacts, recipe: Recipe) -> None:
        self.models, self.script, self.facts, self.recipe = models, models.script, facts, recipe

    def loaded_event(self, request_id: int) -> ModelLoaded:
        return ModelLoaded(request_id, self.facts, self.recipe, msg("runtime.ready"))

    def chat(self, request: ChatRequest, stop: CancelToken, emit) -> None:
        self.models.requests.append(request)
        answer = self.script.answers.pop(0) if self.script.answers else self.script.answer
        start, text, reason = time.perf_counter(), "", StopReason.EOS
        meter = PromptMeter(request.request_id, request.conversation_id, emit,
                            self.script.prompt_report_s)
        total = self.script.prompt_tokens
        while (spent := time.perf_counter() - start) < self.script.first_token_delay \
                and not stop.is_set():
            if total:
                meter(int(total * spent / self.script.first_token_delay), total)
            time.sleep(0.002)
        start = time.perf_counter()
        for index, piece in enumerate(answer, start=1):
            if stop.is_set():
                reason = StopReason.STOPPED
                break
            if self.script.fail_chat is not None and index == self.script.fail_at:
                error, self.script.fail_chat = self.script.fail_chat, None
                raise error
            text += piece
            emit(self._step(request, piece, index))
            # Sleep to a deadline, not a fixed delay, so the rate is exactly 1/token_delay.
            time.sleep(max(0.0, start + index * self.script.token_delay - time.perf_counter()))
        emit(RequestFinished(request.request_id, text,
                             self._stats(request, len(text.split()), start, reason),
                             request.conversation_id,
                             context=self.script.contexts.pop(0) if self.script.contexts
                             else None))

    def document(self, request: DocumentRequest, stop: CancelToken, emit) -> None:
        from engine.documents.summarize import DocumentSummarizer

        self.models.requests.append(request)
        if self.models.documents is not None:
            self.models.listener = emit
            self.models.documents(request, stop)
            return
        DocumentSummarizer(self.script.document_model, request, emit, stop).run()

    def documents_model(self):
        """Chat questions with documents: the engine's own code asks this model."""
        return self.script.document_model

    def forget_conversation(self, conversation_id: int) -> None:
        self.models.forgotten.append(conversation_id)

    def idle_work(self) -> None:
        return None

    def close(self) -> None:
        pass

    def _step(self, request: ChatRequest, piece: str, index: int) -> StepRecord:
        return StepRecord(request.request_id, piece, index, index, 12, 150.0, 42.0, 0.05,
                          12 + index, 4096,
                          expert_hit_rate=0.875 if self.script.record_routing else None)

    @staticmethod
    def _stats(request: ChatRequest, n: int, start: float, reason: StopReason) -> ResponseStats:
        return ResponseStats(request_id=request.request_id, prompt_tokens=12, generated_tokens=n,
                             prompt_tps=150.0, decode_tps=42.0, ttft_s=0.05,
                             total_s=time.perf_counter() - start, context_used=12 + n,
                             context_size=4096, stop_reason=reason)


def fake_hardware(gpu: bool = True, ram_gib: float = 32, vram_gib: float = 8) -> HardwareInfo:
    """The engine's own HardwareInfo, as the real probe returns it (no mirrored type)."""
    gpus = (GpuInfo(0, "NVIDIA GeForce RTX 4060 Laptop GPU", int(vram_gib * GIB),
                    int((vram_gib - 1) * GIB), "572.16"),) if gpu else ()
    return HardwareInfo(gpus=gpus, ram_total_bytes=int(ram_gib * GIB),
                        ram_available_bytes=int(ram_gib * GIB * 0.75), cpu_physical_cores=4,
                        cpu_logical_cores=8,
                        nvml_status="NVIDIA driver found" if gpu else "No NVIDIA graphics card found")


PROCESS_RAM_BYTES = int(1.5 * GIB)     # what the fake "measures" as Rotary's resident memory


class FakeVramReader:
    """Returns readings from a list; ``fail`` makes it behave like NVML breaking."""

    def __init__(self, used_gib: float = 5.0, total_gib: float = 8.0) -> None:
        self.used, self.total, self.fail, self.calls = used_gib, total_gib, False, 0
        self.process: int | None = int(3.5 * GIB)      # the model's share, as NVML reports it

    def __call__(self, index: int = 0):
        self.calls += 1
        if self.fail:
            raise RuntimeError("NVML_ERROR_GPU_IS_LOST")
        return VramReading(int(self.used * GIB), int(self.total * GIB), self.process)


def no_models(folders: list[str]) -> list:
    """The model finder of the fake backend: nothing found (tests/app/test_found_models.py
    puts the real finder here, on a fake home)."""
    return []


find_models = no_models


def fake_backend(script: FakeScript | None = None, hardware: HardwareInfo | None = None,
                 vram: FakeVramReader | None = None) -> tuple[EngineBackend, dict]:
    """A backend on the real engine service with a scripted opener, and a dict where the
    test finds the opener (``state["engine"]``: its ``requests``) and the plans asked for."""
    state: dict = {"engine": None, "script": script or FakeScript(), "plans": []}
    hardware = hardware or fake_hardware()

    def make_engine(listener):
        state["engine"] = ScriptedModels(state["script"])
        state["engine"].service = EngineService(listener, state["engine"], name="fake-engine")
        return state["engine"].service

    def plan_model(path, hw, preset=None, advanced=None, measured=None):
        if not Path(path).exists() or Path(path).read_bytes()[:4] != b"GGUF":
            raise NotAGGUFError("This file is not a language model (GGUF) file.", path)
        state["plans"].append((preset, advanced))
        facts, recipe = fake_facts(str(path)), fake_recipe(preset or "auto")
        if "big" in Path(path).name:
            summary = PlanSummary("red", msg("plan.wont_fit_card", need="40", free="7.0"),
                                  (0.0, 0.0))
        else:
            summary = PlanSummary("green", msg("plan.usage_card_and_memory",
                                               vram=size(5 * GIB, GIB), ram=size(14 * GIB, GIB, 10),
                                               speed=msg("plan.speed_words", words="20")),
                                  (15.0, 25.0))
        return PlannedModel(facts, hw, recipe, summary)

    def ensure_demo(directory):
        Path(directory).mkdir(parents=True, exist_ok=True)
        path = Path(directory) / "rotary-demo.gguf"
        path.write_bytes(b"GGUF" + b"\0" * 64)
        return path

    backend = EngineBackend(make_engine, lambda: hardware, vram or FakeVramReader(), plan_model,
                            ensure_demo, lambda: PROCESS_RAM_BYTES,
                            find_models=lambda folders: find_models(folders))
    return backend, state


# ---- shared by several app tests: the keyring in memory, a model file, a GPU placement ----

class MemoryKeys(KeyStore):
    """The keyring, in memory, for tests."""

    def __init__(self) -> None:
        super().__init__()
        self.saved: dict[str, str] = {}

    def get(self, url: str) -> str | None:
        return self.saved.get(url)

    def set(self, url: str, key: str) -> None:
        self.saved[url] = key


def model_file(tmp_path, name="model.gguf"):
    path = tmp_path / name
    path.write_bytes(b"GGUF" + b"\0" * 32)
    return path


def fake_gguf(path, size=64):
    path.parent.mkdir(parents=True, exist_ok=True)
    # Each file its own bytes: identical files are one model found in two places.
    path.write_bytes(b"GGUF" + path.name.encode()[:size].ljust(size, b"\0"))
    return path


GIB = 2 ** 30
RTX = "NVIDIA GeForce RTX 4060 Laptop GPU"
RAM_ONLY = (DeviceUse("CPU", model_bytes=2 * GIB, cache_bytes=GIB // 4),)


def on_gpu() -> Placement:
    gpu = DeviceUse("Vulkan0", RTX, model_bytes=3 * GIB, slot_bytes=2 * GIB)
    return Placement((RAM_ONLY[0], gpu), "Vulkan", msg(
        "runtime.placed_gpu_slots", device=RTX, gpu=size(5.4e9), slots=size(2.1e9),
        ram=size(2.4e9)))
