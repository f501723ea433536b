"""Lifecycle on the real engine thread with the demo model: New chat on the first token,
then a second question at once (it waits in the bridge while the first answer goes on to
its end in its own conversation)."""

from __future__ import annotations

import pytest

from app.settings.paths import default_paths
from app.settings.model import Settings, SettingsStore
from tests.app.conftest import close_app, wait_ready
from engine.api import StepRecord
from tests.support.event_collector import on_request_events

pytestmark = pytest.mark.slow


def test_new_chat_mid_answer_on_the_real_engine(qtbot, qapp, qloop, rotary_home):
    from app.application import RotaryApp
    from app.bridge.facade import real_backend
    paths = default_paths()
    SettingsStore(paths.settings_file).save(Settings(first_run_done=True, preset="cpu-only"))
    rotary = RotaryApp(qapp, qloop, real_backend(), paths)
    try:
        rotary.start()
        wait_ready(qtbot, rotary, timeout=120_000)
        chat, store, left = rotary.session.chat, rotary.session.store, []

        def leave_on_first_token(event):
            if event.text and not left:
                left.append(store.conversation_id)
                chat.new_chat()                 # inside the token's own dispatch
                chat.send("Second question")

        on_request_events(rotary.bridge, StepRecord, leave_on_first_token)
        chat.send("First question")
        qtbot.waitUntil(lambda: bool(left) and not rotary.session.requests.jobs,
                        timeout=120_000)
        errors = [n for n in rotary.notices.history if n.level == "error"]
        assert not errors, errors[0].details
        first = rotary.history.messages(left[0])
        assert [m.role for m in first] == ["user", "assistant"]
        assert first[0].content == "First question"
        # It went on to its own end: not cut off, and not labelled as stopped by the user.
        assert first[1].content and first[1].stats.stop_reason in ("eos", "length")
        second = rotary.history.messages(store.conversation_id)
        assert store.conversation_id != left[0]
        assert [m.content for m in second][:1] == ["Second question"]
        assert len(second) == 2 and second[1].stats.stop_reason != "stopped"
        assert rotary.window.chat.message_widgets[-1].text == second[1].content
    finally:
        close_app(rotary)
