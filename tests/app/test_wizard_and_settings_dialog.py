"""First-run wizard and the settings dialog, driven as a user would."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, Qt, QUrl

from app.setup.model_check import is_model_drop
from app.settings.model import Settings
from tests.app.conftest import wait_ready
from tests.app.fakes import model_file
from tests.app.fakes import fake_hardware


def test_wizard_finds_hardware_checks_a_model_and_picks_the_8gb_recipe(qtbot, make_app,
                                                                        tmp_path):
    rotary = make_app(settings=Settings(), wizard=True)
    wizard = rotary.dialogs.wizard
    qtbot.waitUntil(lambda: wizard.hardware is not None, timeout=3000)
    assert "RTX 4060" not in wizard.hardware_page.found.text()   # not before it is asked
    wizard.check_computer()
    qtbot.waitUntil(lambda: "RTX 4060" in wizard.hardware_page.found.text(), timeout=3000)
    assert "8.0 GB of graphics memory" in wizard.hardware_page.found.text()
    assert "32 GB of system memory" in wizard.hardware_page.found.text()
    wizard.next()
    assert not wizard.model_page.isComplete()
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.chooser.check(str(model_file(tmp_path)))
    assert "Fits well." in wizard.chooser.verdict.text()
    assert "laptops with an 8 GB graphics card" in wizard.model_page.recipe.text()
    assert wizard.model_page.isComplete()
    wizard.next()
    wizard.accept()
    assert rotary.settings.current.model_path == str(tmp_path / "model.gguf")
    assert rotary.settings.current.preset == "8gb-laptop"
    assert rotary.settings.current.first_run_done
    wait_ready(qtbot, rotary)


def test_wizard_red_fit_blocks_and_bad_file_is_explained(qtbot, make_app, tmp_path):
    rotary = make_app(settings=Settings(), wizard=True)
    wizard = rotary.dialogs.wizard
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.chooser.check(str(model_file(tmp_path, "big-model.gguf")))
    assert "Too big" in wizard.chooser.verdict.text() and not wizard.model_page.isComplete()
    text_file = tmp_path / "notes.gguf"
    text_file.write_text("hello")
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.chooser.check(str(text_file))
    # Said once, not "This file cannot be used: This file is not ..."
    assert wizard.chooser.verdict.text() == "This file is not a language model (GGUF) file."
    assert "not a language model" in rotary.window.notice_bar.message.text()


def test_cancelling_the_wizard_clears_its_file_notice(qtbot, make_app, tmp_path):
    rotary = make_app(settings=Settings(), wizard=True)
    wizard, bar = rotary.dialogs.wizard, rotary.window.notice_bar
    text_file = tmp_path / "notes.gguf"
    text_file.write_text("hello")
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.chooser.check(str(text_file))
    assert bar.isVisibleTo(rotary.window) and "not a language model" in bar.message.text()
    wizard.reject()
    assert not bar.isVisibleTo(rotary.window) and bar.notice is None


def test_a_newer_notice_is_not_withdrawn_with_the_file_notice(qtbot, make_app, tmp_path):
    rotary = make_app(settings=Settings(), wizard=True)
    wizard, bar = rotary.dialogs.wizard, rotary.window.notice_bar
    text_file = tmp_path / "notes.gguf"
    text_file.write_text("hello")
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.chooser.check(str(text_file))
    rotary.notices.info("Something else happened.")
    wizard.reject()
    assert bar.message.text() == "Something else happened." and bar.isVisibleTo(rotary.window)


def test_settings_say_the_demo_model_is_in_use_when_no_file_is_chosen(make_app, tmp_path):
    # A new user on the demo model read the empty "Model file" box as "no model at all".
    rotary = make_app()
    dialog = rotary.dialogs.open_settings()
    assert dialog.chooser.path_edit.text() == ""
    assert "demo model" in dialog.chooser.path_edit.placeholderText()
    dialog.reject()
    model = tmp_path / "model.gguf"
    rotary.settings.update(model_path=str(model))
    dialog = rotary.dialogs.open_settings()
    assert "demo" not in dialog.chooser.path_edit.placeholderText()
    dialog.reject()


def test_clearing_the_model_field_clears_the_error_and_enables_ok(qtbot, make_app, tmp_path):
    from PySide6.QtWidgets import QDialogButtonBox
    rotary = make_app()
    dialog = rotary.dialogs.open_settings()
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    text_file = tmp_path / "notes.gguf"
    text_file.write_text("hello")
    with qtbot.waitSignal(dialog.chooser.check_finished, timeout=3000):
        dialog.chooser.check(str(text_file))
    assert not ok.isEnabled() and dialog.chooser.verdict.text()
    dialog.chooser.path_edit.selectAll()
    qtbot.keyClick(dialog.chooser.path_edit, Qt.Key.Key_Delete)
    assert dialog.chooser.verdict.text() == "" and ok.isEnabled()
    assert not rotary.window.notice_bar.isVisibleTo(rotary.window)
    dialog.reject()


def test_expert_layers_are_disabled_without_a_graphics_card(qtbot, make_app):
    rotary = make_app(hardware=fake_hardware(gpu=False))
    qtbot.waitUntil(lambda: rotary.hardware is not None, timeout=3000)
    dialog = rotary.dialogs.open_settings()
    assert not dialog.gpu_layers.isEnabled()
    assert "No graphics card was found" in dialog.gpu_layers_note.text()
    assert "parts of the model stay on the graphics card" in dialog.gpu_layers.toolTip()
    dialog.reject()


def test_expert_layers_are_disabled_for_a_model_without_experts(qtbot, make_app, tmp_path):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    dialog = rotary.dialogs.open_settings()
    assert dialog.gpu_layers.isEnabled()
    from dataclasses import replace as copy_with
    from tests.app.fakes import fake_facts
    dense = copy_with(fake_facts(), n_expert=0, n_expert_used=0)
    dialog.chooser.show_result(copy_with(rotary.bridge.checks._check_blocking(str(
        model_file(tmp_path)), None), facts=dense))
    assert not dialog.gpu_layers.isEnabled()
    assert dialog.gpu_layers_note.text() == "This model is used whole on every word, so this does not apply."
    dialog.reject()


def test_the_processor_only_setting_is_not_called_slow(qtbot, make_app):
    rotary = make_app(settings=Settings(), wizard=True, hardware=fake_hardware(gpu=False))
    wizard = rotary.dialogs.wizard
    qtbot.waitUntil(lambda: wizard.hardware is not None, timeout=3000)
    wizard.check_computer()
    qtbot.waitUntil(lambda: "No graphics card was found" in wizard.hardware_page.found.text(), timeout=3000)
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.model_page.demo_button.click()
    words = wizard.model_page.recipe.text() + wizard.hardware_page.found.text()
    assert "slow" not in words.lower() and "processor-only setting" in words


def test_wizard_offers_the_demo_model(qtbot, make_app):
    rotary = make_app(settings=Settings(), wizard=True, hardware=fake_hardware(gpu=False))
    wizard = rotary.dialogs.wizard
    qtbot.waitUntil(lambda: wizard.hardware is not None, timeout=3000)
    wizard.check_computer()
    qtbot.waitUntil(lambda: "No graphics card was found" in wizard.hardware_page.found.text(), timeout=3000)
    wizard.next()
    assert "same short message" in wizard.model_page.demo_button.accessibleName()
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.model_page.demo_button.click()
    assert wizard.using_demo and "processor-only" in wizard.model_page.recipe.text()
    assert rotary.bridge.checks.preset_for(fake_hardware(gpu=False)) == "cpu-only"
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
    dialog = rotary.dialogs.open_settings()
    with qtbot.waitSignal(dialog.chooser.check_finished, timeout=3000):
        dialog.chooser.check(str(model_file(tmp_path)))
    dialog.gpu_layers.setValue(10)
    dialog.temperature.setValue(0.4)
    dialog.language.setCurrentIndex(dialog.language.findData("ko"))
    dialog.accept()
    current = rotary.settings.current
    assert current.gpu_expert_layers == 10 and current.temperature == 0.4
    assert current.language == "ko" and rotary.chat.temperature == 0.4
    # The reload carries the Advanced value to the engine's planning entry point.
    qtbot.waitUntil(lambda: any(getattr(r, "advanced", None) == {"gpu_expert_layers": 10}
                                for r in rotary.fake["engine"].requests), timeout=3000)
    wait_ready(qtbot, rotary)
    dialog = rotary.dialogs.open_settings()
    dialog.rerun.click()
    assert rotary.dialogs.wizard is not None and rotary.dialogs.wizard.isVisible()


def test_the_speed_estimate_says_words_and_tokens_consistently(qtbot, qapp, qloop, tiny_moe_path):
    """The check's words-per-second and its tooltip's tokens use the engine's one ratio."""
    import asyncio
    import re
    from app.bridge.engine_bridge import EngineBridge
    from app.bridge.facade import real_backend, words_per_token
    from app.setup.model_check import speed_details
    bridge = EngineBridge(real_backend(), qloop)
    task = asyncio.ensure_future(bridge.checks.check_model(str(tiny_moe_path), "cpu-only"))
    qtbot.waitUntil(task.done, timeout=30_000)
    result = task.result()
    bridge.shutdown()
    words = [int(n) for n in re.search(r"roughly (\d+)–(\d+) words per second",
                                       result.text).groups()]
    low, high = result.expected_tps
    assert words == [round(low * words_per_token()), round(high * words_per_token())]
    assert f"{low:.0f}–{high:.0f} tokens per second" in speed_details(result.expected_tps)


