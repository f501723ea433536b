"""A document summary end to end: the window, the bridge, the real engine thread and the demo
model (which writes its fixed message: this checks the plumbing, not the summary's quality)."""

from __future__ import annotations

import pytest

from app.session.document_session import Stage
from app.settings.paths import default_paths
from engine.api import DocumentFinished
from app.settings.model import Settings, SettingsStore
from tests.support.document_samples import long_pdf
from tests.app.conftest import close_app, wait_idle, wait_ready
from tests.support.event_collector import on_request_events

pytestmark = pytest.mark.slow


def test_a_pdf_is_summarised_in_parts_through_the_real_engine(qtbot, qapp, qloop, rotary_home,
                                                               tmp_path):
    from app.application import RotaryApp
    from app.bridge.facade import real_backend
    paths = default_paths()
    SettingsStore(paths.settings_file).save(Settings(first_run_done=True, preset="cpu-only"))
    rotary = RotaryApp(qapp, qloop, real_backend(), paths)
    path = long_pdf(tmp_path / "Bericht über 2026.pdf", 2)
    try:
        rotary.start()
        wait_ready(qtbot, rotary, timeout=120_000)
        panel = rotary.document_widgets.panel
        assert rotary.session.documents.open_file(str(path))
        qtbot.waitUntil(panel.options.isVisible, timeout=120_000)
        overview = rotary.session.documents.task.overview
        assert overview.pages == 2 and overview.parts >= 2
        assert panel.found.text().startswith("2 pages, ") and "on this computer" in panel.found.text()
        assert rotary.session.documents.summarize("short")
        wait_idle(qtbot, rotary, timeout=300_000)
        errors = [n for n in rotary.notices.history if n.level == "error"]
        assert not errors, errors[0].details
        user, answer = rotary.session.store.messages
        assert "Bericht über 2026.pdf" in user.content
        assert answer.content.endswith(f"Read all of it (2 pages) in {overview.parts} parts.")
        summary = answer.stats.document_summary
        assert summary["parts_read"] == overview.parts and not summary["partial"]
        assert {p for c in summary["citations"] for p in c["pages"]} == {1, 2}
        assert rotary.window.gauge.model.decode_tps > 0            # steps reached the gauge
        stored = rotary.history.messages(rotary.session.store.conversation_id)
        assert [m.content for m in stored] == [user.content, answer.content]
    finally:
        close_app(rotary)


def test_deleting_the_conversation_while_its_summary_runs_on_the_real_engine(
        qtbot, qapp, qloop, rotary_home, tmp_path):
    """The summary stops and nothing of it is kept (it was saved into the deleted
    conversation: a FOREIGN KEY error, a card stuck at 100% and Send hidden)."""
    from app.application import RotaryApp
    from app.bridge.facade import real_backend
    paths = default_paths()
    SettingsStore(paths.settings_file).save(Settings(first_run_done=True, preset="cpu-only"))
    rotary = RotaryApp(qapp, qloop, real_backend(), paths)
    path = long_pdf(tmp_path / "Bericht.pdf", 4)
    try:
        rotary.start()
        wait_ready(qtbot, rotary, timeout=120_000)
        pane, panel = rotary.window.chat, rotary.document_widgets.panel
        assert rotary.session.documents.open_file(str(path))
        qtbot.waitUntil(panel.options.isVisible, timeout=120_000)
        assert rotary.session.documents.summarize("short")
        qtbot.waitUntil(lambda: panel.bar.maximum() > 0, timeout=120_000)   # parts reported
        doomed, request = rotary.session.store.conversation_id, rotary.session.documents.request_id
        assert rotary.session.documents.task.stage is Stage.SUMMARISING and panel.bar.value() < panel.bar.maximum()
        ended = []
        on_request_events(rotary.bridge, DocumentFinished, ended.append)
        rotary.session.store.delete(doomed)
        assert not panel.isVisible() and pane.composer.send_button.isVisible()
        qtbot.waitUntil(lambda: [e.request_id for e in ended] == [request], timeout=120_000)
        assert ended[0].summary.partial                      # the engine stopped it
        qtbot.wait(200)
        assert not rotary.history.exists(doomed)
        assert rotary.history.db.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 0
        assert [n for n in rotary.notices.history if n.level == "error"] == []
        assert rotary.session.chat.send("Hello")                 # the chat works again at once
        wait_idle(qtbot, rotary, timeout=120_000)
        assert [m.role for m in rotary.session.store.messages] == ["user", "assistant"]
    finally:
        close_app(rotary)
