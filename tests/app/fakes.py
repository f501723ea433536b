"""A fake engine implementing ``EngineLike``, reporting from a real thread like the real one.

It streams a scripted answer token by token, honours ``stop`` between tokens, can fail
a chat or a load with a typed EngineError, and can step down a fallback ladder. Its queue
is the engine's own (engine.runtime.requests): each request has its own stop, a request
reports RequestStarted when its turn comes, and one stopped while it waits never starts.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from engine.api import (DocumentRequest, LoadFallback, LoadProgress, LoadRequest, ModelLoaded,
                        ModelUnloaded, RequestFailed, RequestFinished, RequestStarted,
                        ResponseStats, StepRecord, ChatRequest)
from engine.errors import DocumentError, EngineError, NotAGGUFError
from engine.messages import Msg, msg
from engine.runtime.requests import RequestQueue
from engine.model.facts import AttentionShape, LayerBytes, ModelFacts
from engine.plan import resolve_preset
from engine.plan.hardware import GpuInfo, HardwareInfo, VramReading
from engine.recipe import MemoryEstimate, Recipe

from app.bridge import EngineBackend

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
    fail_load: EngineError | None = None
    fallbacks: tuple[str, ...] = ()
    record_routing: bool = True
    answers: list[tuple[str, ...]] = field(default_factory=list)   # per chat, optional
    first_token_delay: float = 0.0              # "reading the prompt" (stop still works)
    chat_template: str | None = CHAT_TEMPLATE   # None: the model looks like a base model


class FakeEngine:
    """``EngineLike`` with a real worker thread; events go to ``listener`` on that thread."""

    def __init__(self, listener, script: FakeScript | None = None) -> None:
        self.listener = listener
        self.script = script or FakeScript()
        self.requests: list[object] = []      # as the worker took them
        self.documents = None                 # (DocumentRequest, stop) -> None, set by a test
        self._inbox = RequestQueue()
        self._stop = threading.Event()        # the running request's own stop
        self._thread = threading.Thread(target=self._run, name="fake-engine", daemon=True)
        self._thread.start()

    # EngineLike
    def load(self, request: LoadRequest) -> int:
        self._inbox.put(request)
        return request.request_id

    def chat(self, request: ChatRequest) -> int:
        self._inbox.put(request)
        return request.request_id

    def document(self, request: DocumentRequest) -> int:
        self._inbox.put(request)
        return request.request_id

    def stop(self, request_id: int | None = None) -> None:
        self._inbox.stop(request_id)

    def stop_conversation(self, conversation_id: int) -> None:
        self._inbox.stop_conversation(conversation_id)

    def waiting(self, request_id: int) -> bool:
        return self._inbox.waiting(request_id)

    def unload(self) -> None:
        self._inbox.put("unload")

    def shutdown(self, timeout: float = 10.0) -> None:
        self._inbox.stop_all()
        self._inbox.put(None, first=True)
        self._thread.join(timeout)

    # worker thread
    def _run(self) -> None:
        while True:
            item, self._stop = self._inbox.take()
            try:
                if item is None:
                    return
                self._handle(item)
            finally:
                self._inbox.done()

    def _handle(self, item) -> None:
        if isinstance(item, ChatRequest) and self._stop.is_set():   # stopped while waiting
            self.listener(RequestFinished(item.request_id, "", self._stats(item, 0, 0.0,
                                                                           "stopped")))
            return
        if isinstance(item, DocumentRequest) and self._stop.is_set():
            self.listener(RequestFailed(item.request_id, DocumentError(
                msg("engine.document_stopped_before_start"))))
            return
        self.requests.append(item)
        if isinstance(item, LoadRequest):
            self._do_load(item)
        elif isinstance(item, ChatRequest):
            self.listener(RequestStarted(item.request_id, item.conversation_id))
            self._do_chat(item)
        elif isinstance(item, DocumentRequest):
            self.listener(RequestStarted(item.request_id, item.conversation_id))
            self.documents(item, self._stop)
        else:
            self.listener(ModelUnloaded(0))

    def _do_load(self, request: LoadRequest) -> None:
        for fraction in (0.0, 0.5, 1.0):
            self.listener(LoadProgress(request.request_id, fraction,
                                       msg("runtime.loading_into_memory")))
        if self.script.fail_load is not None:
            self.listener(RequestFailed(request.request_id, self.script.fail_load))
            return
        recipe = request.recipe or fake_recipe(request.preset or "auto")
        for message in self.script.fallbacks:
            recipe = replace(recipe, note=message)
            self.listener(LoadFallback(request.request_id, message, recipe))
        facts = fake_facts(request.model_path, chat_template=self.script.chat_template)
        self.listener(ModelLoaded(request.request_id, facts, recipe, msg("runtime.ready")))

    def _do_chat(self, request: ChatRequest) -> None:
        answer = self.script.answers.pop(0) if self.script.answers else self.script.answer
        start, text, reason = time.perf_counter(), "", "eos"
        while time.perf_counter() - start < self.script.first_token_delay \
                and not self._stop.is_set():
            time.sleep(0.002)
        start = time.perf_counter()
        for index, piece in enumerate(answer, start=1):
            if self._stop.is_set():
                reason = "stopped"
                break
            if self.script.fail_chat is not None and index == 3:
                error, self.script.fail_chat = self.script.fail_chat, None
                self.listener(RequestFailed(request.request_id, error))
                return
            text += piece
            self.listener(self._step(request, piece, index, start))
            # Sleep to a deadline, not a fixed delay, so the rate is exactly 1/token_delay.
            time.sleep(max(0.0, start + index * self.script.token_delay - time.perf_counter()))
        self.listener(RequestFinished(request.request_id, text, self._stats(request, len(
            text.split()), start, reason)))

    def _step(self, request: ChatRequest, piece: str, index: int, start: float) -> StepRecord:
        return StepRecord(request.request_id, piece, index, index, 12, 150.0, 42.0, 0.05,
                          12 + index, 4096,
                          expert_hit_rate=0.875 if self.script.record_routing else None)

    @staticmethod
    def _stats(request: ChatRequest, n: int, start: float, reason: str) -> ResponseStats:
        return ResponseStats(request.request_id, 12, n, 150.0, 42.0, 0.05,
                             time.perf_counter() - start, 12 + n, 4096, reason)


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


@dataclass
class FakeSummary:
    level: str
    text: object          # engine.messages.Msg, as the planner's describe() gives
    expected_tps: float | None = 20.0


def fake_backend(script: FakeScript | None = None, hardware: HardwareInfo | None = None,
                 vram: FakeVramReader | None = None) -> tuple[EngineBackend, dict]:
    """A backend of fakes, and a dict where the test finds the engine and call log."""
    state: dict = {"engine": None, "script": script or FakeScript(), "plans": []}
    hardware = hardware or fake_hardware()

    def make_engine(listener):
        state["engine"] = FakeEngine(listener, state["script"])
        return state["engine"]

    def inspect(path):
        if not Path(path).exists():
            raise NotAGGUFError("This file is not a language model (GGUF) file.", path)
        if Path(path).read_bytes()[:4] != b"GGUF":
            raise NotAGGUFError("This file is not a language model (GGUF) file.", path)
        return fake_facts(str(path))

    def plan(facts, hw, preset=None, overrides=None):
        state["plans"].append((preset, overrides))
        return fake_recipe(preset or "auto")

    def describe(recipe, facts, hw, measured=None):
        big = "big" in Path(facts.path).name
        return FakeSummary("red", msg("plan.wont_fit_card", need="40", free="7.0")) if big else \
            FakeSummary("green", msg("plan.usage_card_and_memory", vram="5.0", ram="14",
                                     words="20"))

    def ensure_demo(directory):
        Path(directory).mkdir(parents=True, exist_ok=True)
        path = Path(directory) / "rotary-demo.gguf"
        path.write_bytes(b"GGUF" + b"\0" * 64)
        return path

    backend = EngineBackend(make_engine, lambda: hardware, vram or FakeVramReader(),
                            inspect, plan, describe, ensure_demo, resolve_preset,
                            lambda: PROCESS_RAM_BYTES)
    return backend, state