def test_wizard_check_my_computer_shows_the_self_test_verdict(qtbot, make_app):
    rotary = make_app(settings=Settings(), wizard=True)
    page = rotary.dialogs.wizard.hardware_page
    qtbot.waitUntil(lambda: rotary.dialogs.wizard.hardware is not None, timeout=3000)
    qtbot.mouseClick(page.check_button, Qt.LeftButton)
    qtbot.waitUntil(lambda: "RTX 4060" in page.found.text(), timeout=3000)
    qtbot.waitUntil(lambda: "Everything works" in page.check_result.text(), timeout=20_000)
    assert page.check_button.isEnabled()


def test_after_check_my_computer_the_focus_stays_on_its_button(qtbot, make_app):
    """Without a graphics card the office-server offer follows the button: a disabled
    button handed it the focus, and a second Space left the wizard."""
    from PySide6.QtWidgets import QApplication
    from tests.app.fakes import fake_hardware
    rotary = make_app(settings=Settings(), wizard=True, hardware=fake_hardware(gpu=False))
    wizard, page = rotary.dialogs.wizard, rotary.dialogs.wizard.hardware_page
    qtbot.waitUntil(lambda: wizard.server_button.isVisible(), timeout=3000)
    wizard.activateWindow()
    page.check_button.setFocus()
    qtbot.waitUntil(page.check_button.hasFocus)
    qtbot.keyClick(page.check_button, Qt.Key.Key_Space)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Space)      # pressed again at once
    qtbot.waitUntil(lambda: "Everything works" in page.check_result.text(), timeout=20_000)
    assert QApplication.focusWidget() is page.check_button
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Space)      # and once more after it
    assert wizard.isVisible() and rotary.window.isVisible()
    qtbot.waitUntil(lambda: wizard.checking, timeout=3000)             # a second check runs
    qtbot.waitUntil(lambda: not wizard.checking, timeout=20_000)


