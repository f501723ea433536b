"""End to end on the real engine thread with the built-in demo model (a fixed message through real MoE layers).

Skips only when engine.runtime.service is not there yet; everything else is a real failure.
"""

from __future__ import annotations

import importlib.util

import pytest

from app.paths import default_paths
from app.settings import Settings, SettingsStore
from tests.app.conftest import close_app, wait_idle, wait_ready

if importlib.util.find_spec("engine.runtime.service") is None:
    pytest.skip("engine.runtime.service is not in this checkout yet; the lead wires it in",
                allow_module_level=True)

pytestmark = pytest.mark.slow


def test_real_engine_streams_an_answer_into_the_window(qtbot, qapp, qloop, rotary_home):
    from app.application import RotaryApp
    from app.bridge import real_backend
    paths = default_paths()
    SettingsStore(paths.settings_file).save(Settings(first_run_done=True, preset="cpu-only"))
    rotary = RotaryApp(qapp, qloop, real_backend(), paths)
    try:
        rotary.start()
        wait_ready(qtbot, rotary, timeout=120_000)
        assert "demo" in rotary.window.model_label.text().lower()
        rotary.chat.send("Hello, who are you?")
        wait_idle(qtbot, rotary, timeout=120_000)
        errors = [n for n in rotary.notices.history if n.level == "error"]
        assert not errors, errors[0].details
        gauge = rotary.window.gauge.model
        assert gauge.context_size > 0 and gauge.decode_tps > 0
        stored = rotary.history.messages(rotary.chat.conversation_id)
        assert stored[0].content == "Hello, who are you?"
    finally:
        close_app(rotary)


def test_real_check_of_a_model_file_gives_a_plain_fit(qtbot, qapp, qloop, tiny_moe_path):
    """The wizard's check (inspect + plan + describe) on the engine's real functions."""
    import asyncio
    from app.bridge import EngineBridge, real_backend
    bridge = EngineBridge(real_backend(), qloop)
    task = asyncio.ensure_future(bridge.check_model(str(tiny_moe_path), "cpu-only"))
    qtbot.waitUntil(task.done, timeout=30_000)
    result = task.result()
    assert result.level in ("green", "yellow", "red") and result.text
    bridge.shutdown()
