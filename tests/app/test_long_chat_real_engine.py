"""The issue's goal on the real engine thread with the built-in demo model at a 512-token
context: 40 turns without an error, every prompt fits, the line where the model's view begins
moves down the conversation; then a message too long alone, said plainly, and a short one
after it that is answered."""

from __future__ import annotations

import pytest

from app.settings.paths import default_paths
from app.settings.model import Settings, SettingsStore
from tests.app.conftest import close_app, wait_idle, wait_ready
from engine.api import RequestFinished
from tests.support.event_collector import on_request_events

pytestmark = pytest.mark.slow


def test_forty_turns_at_512_then_a_message_too_long_then_a_short_one(qtbot, qapp, qloop,
                                                                      rotary_home, tmp_path):
    from app.application import RotaryApp
    from app.bridge.facade import real_backend
    from engine.demo.demo_model import write_demo_model
    paths = default_paths()
    # The demo's writer as a model file of its own: the Advanced context applies to it.
    model = write_demo_model(tmp_path / "writer.gguf")
    SettingsStore(paths.settings_file).save(Settings(first_run_done=True, preset="cpu-only",
                                                     model_path=str(model), context_size=512))
    rotary = RotaryApp(qapp, qloop, real_backend(), paths)
    finished, starts = [], []
    on_request_events(rotary.bridge, RequestFinished, finished.append)
    rotary.chat.window_moved.connect(starts.append)
    try:
        rotary.start()
        wait_ready(qtbot, rotary, timeout=120_000)
        for turn in range(40):
            assert rotary.session.chat.send(f"Turn {turn}: please tell me about the demo again.")
            wait_idle(qtbot, rotary, timeout=60_000)
        errors = [n for n in rotary.notices.history if n.level == "error"]
        assert not errors, errors[0].details
        assert len(finished) == 40 and all(e.text for e in finished)
        print("\n(context size, used at the end, kept for the next turn, left out):",
              [(e.stats.context_size, e.stats.context_used, e.context.kept_tokens,
                e.context.left_out) for e in finished])
        assert all(e.stats.context_size == 512 and e.stats.context_used <= 512
                   for e in finished)
        moved = [s for s in starts if s > 0]
        assert len(set(moved)) >= 3 and moved == sorted(moved)
        assert rotary.window.chat.window_marker.isVisible()
        print(f"\nwindow starts (message index) over 40 turns: {sorted(set(moved))}")

        assert rotary.session.chat.send("word " * 700)        # alone more than the whole context
        wait_idle(qtbot, rotary, timeout=60_000)
        bar = rotary.window.notice_bar
        assert bar.isVisible() and "too long" in bar.message.text()
        assert rotary.session.chat.send("What is 2 plus 2?")
        wait_idle(qtbot, rotary, timeout=60_000)
        assert finished[-1].text and len(finished) == 41
        assert not bar.isVisible()
    finally:
        close_app(rotary)
