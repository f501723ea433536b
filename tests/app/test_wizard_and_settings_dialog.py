"""First-run wizard and the settings dialog, driven as a user would."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, QUrl

from app.model_check import is_model_drop
from app.settings import Settings
from tests.app.conftest import wait_ready
from tests.app.fakes import FakeHardware


def _model(tmp_path, name="model.gguf"):
    path = tmp_path / name
    path.write_bytes(b"GGUF" + b"\0" * 32)
    return path


def test_wizard_finds_hardware_checks_a_model_and_picks_the_8gb_recipe(qtbot, make_app,
                                                                        tmp_path):
    rotary = make_app(settings=Settings(), wizard=True)
    wizard = rotary.wizard
    qtbot.waitUntil(lambda: "RTX 4060" in wizard.hardware_page.found.text(), timeout=3000)
    assert "8.0 GB of graphics memory" in wizard.hardware_page.found.text()
    assert "32 GB of system memory" in wizard.hardware_page.found.text()
    wizard.next()
    assert not wizard.model_page.isComplete()
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.chooser.check(str(_model(tmp_path)))
    assert "Fits well." in wizard.chooser.verdict.text()
    assert "8 GB graphics card" in wizard.model_page.recipe.text()
    assert wizard.model_page.isComplete()
    wizard.next()
    wizard.accept()
    assert rotary.settings.current.model_path == str(tmp_path / "model.gguf")
    assert rotary.settings.current.preset == "8gb-laptop"
    assert rotary.settings.current.first_run_done
    wait_ready(qtbot, rotary)


def test_wizard_red_fit_blocks_and_bad_file_is_explained(qtbot, make_app, tmp_path):
    rotary = make_app(settings=Settings(), wizard=True)
    wizard = rotary.wizard
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.chooser.check(str(_model(tmp_path, "big-model.gguf")))
    assert "Too big" in wizard.chooser.verdict.text() and not wizard.model_page.isComplete()
    text_file = tmp_path / "notes.gguf"
    text_file.write_text("hello")
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.chooser.check(str(text_file))
    assert "cannot be used" in wizard.chooser.verdict.text()
    assert "not a language model" in rotary.window.notice_bar.message.text()


def test_wizard_offers_the_demo_model(qtbot, make_app):
    rotary = make_app(settings=Settings(), wizard=True, hardware=FakeHardware(gpus=()))
    wizard = rotary.wizard
    qtbot.waitUntil(lambda: "No NVIDIA" in wizard.hardware_page.found.text(), timeout=3000)
    wizard.next()
    assert "same short message" in wizard.model_page.demo_button.accessibleName()
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.model_page.demo_button.click()
    assert wizard.using_demo and "processor-only" in wizard.model_page.recipe.text()
    wizard.next()
    assert "small demo model" in wizard.done_page.summary.text()
    wizard.accept()
    assert rotary.settings.current.model_path == ""
    assert rotary.settings.current.preset == "cpu-only"


def test_drop_accepts_only_local_gguf_files():
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile("/tmp/a.txt"), QUrl.fromLocalFile("/tmp/m.GGUF")])
    assert is_model_drop(mime) == "/tmp/m.GGUF"
    mime.setUrls([QUrl("https://example.com/m.gguf")])
    assert is_model_drop(mime) is None


def test_settings_dialog_changes_reload_and_rerun_wizard(qtbot, make_app, tmp_path):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    dialog = rotary.open_settings()
    with qtbot.waitSignal(dialog.chooser.check_finished, timeout=3000):
        dialog.chooser.check(str(_model(tmp_path)))
    dialog.gpu_layers.setValue(10)
    dialog.temperature.setValue(0.4)
    dialog.language.setCurrentIndex(dialog.language.findData("ko"))
    dialog.accept()
    current = rotary.settings.current
    assert current.gpu_expert_layers == 10 and current.temperature == 0.4
    assert current.language == "ko" and rotary.chat.temperature == 0.4
    qtbot.waitUntil(lambda: ("auto", {"gpu_expert_layers": 10}) in rotary.fake["plans"],
                    timeout=3000)
    wait_ready(qtbot, rotary)
    dialog = rotary.open_settings()
    dialog.rerun.click()
    assert rotary.wizard is not None and rotary.wizard.isVisible()
