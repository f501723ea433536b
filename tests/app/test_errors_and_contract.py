"""One error path, single instance, translations, accessibility, keyboard use."""

from __future__ import annotations

import asyncio
import sys
import threading

import pytest
import qasync
from PySide6.QtCore import QCoreApplication, QObject, QTranslator, Signal
from PySide6.QtWidgets import (QAbstractButton, QAbstractSpinBox, QComboBox, QLineEdit,
                               QPlainTextEdit, QWidget)

from app.text.i18n import I18N_DIR
from app.widgets.single_instance import SingleInstance



def test_uncaught_exceptions_reach_the_notice(qtbot, make_app):
    rotary = make_app(allow_unexpected=True)
    try:
        raise ValueError("boom")
    except ValueError:
        sys.excepthook(*sys.exc_info())
    assert "Something went wrong" in rotary.window.notice_bar.message.text()
    assert "ValueError: boom" in rotary.window.notice_bar.details_text()
    rotary.window.notice_bar.dismiss()
    thread = threading.Thread(target=lambda: 1 / 0)
    thread.start()
    thread.join()
    qtbot.waitUntil(lambda: "ZeroDivisionError" in rotary.window.notice_bar.details_text(),
                    timeout=2000)


def test_async_slot_exceptions_reach_the_notice(qtbot, make_app):
    rotary = make_app(allow_unexpected=True)

    class Source(QObject):
        fired = Signal(int)

    @qasync.asyncSlot(int)
    async def broken(value):
        await asyncio.sleep(0)
        raise RuntimeError(f"async slot failed {value}")

    source = Source()
    source.fired.connect(broken)
    source.fired.emit(7)
    qtbot.waitUntil(lambda: "async slot failed" in rotary.window.notice_bar.details_text(),
                    timeout=2000)


def test_the_event_loops_own_reports_reach_the_notice_with_or_without_an_exception(qapp):
    # asyncio's context is a dict: "message" always, "exception" only sometimes.
    from app.widgets.notifications import NotificationService, asyncio_exception_handler
    notices = NotificationService()
    shown: list = []
    notices.posted.connect(shown.append)
    handle = asyncio_exception_handler(notices)
    loop = asyncio.new_event_loop()
    try:
        handle(loop, {"message": "Task was destroyed but it is pending!"})
        try:
            raise ValueError("nobody awaited this")
        except ValueError as exc:
            handle(loop, {"message": "Task exception was never retrieved", "exception": exc})
    finally:
        loop.close()
    assert [(n.level, n.details) for n in shown[:1]] == [
        ("warning", "Task was destroyed but it is pending!")]
    assert shown[1].level == "error" and "ValueError: nobody awaited this" in shown[1].details


def test_second_instance_focuses_the_first(qtbot, tmp_path):
    key = f"rotary-test-{tmp_path.name}"
    first = SingleInstance(key)
    assert first.listen()
    second = SingleInstance(key)
    with qtbot.waitSignal(first.activation_requested, timeout=3000):
        assert second.notify_running_instance()
    first.close()
    assert not SingleInstance(key).notify_running_instance()


@pytest.mark.parametrize("code, expected", [("ko", "새 대화"), ("zh_CN", "新对话")])
def test_translations_load(qapp, code, expected):
    translator = QTranslator()
    assert translator.load(str(I18N_DIR / f"rotary_{code}.qm"))
    qapp.installTranslator(translator)
    try:
        assert QCoreApplication.translate("", "New chat") == expected
    finally:
        qapp.removeTranslator(translator)


def test_every_control_has_an_accessible_name(qtbot, make_app):
    rotary = make_app()
    dialog = rotary.dialogs.open_settings()
    wizard = rotary.dialogs.open_wizard()
    controls = (QAbstractButton, QLineEdit, QPlainTextEdit, QComboBox, QAbstractSpinBox)
    missing = []
    for root in (rotary.window, dialog, wizard):
        for widget in [w for w in root.findChildren(QWidget) if isinstance(w, controls)]:
            name = widget.accessibleName() or (isinstance(widget, QAbstractButton)
                                               and widget.text().replace("&", ""))
            inside_line_edit = isinstance(widget.parent(), QLineEdit)   # its clear button
            if not name and widget.objectName() not in _QT_INTERNAL and not inside_line_edit:
                missing.append(f"{type(widget).__name__} {widget.objectName()}")
    assert not missing


# Widgets Qt builds inside its own dialogs and scroll areas; Qt names them itself.
_QT_INTERNAL = {"qt_spinbox_lineedit", "qt_wizard_commit", "qt_wizard_finish",
                "__qt__passive_wizardbutton0", "__qt__passive_wizardbutton1",
                "__qt__passive_wizardbutton2", "__qt__passive_wizardbutton3",
                "__qt__passive_wizardbutton6", "qt_toolbar_ext_button",
                "qt_menubar_ext_button"}