@pytest.mark.parametrize("width, height, language", [(1280, 720, "en"), (1024, 600, "en"),
                                                     (1024, 600, "ko")])
def test_settings_in_office_server_mode_fit_a_small_screen(tmp_path, width, height, language):
    """It was 741–791 px tall: OK and Cancel fell below a 1280x800 screen, the key note was
    cut in half and the model box clipped. On a screen of that size, in a real (offscreen)
    window: the dialog is on the screen, OK with it, and nothing is squeezed."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path
    config = tmp_path / "screen.json"
    config.write_text(json.dumps({"screens": [{"name": "s", "x": 0, "y": 0, "width": width,
                                               "height": height, "logicalDpi": 96}]}))
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}",
               ROTARY_HOME=str(tmp_path / "home"))
    result = subprocess.run([sys.executable, "-m", "tests.app.settings_on_small_screen",
                             language], cwd=root, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    x, y, w, h = seen["frame"]
    assert seen["room"] == [0, 0, width, height]
    assert 0 <= x and x + w <= width and 0 <= y and y + h <= height, seen
    ox, oy, ow, oh = seen["ok"]
    assert seen["ok_visible"] and oy + oh <= height and ox + ow <= width, seen
    assert seen["squeezed"] == [], seen
    assert seen["model_height"][0] >= seen["model_height"][1], seen


def test_conversation_memory_in_settings_has_a_unit_and_words(qtbot, make_app):
    """It read "Conversation memory: 1024", with no unit."""
    rotary = make_app(settings=Settings(first_run_done=True, context_size=1024))
    dialog = rotary.dialogs.open_settings()
    assert dialog.context.text() == "1024 tokens"
    assert dialog.context_words.text() == "About 770 words of the conversation."
    dialog.context.setValue(dialog.context.minimum())                      # Automatic
    assert dialog.context.text() == "Automatic"
    assert dialog.context_words.text() == "Rotary chooses it for the model and this computer."
    dialog.reject()


def test_a_typed_or_pasted_model_path_enables_next_without_enter(qtbot, make_app, tmp_path):
    """Next stayed grey until Enter was pressed in the path box."""
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QWizard
    rotary = make_app(settings=Settings(), wizard=True)
    wizard = rotary.dialogs.wizard
    wizard.next()
    model = model_file(tmp_path)
    box = wizard.chooser.path_edit
    box.setFocus()
    qtbot.keyClicks(box, str(model)[:-5])            # typing: not a file yet
    qtbot.wait(600)
    assert not wizard.button(QWizard.WizardButton.NextButton).isEnabled()
    box.selectAll()
    QGuiApplication.clipboard().setText(str(model))
    qtbot.keyClick(box, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)   # a paste
    qtbot.waitUntil(lambda: wizard.button(QWizard.WizardButton.NextButton).isEnabled(),
                    timeout=3000)
    assert wizard.chooser.result.path == str(model)


def test_the_wizard_names_the_demo_model_instead_of_its_folder(qtbot, make_app):
    rotary = make_app(settings=Settings(), wizard=True, hardware=fake_hardware(gpu=False))
    wizard = rotary.dialogs.wizard
    wizard.next()
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.model_page.demo_button.click()
    shown = wizard.chooser.path_edit.text()
    assert shown == "Small demo model" and wizard.using_demo
    wizard.chooser.path_edit.editingFinished.emit()   # leaving the box checks nothing new
    assert wizard.using_demo and wizard.chooser.result is not None


def test_the_model_page_grows_to_its_wrapped_text(qtbot, make_app):
    """Seen by hand: after the model search the wizard stayed 360 px tall, so the path box
    was squeezed to a sliver and the fit was cut mid-sentence ("… words per"). QWizard
    sized it by the labels' unwrapped minimum; now nothing on the page is squeezed."""
    from PySide6.QtWidgets import QLabel
    rotary = make_app(settings=Settings(), wizard=True, hardware=fake_hardware(gpu=False))
    wizard = rotary.dialogs.wizard
    qtbot.waitUntil(lambda: "No models" in wizard.model_list.status.text(), timeout=5000)
    wizard.next()                         # the list is hidden now: the page's minimum is small
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.model_page.demo_button.click()
    page, box = wizard.model_page, wizard.chooser.path_edit
    qtbot.waitUntil(lambda: box.height() >= box.sizeHint().height(), timeout=2000)
    squeezed = [label.text()[:40] for label in page.findChildren(QLabel)
                if label.isVisibleTo(page) and label.wordWrap()
                and label.height() < label.heightForWidth(label.width())]
    assert squeezed == []
    room = wizard.screen().availableGeometry()
    assert wizard.frameGeometry().bottom() <= room.bottom()
