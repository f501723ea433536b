"""A document summary in the app with "An office server": the window, the bridge, the remote
engine and a real llama-cpp-python server on 127.0.0.1 (demo model: plumbing, not quality)."""

from __future__ import annotations

import pytest

from app.settings.paths import default_paths
from app.settings.model import Settings, SettingsStore
from tests.support.document_samples import long_pdf
from tests.app.conftest import close_app, wait_idle, wait_ready
from tests.app.fakes import MemoryKeys

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def document_server(tmp_path_factory):
    pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python's server extra")
    from engine.demo.demo_model import write_demo_model
    from tests.support.fixture_server import FixtureServer

    model = write_demo_model(tmp_path_factory.mktemp("app-remote-docs") / "demo.gguf")
    with FixtureServer(model, n_ctx=2048) as server:
        yield server


def test_a_pdf_is_summarised_in_parts_on_the_office_server(qtbot, qapp, qloop, rotary_home,
                                                           document_server, monkeypatch,
                                                           tmp_path):
    from app.application import RotaryApp
    from app.bridge.facade import real_backend

    monkeypatch.setattr("app.setup.server_settings.KeyStore", MemoryKeys)
    paths = default_paths()
    SettingsStore(paths.settings_file).save(Settings(
        first_run_done=True, preset="cpu-only", engine_location="server",
        server_url=document_server.url, server_model=document_server.alias))
    rotary = RotaryApp(qapp, qloop, real_backend(), paths)
    path = long_pdf(tmp_path / "Bericht.pdf", 6, paragraphs_per_page=1)
    try:
        rotary.start()
        wait_ready(qtbot, rotary, timeout=60_000)
        panel = rotary.document_widgets.panel
        assert rotary.session.documents.open_file(str(path))
        qtbot.waitUntil(panel.options.isVisible, timeout=60_000)
        overview = rotary.session.documents.task.overview
        assert overview.parts >= 2 and overview.on_server
        assert "on the office server" in panel.found.text()
        assert "this computer" not in panel.found.text()
        assert rotary.session.documents.summarize("short")
        wait_idle(qtbot, rotary, timeout=120_000)
        errors = [n for n in rotary.notices.history if n.level == "error"]
        assert not errors, errors[0].details
        user, answer = rotary.session.store.messages
        assert "Bericht.pdf" in user.content
        assert answer.content.endswith(f"Read all of it (6 pages) in {overview.parts} parts.")
        assert answer.stats.document_summary["parts_read"] == overview.parts
    finally:
        close_app(rotary)
