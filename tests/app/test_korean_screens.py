"""No English word reaches a Korean screen, in the flows a test can drive: the first-time
setup, chat, a document summary, Settings (this computer and an office server), errors.

Every visible text is read: labels, buttons, titles, menus, placeholders, list and combo
items, tooltips and what screen readers hear. Data is not words and is removed first: file
and model names, addresses, the user's own text and the model's answers (message bodies).
A few proper names stay in Latin letters in Korean too (Rotary, NVIDIA, GGUF, PDF, Word...).
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import (QAbstractButton, QAbstractSpinBox, QComboBox, QGroupBox, QLabel,
                               QLineEdit, QMenu, QPlainTextEdit, QWidget)

from app.chat.message_widget import MessageBody
from app.settings.model import Settings
from tests.app.conftest import wait_idle, wait_ready

# Names that Korean writes in Latin letters too (products, formats, units, keys), the
# language picker's "English" (each language is named in itself), and the technical terms
# a tooltip gives in brackets after the Korean word, for IT ("온도(temperature)").
NAMES = {"Rotary", "NVIDIA", "GeForce", "RTX", "Laptop", "GPU", "GB", "MB", "GiB", "PDF", "Word",
         "docx", "txt", "md", "Markdown", "GGUF", "gguf", "Instruct", "Chat", "https", "http",
         "Enter", "Shift", "Tab", "Escape", "Esc", "Ctrl", "Alt", "IT", "OK", "VRAM", "RSS",
         "CPU", "pem", "crt", "cer", "doc", "llama", "cpp", "English", "temperature", "expert"}
_TAGS = re.compile(r"<[^>]+>|&[a-z]+;|&#\d+;")
_WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(text: str, data: tuple[str, ...] = ()) -> list[str]:
    for item in sorted(data, key=len, reverse=True):
        if item:
            text = text.replace(item, " ")
    text = _TAGS.sub(" ", text).replace("&", "")
    return [w for w in _WORD.findall(text) if w not in NAMES]


def screen_texts(*roots: QWidget) -> list[str]:
    """Everything a user can see or hear on these windows (hidden widgets excluded)."""
    texts: list[str] = []
    for root in roots:
        texts.append(root.windowTitle())
        for widget in [root, *root.findChildren(QWidget)]:
            if not widget.isVisible() or isinstance(widget, MessageBody):
                continue
            texts += [widget.toolTip(), widget.accessibleName(), widget.accessibleDescription()]
            texts += _own_texts(widget)
    return [t for t in texts if t]


def _own_texts(widget: QWidget) -> list[str]:
    if isinstance(widget, QLabel):
        return [widget.text()]
    if isinstance(widget, QAbstractButton):
        return [widget.text()]
    if isinstance(widget, QGroupBox):
        return [widget.title()]
    if isinstance(widget, QLineEdit):
        return [widget.placeholderText()]
    if isinstance(widget, QPlainTextEdit):
        return [widget.placeholderText()]
    if isinstance(widget, QComboBox):
        return [widget.itemText(i) for i in range(widget.count())]
    if isinstance(widget, QAbstractSpinBox):
        return [widget.text()]
    if isinstance(widget, QMenu):
        return [a.text() for a in widget.actions()] + [widget.title()]
    return []


def assert_korean(texts, data=()) -> None:
    found = {t: english_words(t, data) for t in texts}
    found = {t: w for t, w in found.items() if w}
    assert not found, "English on a Korean screen:\n" + "\n".join(
        f"  {w} in {t!r}" for t, w in found.items())


@pytest.fixture
def korean_app(make_app):
    def build(**kwargs):
        settings = kwargs.pop("settings", Settings(first_run_done=True))
        from dataclasses import replace
        return make_app(settings=replace(settings, language="ko"), **kwargs)
    return build


def test_the_check_finds_english_words():
    assert english_words("모델: Fake MoE", ("Fake MoE",)) == []
    assert english_words("<b>맞습니다.</b> About 1.0 GB in memory") == ["About", "in", "memory"]
    assert english_words("파일(&F)") == []


def _menu_texts(window) -> list[str]:
    texts = []
    for action in window.menuBar().actions():
        texts.append(action.text())
        if action.menu() is not None:
            texts += [a.text() for a in action.menu().actions()]
    return texts


LONG = tuple(f" 낱말{i}" for i in range(300))


def test_chat_says_everything_in_korean(qtbot, korean_app):
    from tests.app.fakes import FakeScript
    rotary = korean_app(script=FakeScript(answers=[("Hello", " there"), LONG, ()]))
    wait_ready(qtbot, rotary)
    window, pane = rotary.window, rotary.window.chat
    seen = screen_texts(window) + _menu_texts(window)            # the empty window
    rotary.session.chat.send("안녕하세요")
    wait_idle(qtbot, rotary)
    window.gauge.refresh()
    seen += screen_texts(window)                                 # an answer and the gauge
    rotary.session.chat.send("길게 써 주세요")
    qtbot.waitUntil(lambda: len(rotary.session.requests.partial) > 40, timeout=3000)
    seen += screen_texts(window)                                 # while it is written
    pane.composer.stop_button.click()
    wait_idle(qtbot, rotary)
    seen += screen_texts(window)                                 # "you stopped this answer"
    rotary.session.chat.send("아무 말도 안 하나요?")
    wait_idle(qtbot, rotary)
    seen += screen_texts(window)                                 # "the model gave no answer"
    assert rotary.window.notice_bar.isVisible()
    pane.message_widgets[0].edit_button.click()
    seen += screen_texts(window)                                 # editing an earlier message
    assert_korean(seen, data=("Fake MoE 35B", "fake.gguf"))


def test_the_check_sees_english_on_an_english_screen(qtbot, make_app):
    """The same reading of the window finds English words when the interface is English."""
    rotary = make_app()
    wait_ready(qtbot, rotary)
    words = [w for t in screen_texts(rotary.window) + _menu_texts(rotary.window)
             for w in english_words(t, ("Fake MoE 35B",))]
    assert {"Send", "File", "Conversation"} <= set(words)


def test_a_document_summary_says_everything_in_korean(qtbot, korean_app, tmp_path):
    from engine.errors import PasswordProtectedError
    from tests.app.document_helpers import FakeDocuments
    rotary = korean_app()
    wait_ready(qtbot, rotary)
    docs = FakeDocuments(rotary.fake["engine"], part_delay=0.2)
    window, panel = rotary.window, rotary.document_widgets.panel
    path = tmp_path / "Jahresbericht.pdf"
    path.write_bytes(b"%PDF-1.4")
    assert rotary.session.documents.open_file(str(path))
    qtbot.waitUntil(panel.options.isVisible, timeout=3000)
    seen = screen_texts(window)                                   # what was found
    panel.question.setText("출장비는 누가 내나요?")
    panel.preset.setCurrentIndex(panel.preset.findData("actions"))
    panel.summarize_button.click()
    qtbot.waitUntil(lambda: panel.bar.maximum() == 3, timeout=3000)
    seen += screen_texts(window)                                  # progress
    wait_idle(qtbot, rotary)
    seen += screen_texts(window)
    document, summary = rotary.session.store.messages                      # what the app wrote itself
    seen += [document.content, summary.content]
    body = "Travel costs rose [pages 1–14]."                      # the model's own words
    docs.fail = PasswordProtectedError("This PDF is protected by a password.")
    rotary.session.documents.open_file(str(tmp_path / "secret.pdf"))
    qtbot.waitUntil(window.notice_bar.isVisible, timeout=3000)
    seen += screen_texts(window)                                  # an error
    assert_korean(seen, data=("Jahresbericht.pdf", "secret.pdf", body, "Fake MoE 35B"))


def test_settings_say_everything_in_korean_here_and_with_an_office_server(qtbot, korean_app):
    rotary = korean_app(settings=Settings(first_run_done=True, context_size=2048,
                                          server_url="https://ai.office.lan:8000",
                                          server_model="qwen3.6"))
    dialog = rotary.dialogs.open_settings()
    seen = screen_texts(dialog)
    dialog.server_box.server.setChecked(True)
    dialog.server_box.verify.setChecked(False)
    seen += screen_texts(dialog)
    dialog.server_box.address.setText("주소가 아님")
    seen += screen_texts(dialog)
    dialog.reject()
    assert_korean(seen, data=("https://ai.office.lan:8000", "ai.office.lan:8000", "qwen3.6",
                              "/v1/chat/completions"))


def test_the_first_time_setup_says_everything_in_korean(qtbot, korean_app):
    from tests.app.fakes import fake_hardware
    rotary = korean_app(settings=Settings(), wizard=True, hardware=fake_hardware(gpu=False))
    wizard = rotary.dialogs.wizard
    page = wizard.hardware_page
    qtbot.waitUntil(wizard.server_button.isVisible, timeout=3000)
    page.check_button.click()
    qtbot.waitUntil(lambda: not wizard.checking and bool(page.check_result.text()),
                    timeout=20_000)
    seen = screen_texts(wizard)
    wizard.next()
    wizard.model_page.demo_button.click()
    qtbot.waitUntil(lambda: wizard.chooser.result is not None, timeout=5000)
    seen += screen_texts(wizard)
    wizard.next()
    seen += screen_texts(wizard)
    # The fake engine's own verdict sentence is not the app's: the real one is checked below.
    assert_korean(seen, data=("Fits well: about 20 words per second expected.",
                              "Hugging Face", "huggingface.co"))


def test_engine_errors_reach_the_screen_in_korean(qtbot, qapp, qloop, rotary_home, tmp_path):
    """A file that is not a model, through the real engine: the notice, its buttons and the
    chooser's verdict (the engine's English goes to "Copy details" only)."""
    from app.application import RotaryApp
    from app.bridge.facade import real_backend
    from app.settings.paths import default_paths
    from app.settings.model import SettingsStore
    from app.setup.model_check import ModelChooser
    from tests.app.conftest import close_app
    bad = tmp_path / "notes.gguf"
    bad.write_text("these are notes, not a model", encoding="utf-8")
    paths = default_paths()
    SettingsStore(paths.settings_file).save(Settings(first_run_done=True, language="ko",
                                                     model_path=str(bad)))
    rotary = RotaryApp(qapp, qloop, real_backend(), paths)
    try:
        rotary.start()
        qtbot.waitUntil(rotary.window.notice_bar.isVisible, timeout=60_000)
        seen = screen_texts(rotary.window)
        chooser = ModelChooser(rotary.bridge, rotary.notices)
        chooser.show()
        chooser.check(str(bad))
        qtbot.waitUntil(lambda: chooser.problem is not None, timeout=60_000)
        seen += screen_texts(chooser) + screen_texts(rotary.window)
        assert_korean(seen, data=(str(bad), "notes.gguf", str(tmp_path)))
    finally:
        close_app(rotary)


# ---- on the real engine: what the engine itself says ------------------------------------

def _real_app(qapp, qloop, settings: Settings):
    from app.application import RotaryApp
    from app.bridge.facade import real_backend
    from app.settings.paths import default_paths
    from app.settings.model import SettingsStore
    paths = default_paths()
    SettingsStore(paths.settings_file).save(settings)
    return RotaryApp(qapp, qloop, real_backend(), paths)


@pytest.mark.slow
def test_loading_a_model_says_its_steps_in_korean(qtbot, qapp, qloop, rotary_home):
    from tests.app.conftest import close_app
    rotary = _real_app(qapp, qloop, Settings(first_run_done=True, language="ko",
                                             preset="cpu-only"))
    steps, panel = [], rotary.window.loading
    rotary.loader.progress.connect(lambda _f, _m: steps.append(panel.step.text()))
    try:
        rotary.start()
        wait_ready(qtbot, rotary, timeout=120_000)
        assert steps
        assert_korean(steps + [panel.title.text()])
    finally:
        close_app(rotary)


@pytest.mark.slow
def test_the_model_check_says_its_verdict_in_korean(qtbot, qapp, qloop, rotary_home):
    from app.setup.model_check import ModelChooser
    from tests.app.conftest import close_app
    rotary = _real_app(qapp, qloop, Settings(first_run_done=True, language="ko",
                                             preset="cpu-only"))
    try:
        rotary.start(autoload=False)
        chooser = ModelChooser(rotary.bridge, rotary.notices, "cpu-only")
        chooser.show()
        demo = rotary.paths.demo_dir
        rotary.loader.start()                       # writes the demo model, then loads it
        wait_ready(qtbot, rotary, timeout=120_000)
        path = rotary.loaded_facts.path
        chooser.check(path)
        qtbot.waitUntil(lambda: chooser.result is not None, timeout=60_000)
        assert_korean(screen_texts(chooser), data=(path, str(demo)))
    finally:
        close_app(rotary)
