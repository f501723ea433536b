"""End to end on the real engine thread with the built-in demo model (a fixed message
through real MoE layers): the gauge shows what this engine measured, nothing else."""

from __future__ import annotations

import asyncio
import time

import psutil
import pytest

from app.settings.paths import default_paths
from app.settings.model import Settings, SettingsStore
from tests.app.conftest import close_app, wait_idle, wait_ready
from engine.api import StepRecord, RequestFinished
from tests.support.event_collector import on_request_events

pytestmark = pytest.mark.slow
GB = 2**30


def test_real_engine_drives_the_gauge_with_measured_numbers(qtbot, qapp, qloop, rotary_home):
    from app.application import RotaryApp
    from app.bridge.facade import real_backend
    paths = default_paths()
    SettingsStore(paths.settings_file).save(Settings(first_run_done=True, preset="cpu-only"))
    rotary = RotaryApp(qapp, qloop, real_backend(), paths)
    steps, loaded, finished = [], [], []
    on_request_events(rotary.bridge, StepRecord, steps.append)
    on_request_events(rotary.bridge, RequestFinished, finished.append)
    rotary.bridge.model_loaded.connect(loaded.append)
    try:
        rotary.start()
        wait_ready(qtbot, rotary, timeout=120_000)
        assert "demo" in rotary.window.model_label.text().lower()
        rotary.session.chat.send("Hello, who are you?")
        wait_idle(qtbot, rotary, timeout=120_000)
        errors = [n for n in rotary.notices.history if n.level == "error"]
        assert not errors, errors[0].details
        gauge = rotary.window.gauge
        gauge.refresh()
        last = steps[-1]
        model, sections = gauge.model, gauge.sections
        # Every number on the gauge is the engine's own last measurement.
        assert last.decode_tps > 0 and model.decode_tps == last.decode_tps
        # Memory: what the conversation takes as its next turn sends it (the engine's count
        # of the prompt and the answer's text), not the last step's cache.
        assert model.context_used == finished[-1].context.kept_tokens > last.prompt_tokens > 0
        assert model.context_size == last.context_size == loaded[0].recipe.n_ctx
        words = round(last.decode_tps * model.words_per_token)
        assert sections["speed"].caption.text() == \
            f"Writing speed: about {words} words a second"
        assert f"writing {last.decode_tps:.1f} tokens per second" in sections["speed"].toolTip()
        assert f"{model.context_used:,} of {last.context_size:,} tokens used" in \
            sections["context"].toolTip()
        # The engine reports no expert hit rate (yet): the gauge must not invent one.
        reported = [s.expert_hit_rate for s in steps if s.expert_hit_rate is not None]
        assert sections["hits"].isHidden() == (not reported)
        # System memory is this process's resident memory, measured (psutil), not the plan.
        qtbot.waitUntil(lambda: model.ram_bytes is not None, timeout=3000)
        assert abs(model.ram_bytes - psutil.Process().memory_info().rss) < 0.2 * GB
        assert sections["ram"].caption.text().startswith("System memory used by Rotary: ")
        stored = rotary.history.messages(rotary.session.store.conversation_id)
        assert stored[0].content == "Hello, who are you?"
        # The demo says only what is true on any computer (this one has no NVIDIA card).
        assert "your graphics card" not in stored[1].content
        assert "any graphics card present" in stored[1].content
    finally:
        close_app(rotary)


def test_real_check_of_a_small_model_fits_well(qtbot, qapp, qloop, tiny_moe_path):
    """The wizard's check (inspect + plan + describe) on the engine's real functions: a
    0.6 MB model on any computer that runs these tests fits well, at a real speed."""
    from app.bridge.engine_bridge import EngineBridge
    from app.bridge.facade import real_backend
    bridge = EngineBridge(real_backend(), qloop)
    task = asyncio.ensure_future(bridge.checks.check_model(str(tiny_moe_path), "cpu-only"))
    qtbot.waitUntil(task.done, timeout=30_000)
    result = task.result()
    assert result.level == "green", result.text
    assert result.preset == "cpu-only" and "graphics card is not used" in result.text
    low, high = result.expected_tps
    assert 0 < low <= high and "words per second" in result.text
    bridge.shutdown()


def test_a_failed_real_load_fails_the_wait_at_once_with_its_error(qtbot, qapp, qloop,
                                                                   rotary_home, tmp_path):
    from app.application import RotaryApp
    from app.bridge.facade import real_backend
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"not a gguf file at all")
    paths = default_paths()
    SettingsStore(paths.settings_file).save(
        Settings(first_run_done=True, preset="cpu-only", model_path=str(broken)))
    rotary = RotaryApp(qapp, qloop, real_backend(), paths)
    rotary.allow_unexpected = True
    try:
        rotary.start()
        started = time.monotonic()
        with pytest.raises(pytest.fail.Exception, match="the model did not load"):
            wait_ready(qtbot, rotary, timeout=120_000)
        assert time.monotonic() - started < 30     # not the whole 120 s
    finally:
        close_app(rotary)


def test_the_model_check_names_the_speed_measured_on_this_computer(qtbot, qapp, qloop,
                                                                   rotary_home):
    """Before any answer the check gives the bandwidth model's range (2-5x wide); after
    answers on this model it names one figure, from what the engine measured, with the
    answers' spread as its range, and keeps it across a restart."""
    import re
    from app.application import RotaryApp
    from app.bridge.facade import real_backend
    from app.setup.model_check import ModelChooser
    paths = default_paths()
    SettingsStore(paths.settings_file).save(Settings(first_run_done=True, preset="cpu-only"))
    rotary = RotaryApp(qapp, qloop, real_backend(), paths)
    finished = []
    on_request_events(rotary.bridge, RequestFinished, finished.append)

    def check() -> object:
        chooser = ModelChooser(rotary.bridge, rotary.notices, "cpu-only")
        chooser.check(rotary.loaded_facts.path)
        qtbot.waitUntil(lambda: chooser.result is not None, timeout=60_000)
        return chooser

    try:
        rotary.start()
        wait_ready(qtbot, rotary, timeout=120_000)
        before = check()
        assert not before.result.measured
        low, high = before.result.expected_tps
        assert re.search(r"\d+–\d+ words per second", before.verdict.text())
        for question in ("Hello", "Who are you?", "And again?"):
            rotary.session.chat.send(question)
            wait_idle(qtbot, rotary, timeout=120_000)
        speeds = sorted(e.stats.decode_tps for e in finished)
        assert len(speeds) == 3 and all(e.stats.generated_tokens >= 16 for e in finished)
        after = check()
        assert after.result.measured
        figure = speeds[1]                                   # the median answer
        a, b = after.result.expected_tps
        assert a == pytest.approx(min(speeds[0], 0.9 * figure), rel=0.001)   # every answer,
        assert b == pytest.approx(max(speeds[-1], 1.1 * figure), rel=0.001)  # at least ±10%
        words = round(round(figure, 2) * rotary.window.gauge.model.words_per_token)
        assert f"roughly {words} words per second" in after.verdict.text()
        assert "Measured on this computer" in after.verdict.toolTip()
    finally:
        close_app(rotary)
    again = RotaryApp(qapp, qloop, real_backend(), paths)             # a restart keeps it
    try:
        assert again.speeds.range_for(rotary.loaded_facts.path, "cpu-only")[1:] == (a, b)
    finally:
        close_app(again)