def test_keyboard_only_send(qtbot, make_app):
    from PySide6.QtCore import Qt
    from tests.app.conftest import wait_idle, wait_ready
    rotary = make_app()
    wait_ready(qtbot, rotary)
    rotary.window.menu_actions["focus_input"].trigger()
    qtbot.keyClicks(rotary.window.chat.composer.input, "Typed with keys")
    qtbot.keyClick(rotary.window.chat.composer.input, Qt.Key.Key_Return)
    wait_idle(qtbot, rotary)
    assert rotary.chat.messages[0].content == "Typed with keys"


@pytest.fixture
def log_file(tmp_path):
    """The app's own log set-up (app.__main__.setup_logging), undone afterwards."""
    import logging
    from app.__main__ import setup_logging
    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    path = tmp_path / "logs" / "rotary.log"
    setup_logging(path)
    yield path
    for handler in root.handlers[len(before):]:
        handler.close()
        root.removeHandler(handler)
    root.setLevel(level)


def test_every_error_and_its_traceback_reaches_the_log_file(qtbot, make_app, qloop, log_file):
    from engine.errors import NotAGGUFError
    rotary = make_app(allow_unexpected=True)
    try:
        raise ValueError("main thread boom")
    except ValueError:
        sys.excepthook(*sys.exc_info())
    thread = threading.Thread(target=lambda: {}["thread boom"])
    thread.start()
    thread.join()

    async def forgotten():
        raise RuntimeError("task nobody awaited")

    task = qloop.create_task(forgotten())
    qtbot.waitUntil(task.done, timeout=2000)
    del task                      # asyncio reports an unretrieved exception on collection
    import gc
    gc.collect()
    rotary.notices.engine_error(NotAGGUFError("This file is not a language model (GGUF) "
                                              "file.", "/tmp/notes.gguf: bad magic"))
    try:
        raise NotAGGUFError("This file is broken.", "raised in the check")
    except NotAGGUFError as error:
        rotary.notices.engine_error(error)
    qtbot.waitUntil(lambda: "thread boom" in log_file.read_text(encoding="utf-8"), timeout=2000)
    text = log_file.read_text(encoding="utf-8")
    assert 'raise ValueError("main thread boom")' in text     # the traceback, not a line
    assert "Traceback (most recent call last)" in text and "KeyError: 'thread boom'" in text
    assert "RuntimeError: task nobody awaited" in text
    assert "ERROR rotary.notices: This file is not a language model" in text
    assert "bad magic" in text
    assert 'raise NotAGGUFError("This file is broken."' in text     # its traceback too


@pytest.mark.parametrize("code, back, next_, cancel, ok", [
    ("ko", "뒤로", "다음", "취소", "확인"), ("zh_CN", "上一步", "下一步", "取消", "确定")])
def test_qt_standard_buttons_follow_the_chosen_language(qtbot, make_app, code, back, next_,
                                                        cancel, ok):
    from PySide6.QtWidgets import QDialogButtonBox, QWizard
    from app.settings.model import Settings
    rotary = make_app(settings=Settings(first_run_done=True, language=code), autoload=False)
    wizard = rotary.dialogs.open_wizard()       # the app's teardown removes its translators
    buttons = QWizard.WizardButton
    assert back in wizard.button(buttons.BackButton).text()
    assert next_ in wizard.button(buttons.NextButton).text()
    assert cancel in wizard.button(buttons.CancelButton).text()
    dialog = rotary.dialogs.open_settings()
    box = dialog.buttons
    assert box.button(QDialogButtonBox.StandardButton.Ok).text() == ok
    assert box.button(QDialogButtonBox.StandardButton.Cancel).text() == cancel
    wizard.reject()
    dialog.reject()


@pytest.mark.parametrize("code", ["ko", "zh_CN"])
def test_the_committed_qm_is_compiled_from_the_ts(tmp_path, code):
    """The .ts files are the source; the .qm the app loads are committed beside them (a
    checkout runs without building them) and must be what lrelease makes of them now:
    after editing a .ts, run python resources/i18n/build_translations.py."""
    import subprocess
    from pathlib import Path
    built = tmp_path / f"rotary_{code}.qm"
    subprocess.run([str(Path(sys.executable).parent / "pyside6-lrelease"), "-silent",
                    str(I18N_DIR / f"rotary_{code}.ts"), "-qm", str(built)],
                   check=True, capture_output=True, timeout=120)
    assert built.read_bytes() == (I18N_DIR / f"rotary_{code}.qm").read_bytes()


def test_every_visible_text_has_korean_and_chinese(tmp_path):
    """lupdate finds every tr("...") in app/; each is translated in both .ts files (python
    resources/i18n/build_translations.py adds a new one there, for Qt Linguist)."""
    import subprocess
    import xml.etree.ElementTree as ET
    from pathlib import Path

    from tests.support.translations import LANGUAGES, ts_translations
    root = Path(__file__).resolve().parents[2]
    ts = tmp_path / "check.ts"
    subprocess.run([str(Path(sys.executable).parent / "pyside6-lupdate"),
                    *sorted(str(p) for p in (root / "app").rglob("*.py")), "-ts", str(ts)],
                   check=True, capture_output=True, timeout=120)
    found = {(c.findtext("name") or "", m.findtext("source"))
             for c in ET.parse(ts).getroot().iter("context") for m in c.iter("message")}
    assert found
    for language in LANGUAGES:
        translated = ts_translations(language)
        assert not sorted(key for key in found if not translated.get(key)), language


