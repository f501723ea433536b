"""A long prompt says how far it is read: PromptProgress events from the prompt-decode loop,
throttled, with the time left from the rate measured so far."""

from __future__ import annotations

import threading
import time

from engine.api import (ChatMessage, ChatRequest, LoadRequest, ModelLoaded, PromptProgress,
                        RequestFailed, RequestFinished, StepRecord)
from engine.runtime.generation.generate import GenerationRun
from engine.runtime.llama_model import NativeModel, Sampling
from engine.runtime.generation.prompt_progress import PromptMeter
from engine.runtime.service import EngineService
from tests.support.event_collector import Collector

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


def test_the_estimate_follows_batches_that_slow_down_as_the_prompt_grows():
    """Each batch attends to all before it: reading r tokens takes a·r + c·r². A rate so far
    says too little is left; the fitted curve says what is."""
    def seconds(read: int) -> float:
        return 1e-4 * read + 2e-8 * read * read
    now = [0.0]
    events: list[PromptProgress] = []
    meter = PromptMeter(1, None, events.append, interval_s=0.0, clock=lambda: now[0])
    meter(0, 20_000)
    for read in range(512, 6_000, 512):          # the first 30%
        now[0] = seconds(read)
        meter(read, 20_000)
    last = events[-1]
    truth = seconds(20_000) - seconds(last.read)
    assert abs(last.seconds_left - truth) < 0.01 * truth, (last.seconds_left, truth)
    rate_so_far = (20_000 - last.read) / (last.read / last.elapsed_s)
    assert rate_so_far < 0.6 * truth             # what a plain rate would have said


def test_the_estimate_on_a_real_prompt_is_near_the_time_it_took(tiny_moe_path, cpu_recipe):
    """Measured on this computer in one run: the time left said at 40-90 % of a 5,700-token
    prompt, against the time the rest took (a plain rate said 0.30-0.47 of it here)."""
    native = NativeModel(str(tiny_moe_path), cpu_recipe(n_ctx=8192, n_batch=64, n_ubatch=64))
    said: list[tuple[float, PromptProgress]] = []
    meter = PromptMeter(1, None, lambda e: said.append((time.perf_counter(), e)), 0.1)
    try:
        run = GenerationRun(native, (ChatMessage("user", "the model reads every word of this "
                                                         "message " * 190),), 1,
                            Sampling(temperature=0), threading.Event(), 1, on_prompt=meter)
        for _ in run.records():
            read_at = time.perf_counter()
            break
    finally:
        native.close()
    ratios = [e.seconds_left / (read_at - at) for at, e in said if 0.4 <= e.fraction <= 0.9]
    assert ratios and all(0.5 < ratio < 2.0 for ratio in ratios), ratios


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
