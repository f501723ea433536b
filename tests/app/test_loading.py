"""Loading: progress, fallback explained, failures, crash marker, missing model file."""

from __future__ import annotations

from app.settings.paths import default_paths
from app.settings.model import Settings
from engine.errors import InsufficientMemoryError
from engine.messages import msg
from tests.app.conftest import wait_ready
from tests.app.fakes import FakeScript


def test_fallback_is_explained_in_plain_words(qtbot, make_app):
    script = FakeScript(fallbacks=(msg("plan.fallback_fewer_parts", on_gpu=3, total=40),))
    rotary = make_app(script=script)
    qtbot.waitUntil(lambda: "safer one" in rotary.window.loading.explanations.text(),
                    timeout=5000)
    wait_ready(qtbot, rotary)
    assert "more of the model stays in main memory (3 of 40 parts" in \
        rotary.window.loading.explanations.text()
    assert any("less graphics memory" in n.message for n in rotary.notices.history)


def test_failed_load_keeps_the_app_running_and_offers_a_safer_recipe(qtbot, make_app):
    script = FakeScript(fail_load=InsufficientMemoryError("This model needs more memory than "
                                                          "this computer has.", "need 30 GB"))
    rotary = make_app(script=script)
    bar = rotary.window.notice_bar
    qtbot.waitUntil(lambda: "needs more memory" in bar.message.text(), timeout=5000)
    assert not rotary.chat.model_ready and rotary.window.isVisible()
    assert not default_paths().loading_marker.exists()
    script.fail_load = None
    safer = [b for b in bar.action_buttons if "safer" in b.text()][0]
    safer.click()
    wait_ready(qtbot, rotary)
    assert rotary.settings.current.preset == "cpu-only"
    assert rotary.fake["engine"].requests[-1].preset == "cpu-only"


def test_crash_during_last_load_proposes_the_safer_recipe(qtbot, make_app):
    default_paths().loading_marker.write_text('{"model_path": "x.gguf", "preset": "auto"}')
    rotary = make_app()
    bar = rotary.window.notice_bar
    assert "closed unexpectedly while loading" in bar.message.text()
    assert rotary.fake["engine"] is None          # nothing loads until the user chooses
    [b for b in bar.action_buttons if "safer" in b.text()][0].click()
    wait_ready(qtbot, rotary)
    assert rotary.settings.current.preset == "cpu-only"
    assert not default_paths().loading_marker.exists()


def test_marker_is_written_during_load(qtbot, make_app):
    rotary = make_app(start=False)
    seen = []
    rotary.loader.started.connect(lambda *_: seen.append(default_paths().loading_marker.exists()))
    rotary.start()
    wait_ready(qtbot, rotary)
    assert seen == [True]
    assert not default_paths().loading_marker.exists()


def test_moved_model_file_is_reported_with_a_way_out(qtbot, make_app, tmp_path):
    rotary = make_app(settings=Settings(first_run_done=True,
                                        model_path=str(tmp_path / "gone.gguf")))
    bar = rotary.window.notice_bar
    assert "moved or deleted" in bar.message.text()
    assert not rotary.chat.model_ready
    [b for b in bar.action_buttons if "Choose" in b.text()][0].click()
    assert rotary.dialogs.wizard is not None and rotary.dialogs.wizard.isVisible()


def test_advanced_values_reach_the_engine_to_be_planned_there(qtbot, make_app, tmp_path):
    """The bridge no longer plans a load (without the slot layout) itself; the
    load request carries the Advanced values to the engine's planning entry point."""
    model = tmp_path / "real.gguf"
    model.write_bytes(b"GGUF" + b"\0" * 16)
    rotary = make_app(settings=Settings(first_run_done=True, model_path=str(model),
                                        context_size=8192))
    wait_ready(qtbot, rotary)
    request = rotary.fake["engine"].requests[0]
    assert request.recipe is None and rotary.fake["plans"] == []
    assert (request.preset, dict(request.advanced)) == ("auto", {"n_ctx": 8192})
