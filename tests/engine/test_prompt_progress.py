"""A long prompt says how far it is read: PromptProgress events from the prompt-decode loop,
throttled, with the time left from the rate measured so far (issue 47, item 1)."""

from __future__ import annotations

import threading

from engine.api import (ChatMessage, ChatRequest, LoadRequest, ModelLoaded, PromptProgress,
                        RequestFailed, RequestFinished, StepRecord)
from engine.runtime.generate import GenerationRun
from engine.runtime.llama_model import NativeModel, Sampling
from engine.runtime.prompt_progress import PromptMeter
from engine.runtime.service import EngineService
from tests.engine.test_service import Collector

LONG = (ChatMessage("user", "the model reads every word of this message " * 40),)


def test_the_prompt_loop_reports_each_micro_batch(tiny_moe_path, cpu_recipe):
    native = NativeModel(str(tiny_moe_path), cpu_recipe(n_batch=32, n_ubatch=32, n_ctx=2048))
    try:
        seen: list[tuple[int, int]] = []
        run = GenerationRun(native, LONG, 2, Sampling(temperature=0), threading.Event(), 1,
                            on_prompt=lambda read, total: seen.append((read, total)))
        list(run.records())
    finally:
        native.close()
    total = seen[0][1]
    assert total == len(run.prompt) and total > 32 * 4
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    # one report per micro-batch of 32, in order
    assert [read for read, _ in seen] == [0, *range(32, total, 32), total]


def test_the_meter_throttles_and_estimates_from_the_rate_so_far():
    now = [100.0]
    events: list[PromptProgress] = []
    meter = PromptMeter(7, 3, events.append, interval_s=0.25, clock=lambda: now[0])
    meter(0, 1000)
    for read in range(100, 1000, 100):        # 100 tokens every 0.1 s: 1,000 tokens a second
        now[0] += 0.1
        meter(read, 1000)
    now[0] += 0.1
    meter(1000, 1000)                          # the end: the first token says the rest
    assert [e.read for e in events] == [100, 400, 700]      # at most one per 0.25 s
    first, last = events[0], events[-1]
    assert (first.request_id, first.conversation_id, first.total) == (7, 3, 1000)
    assert abs(first.seconds_left - 0.9) < 1e-6 and abs(last.seconds_left - 0.3) < 1e-6
    assert abs(last.elapsed_s - 0.7) < 1e-6 and abs(last.fraction - 0.7) < 1e-6


def test_the_engine_sends_prompt_progress_with_its_request_and_conversation(tiny_moe_path,
                                                                          cpu_recipe):
    collector = Collector()
    service = EngineService(collector)
    try:
        service.load(LoadRequest(str(tiny_moe_path), recipe=cpu_recipe(n_batch=32, n_ubatch=32, n_ctx=2048)))
        assert isinstance(collector.until((ModelLoaded, RequestFailed))[-1], ModelLoaded)
        request = ChatRequest(LONG, max_tokens=2, temperature=0, conversation_id=42)
        service.chat(request)
        events = collector.until((RequestFinished, RequestFailed))
    finally:
        service.shutdown()
    progress = [e for e in events if isinstance(e, PromptProgress)]
    assert progress, [type(e).__name__ for e in events]
    assert all((p.request_id, p.conversation_id) == (request.request_id, 42) for p in progress)
    assert all(0 < p.read < p.total and p.seconds_left >= 0 for p in progress)
    first_step = next(i for i, e in enumerate(events) if isinstance(e, StepRecord))
    assert events.index(progress[-1]) < first_step        # all of it before the answer