def test_windows_carry_rotary_icon(qapp):
    from app.widgets.theme import window_icon
    icon = window_icon()
    assert not icon.isNull() and icon.availableSizes(), "installer/icons/rotary.png not found"


def test_first_window_size_fits_a_small_screen(qapp, monkeypatch):
    from PySide6.QtCore import QRect
    from app import main_window

    class SmallScreen:
        def availableGeometry(self):
            return QRect(0, 0, 1024, 700)

    monkeypatch.setattr(main_window.QGuiApplication, "primaryScreen", staticmethod(SmallScreen))
    assert main_window._first_size() == (984, 640)
    monkeypatch.setattr(main_window.QGuiApplication, "primaryScreen", staticmethod(lambda: None))
    assert main_window._first_size() == main_window.DEFAULT_SIZE


def test_every_kind_of_engine_error_has_a_sentence_in_the_interface_language():
    """The safety net for an error without a catalogue message: its kind, or its family,
    has a translated sentence (the engine's own errors carry messages: test_messages.py)."""
    import inspect

    from app.text.error_text import _kinds
    from engine import errors
    for_developers = {errors.EngineError, errors.TraceFormatError, errors.BudgetError}
    # raised with a message by the engine, and with words of its own (tr) by the bridge
    own_words = {errors.EngineStateError}
    kinds = _kinds()
    for _, kind in inspect.getmembers(errors, inspect.isclass):
        if issubclass(kind, errors.EngineError) and kind not in for_developers | own_words:
            assert any(k in kinds for k in kind.__mro__ if k is not errors.EngineError), kind


def test_engine_errors_are_shown_in_korean_with_the_english_kept_for_it(qapp, qtbot):
    # The engine writes English; a Korean interface showed it as it was.
    from app.widgets import translation
    from app.widgets.notifications import NotificationService
    from engine.errors import ModelLoadError
    error = ModelLoadError("llama.cpp could not load the model.", "general.name")
    notices = NotificationService()
    assert notices.engine_error(error).message == error.message        # English: as written
    translators = translation.install_translator(qapp, "ko")
    try:
        notice = notices.engine_error(error)
        assert notice.message == "모델을 불러올 수 없었습니다."
        assert error.message in notice.details and "general.name" in notice.details
    finally:
        translation.uninstall_translators(qapp, translators)


def test_catalogue_errors_are_said_in_korean_with_their_parameters(qapp, monkeypatch):
    # A catalogue message is translated whole, parameters filled in after translation.
    from app.text.error_text import error_text
    from app.widgets import translation
    from engine import messages
    from engine.errors import EngineStateError
    error = EngineStateError(messages.msg("engine.no_model"), "trace")
    assert error_text(error) == (error.message, "trace")
    translators = translation.install_translator(qapp, "ko")
    try:
        shown, details = error_text(error)
        assert shown == "아직 불러온 모델이 없습니다. 설정에서 모델을 선택하세요."
        assert error.message in details and "trace" in details
    finally:
        translation.uninstall_translators(qapp, translators)


def test_a_korean_user_reads_which_file_server_and_setting(qapp, tmp_path):
    """A Korean user got a generic sentence per kind of error; the engine's own
    errors and reports now reach them whole, with their file, address and numbers."""
    import re

    from app.text.error_text import error_text
    from app.widgets import translation
    from app.text.messages import say
    from engine.errors import EngineError
    from engine.messages import msg
    from engine.model.inspect_gguf import inspect_model
    from engine.remote.errors import model_not_found

    def raised(call) -> EngineError:
        try:
            call()
        except EngineError as error:
            return error
        raise AssertionError("no error")

    missing = raised(lambda: inspect_model(tmp_path / "qwen3-30b.gguf"))
    folder = raised(lambda: inspect_model(tmp_path))
    server = model_not_found("qwen3-30b", "https://ai.office.lan:8000", "HTTP 404")
    fallback = msg("plan.fallback_fewer_parts", on_gpu=3, total=40)
    translators = translation.install_translator(qapp, "ko")
    try:
        shown = {"missing": error_text(missing)[0], "folder": error_text(folder)[0],
                 "server": error_text(server)[0], "fallback": say(fallback)}
    finally:
        translation.uninstall_translators(qapp, translators)
    assert "qwen3-30b.gguf" in shown["missing"] and "찾을 수 없습니다" in shown["missing"]
    assert f"“{tmp_path.name}”" in shown["folder"] and "폴더" in shown["folder"]
    assert "https://ai.office.lan:8000" in shown["server"] and "“qwen3-30b”" in shown["server"]
    assert "40개 중 3개" in shown["fallback"]
    for text, data in ((shown["missing"], "qwen3-30b.gguf"), (shown["folder"], tmp_path.name),
                       (shown["server"], "https://ai.office.lan:8000 qwen3-30b"),
                       (shown["fallback"], "")):
        words = re.findall(r"[A-Za-z]{3,}", text)
        assert not [w for w in words if w not in data and w != "gguf"], text
