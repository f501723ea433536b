"""What a new user meets: every attached file accounted
for, no empty conversations left behind, help and the log within reach, figures that agree."""

from __future__ import annotations

import io
import zipfile

from app.session.document_session import Stage
from tests.app.conftest import wait_idle
from tests.app.document_helpers import app_with_documents, budget_pdf, contracts_pdf, drop


def _xlsx_bytes() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<workbook/>")
    return buffer.getvalue()


def test_each_file_attached_together_gets_its_own_line(qtbot, make_app, tmp_path):
    """Four bad files and a good one at once: one notice names every file, the good one is
    read, and no empty "New chat" is left behind by the files that failed."""
    rotary, _ = app_with_documents(make_app, qtbot)
    empty = tmp_path / "empty.pdf"
    empty.write_bytes(b"")
    picture = tmp_path / "picture.pdf"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    sheet = tmp_path / "sheet.docx"
    sheet.write_bytes(_xlsx_bytes())
    renamed = tmp_path / "renamed.docx"
    renamed.write_bytes(contracts_pdf(tmp_path / "source.pdf").read_bytes())
    good = budget_pdf(tmp_path / "budget.pdf")
    drop(rotary.window.chat.composer.input, empty, picture, sheet, renamed, good)
    qtbot.waitUntil(lambda: rotary.window.notice_bar.isVisible(), timeout=15000)
    wait_idle(qtbot, rotary)
    said = rotary.window.notice_bar.message.text()
    lines = said.splitlines()
    for name in ("empty.pdf", "picture.pdf", "sheet.docx", "renamed.docx", "budget.pdf"):
        assert sum(line.startswith(name + ":") for line in lines) == 1, said
    assert [line for line in lines if line.startswith("budget.pdf")] == ["budget.pdf: read."]
    kept = rotary.history.list_conversations()          # one, holding what was read
    assert len(kept) == 1, [c.title for c in kept]
    assert [d.name for d in rotary.history.documents(kept[0].id)] == ["renamed.docx",
                                                                       "budget.pdf"]


def test_a_failed_attach_leaves_no_empty_new_chat(qtbot, make_app, tmp_path):
    rotary, _ = app_with_documents(make_app, qtbot)
    for number in range(3):
        empty = tmp_path / f"empty{number}.pdf"
        empty.write_bytes(b"")
        drop(rotary.window.chat.composer.input, empty)
        qtbot.waitUntil(lambda: rotary.window.notice_bar.isVisible(), timeout=10000)
        wait_idle(qtbot, rotary)
        rotary.window.notice_bar.dismiss()
    assert rotary.history.list_conversations() == []
    assert rotary.session.store.conversation_id is None
    gauge = rotary.window.gauge                      # an empty chat: no memory used shown
    gauge.refresh()
    assert gauge.model.context_used is None and gauge.context_bar.isHidden()


def test_the_setting_named_for_a_bigger_card_says_why(qtbot, make_app, tmp_path):
    """A 2 GB card: the 8 GB laptop setting is the smallest there is; the check says so."""
    from tests.app.fakes import fake_hardware
    from tests.app.fakes import model_file
    from app.settings.model import Settings
    rotary = make_app(settings=Settings(), wizard=True, hardware=fake_hardware(vram_gib=2))
    wizard = rotary.dialogs.wizard
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.chooser.check(str(model_file(tmp_path)))
    said = wizard.chooser.verdict.text()
    assert "8 GB" in wizard.model_page.recipe.text()
    assert "2.0 GB" in said and "smallest" in said, said


def test_settings_shows_the_measured_placement_beside_the_estimate(qtbot, make_app):
    """The estimate alone disagreed with the side panel's measured figures; once the model is
    loaded, its check in Settings says what was measured, in the panel's words."""
    import dataclasses
    from app.text.messages import say
    from tests.app.conftest import wait_ready
    from tests.app.fakes import on_gpu
    rotary = make_app()
    wait_ready(qtbot, rotary)
    loaded = rotary.bridge.loaded
    assert loaded is not None
    rotary.bridge.loaded = dataclasses.replace(loaded, placement=on_gpu())
    dialog = rotary.dialogs.open_settings()
    with qtbot.waitSignal(dialog.chooser.check_finished, timeout=3000):
        dialog.chooser.check(loaded.facts.path)
    said = dialog.chooser.verdict.text()
    assert "Measured now that it is loaded. " + say(on_gpu().message) in said, said
    dialog.reject()


def test_help_menu_with_f1_about_and_the_log_folder(qtbot, make_app, monkeypatch, tmp_path):
    import logging
    from logging.handlers import RotatingFileHandler
    from PySide6.QtGui import QDesktopServices, QKeySequence
    from app.__main__ import parse_args
    from tests.app.conftest import wait_ready
    log_file = tmp_path / "logs" / "rotary.log"
    log_file.parent.mkdir()
    handler = RotatingFileHandler(log_file)
    logging.getLogger().handlers.insert(0, handler)     # before any a test left behind
    try:
        rotary = make_app()
        wait_ready(qtbot, rotary)
        window, actions = rotary.window, rotary.window.menu_actions
        titles = [menu.title() for menu in window.menuBar().findChildren(type(
            window.menuBar().actions()[0].menu()))]
        assert "&Help" in titles, titles
        assert actions["help_guide"].shortcut() == QKeySequence("F1")
        actions["help_guide"].trigger()
        assert window.help_box.isVisible() and "Attach" in window.help_box.text()
        window.help_box.close()
        actions["help_models"].trigger()
        assert "IT contact" in window.help_box.text() and ".gguf" in window.help_box.text()
        assert "Hugging Face" in window.help_box.text()
        window.help_box.close()
        actions["help_about"].trigger()
        about = window.help_box.text()
        assert "Rotary" in about and "PySide6" in about and str(log_file) in about, about
        assert "runs on this computer" in about and "office server" not in about, about
        window.help_box.close()
        opened = []
        monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url) or True)
        actions["help_log"].trigger()
        assert [url.toLocalFile() for url in opened] == [str(log_file.parent)]
        rotary.notices.warning("Something to report", "details")
        assert str(log_file) in window.notice_bar.details_text()     # "Copy details"
    finally:
        logging.getLogger().removeHandler(handler)
        handler.close()
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        parse_args(["--help"])
    assert out.getvalue().startswith("usage: Rotary"), out.getvalue()


def test_the_parts_box_shows_what_automatic_chose_and_steps_from_there(qtbot, make_app,
                                                                        tmp_path):
    from tests.app.conftest import wait_ready
    from tests.app.fakes import model_file
    rotary = make_app()
    wait_ready(qtbot, rotary)
    dialog = rotary.dialogs.open_settings()
    with qtbot.waitSignal(dialog.chooser.check_finished, timeout=3000):
        dialog.chooser.check(str(model_file(tmp_path)))
    box = dialog.gpu_layers
    assert box.value() == box.minimum() and box.text() == "Automatic (4 of 8)", box.text()
    box.stepBy(1)
    assert box.value() == 4                     # Automatic's own choice first, not 0
    box.stepBy(1)
    assert box.value() == 5
    assert "Expert" not in box.toolTip() and "GPU" not in box.toolTip()
    dialog.reject()


def test_no_graphics_card_is_said_the_same_way_everywhere(qtbot, make_app):
    from tests.app.fakes import fake_hardware
    from app.setup.wizard import describe_hardware
    rotary = make_app(hardware=fake_hardware(gpu=False))
    qtbot.waitUntil(lambda: rotary.hardware is not None, timeout=3000)
    dialog = rotary.dialogs.open_settings()
    said = dialog.gpu_layers_note.text()
    assert "NVIDIA" not in said
    assert said.split(" This computer")[0] in describe_hardware(fake_hardware(gpu=False))
    dialog.reject()


def test_recommended_variety_follows_the_model_chosen_in_settings(qtbot, make_app, tmp_path):
    """Gemma's recommendation stayed on screen after choosing another model."""
    from engine.runtime.generation.sampling import SamplingDefaults
    from tests.app.conftest import wait_ready
    from tests.support.reply_models import write_reply_model
    rotary = make_app()
    wait_ready(qtbot, rotary)
    rotary.loaded_sampling = SamplingDefaults(1.0, 0.95, 64, 0.0, "family")   # Gemma's
    dialog = rotary.dialogs.open_settings()
    assert dialog.sampling_note.text() == ("Recommended for this kind of model: answer "
                                           "variety 1.0.")
    assert "top-k" not in dialog.sampling_note.text()            # behind the tooltip
    with qtbot.waitSignal(dialog.chooser.check_finished, timeout=10000):
        dialog.chooser.check(str(write_reply_model("qwen35", tmp_path)))
    assert dialog.sampling_note.text() == "The model file's own answer variety: 0.6."
    assert "top-k 20" in dialog.sampling_note.toolTip()
    dialog.reject()


def test_enter_after_attaching_does_not_start_a_summary(qtbot, make_app, tmp_path):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    rotary, _ = app_with_documents(make_app, qtbot)
    rotary.window.activateWindow()
    box = rotary.window.chat.composer.input
    box.setFocus()
    drop(box, budget_pdf(tmp_path / "budget.pdf"))
    panel = rotary.document_widgets.panel
    qtbot.waitUntil(lambda: panel.options.isVisible(), timeout=10000)
    assert not panel.summarize_button.hasFocus()
    assert box.hasFocus() or rotary.qapp.focusWidget() in (None, box)
    QTest.keyClick(box, Qt.Key.Key_Return)        # a second Enter
    qtbot.wait(200)
    assert rotary.session.documents.task.stage is Stage.CHOSEN
    assert panel.options.isVisible()


def test_after_a_restart_the_latest_conversation_is_open_and_selected(qtbot, make_app):
    from app.conversation.history import HistoryStore, StoredMessage
    from app.settings.paths import default_paths
    history = HistoryStore(default_paths().history_db)
    older = history.create_conversation("Older")
    history.append(older, StoredMessage("user", "first"))
    latest = history.create_conversation("Latest")
    history.append(latest, StoredMessage("user", "second"))
    history.close()
    rotary = make_app()
    assert rotary.session.store.conversation_id == latest
    assert rotary.window.conversations.selected_id() == latest
    assert [m.content for m in rotary.session.store.messages] == ["second"]


def test_an_unfinished_answer_keeps_its_reason_after_the_notice_goes(qtbot, make_app):
    from engine.errors import GenerationError
    from tests.app.conftest import wait_idle, wait_ready
    from tests.app.fakes import FakeScript
    rotary = make_app(script=FakeScript(fail_chat=GenerationError("The model stopped "
                                                                  "unexpectedly.", "x")))
    wait_ready(qtbot, rotary)
    assert rotary.session.chat.send("Hi")
    wait_idle(qtbot, rotary)
    rotary.window.notice_bar.dismiss()
    answer = rotary.window.chat.message_widgets[-1]
    assert "stopped unexpectedly" in answer.status.text(), answer.status.text()
    conversation = rotary.session.store.conversation_id
    rotary.session.chat.new_chat()
    rotary.session.chat.open_conversation(conversation)           # as stored in the history
    answer = rotary.window.chat.message_widgets[-1]
    assert "stopped unexpectedly" in answer.status.text(), answer.status.text()


def test_a_notice_does_not_move_the_conversation_list(qtbot, make_app):
    from tests.app.conftest import wait_ready
    rotary = make_app()
    wait_ready(qtbot, rotary)
    window = rotary.window
    window.resize(1000, 700)
    qtbot.wait(50)
    listing = window.conversations.items

    def place():
        return listing.mapTo(window, listing.rect().topLeft()), listing.height()
    before = place()
    rotary.notices.warning("The model could not be loaded. A long sentence that wraps, " * 3)
    qtbot.waitUntil(window.notice_bar.isVisible, timeout=2000)
    qtbot.wait(50)
    assert place() == before


def test_the_speed_chart_draws_a_short_answer_and_stands_still_after_it(qtbot, make_app):
    from engine.api import StepRecord, next_request_id
    from tests.app.conftest import wait_ready
    rotary = make_app()
    wait_ready(qtbot, rotary)
    gauge = rotary.window.gauge
    gauge.reset_conversation()
    request = next_request_id() + 1
    for n in (2, 3):                       # a fast answer: two steps within one sample time
        gauge.on_stats(StepRecord(request, "x", 1, n, 12, 150.0, 1400.0, 0.05, 17, 4096))
    gauge.refresh()
    assert len(gauge.chart.points) >= 2, gauge.chart.points    # a line beside the figure
    qtbot.wait(1300)                       # the answer has ended: no more steps
    gauge.refresh()
    first = list(gauge.chart.points)
    qtbot.wait(600)
    gauge.refresh()
    assert gauge.chart.points == first     # the chart no longer scrolls


def test_wizard_says_where_a_model_comes_from_and_finds_only_when_asked(qtbot, make_app):
    from app.settings.model import Settings
    rotary = make_app(settings=Settings(), wizard=True)
    wizard = rotary.dialogs.wizard
    hint = wizard.model_page.where_from.text()
    assert ".gguf" in hint and "IT contact" in hint and "Hugging Face" in hint
    qtbot.waitUntil(lambda: wizard.hardware is not None, timeout=3000)
    assert "RTX 4060" not in wizard.hardware_page.found.text()
    assert "Check my computer" in wizard.hardware_page.found.text()
    qtbot.mouseClick(wizard.hardware_page.check_button, __import__("PySide6.QtCore").QtCore
                     .Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "RTX 4060" in wizard.hardware_page.found.text(), timeout=3000)
    qtbot.waitUntil(lambda: not wizard.checking, timeout=20_000)


def test_side_panel_headings_are_bold_in_korean_too(qtbot, make_app):
    """A Korean font has no semi-bold: weight 600 drew the headings regular."""
    from PySide6.QtWidgets import QLabel
    rotary = make_app(autoload=False)
    gauge = rotary.window.gauge
    caption = gauge.sections["vram"].caption
    text = "그래픽 메모리 사용량"

    def ink(label) -> int:
        label.setText(text)
        label.adjustSize()
        image = label.grab().toImage()
        return sum(1 for x in range(image.width()) for y in range(image.height())
                   if image.pixelColor(x, y).lightness() < 110)
    plain = QLabel(parent=gauge)
    plain.setStyleSheet("font-weight: normal;")
    assert ink(caption) > 1.15 * ink(plain)


def test_the_wait_for_the_first_word_is_never_broken_inside(qtbot):
    from app.gauge import gauge_text
    from app.gauge.gauge_model import GaugeModel
    model = GaugeModel(prompt_tps=150.0, ttft_s=6.2)
    said = gauge_text.reading_text(model)
    phrase = said.split(" · ")[1]
    assert " " not in phrase and "6.2" in phrase, repr(said)


def test_korean_particles_follow_the_word_before_them():
    from app.text.korean import particles
    assert particles("Rotary는 Gemma 3 270m을(를) 사용합니다.") == "Rotary는 Gemma 3 270m을 사용합니다."
    assert particles("Qwen3.6-35B-A3B을(를)") == "Qwen3.6-35B-A3B를"
    assert particles("설정(그래픽 카드 필요 없음)(으)로 사용") == "설정(그래픽 카드 필요 없음)으로 사용"
    assert particles("backup.json(으)로 보관") == "backup.json으로 보관"
    assert particles("“파일”은(는)") == "“파일”은" and particles("“모델”이(가)") == "“모델”이"
    assert particles("서버(으)로") == "서버로" and particles("파일(으)로") == "파일로"


def test_the_wizard_names_the_model_and_setting_with_the_right_particles(qtbot, make_app):
    from dataclasses import replace
    from app.settings.model import Settings
    from tests.app.fakes import fake_hardware
    rotary = make_app(settings=replace(Settings(), language="ko"), wizard=True,
                      hardware=fake_hardware(gpu=False))
    wizard = rotary.dialogs.wizard
    qtbot.waitUntil(lambda: wizard.hardware is not None, timeout=3000)
    wizard.next()
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=5000):
        wizard.model_page.demo_button.click()
    wizard.next()
    said = wizard.done_page.summary.text() + wizard.model_page.recipe.text()
    assert "(를)" not in said and "(으)" not in said and "을(" not in said, said


def test_800_by_600_keeps_the_conversation_and_the_document_line(qtbot, make_app, tmp_path):
    """With the document card open, the list of documents and a notice, the window still
    fits the screen, the conversation keeps a readable height, and what a document holds
    is said whole (it was cut "about 3,6…")."""
    rotary, _ = app_with_documents(make_app, qtbot)
    window = rotary.window
    window.resize(800, 560)                       # 800x600 less a title bar
    drop(window.chat.composer.input, budget_pdf(tmp_path / "budget.pdf"))
    panel, shelf = rotary.document_widgets.panel, rotary.document_widgets.shelf
    qtbot.waitUntil(lambda: panel.options.isVisible() and len(shelf.labels) == 1, timeout=10000)
    rotary.notices.warning("3 of 4 files could not be read:\n" + "a.pdf: not read.\n" * 4)
    qtbot.wait(100)
    assert window.height() <= 560, window.height()
    assert window.chat.scroll_area.height() >= 110, window.chat.scroll_area.height()
    assert panel.height() >= panel.minimumSizeHint().height() - 2
    holds = shelf.labels[0].holds
    assert holds.text() == holds.full_text == "3 pages, 20 words.", holds.text()


def test_the_conversation_shows_its_focus_when_tab_reaches_it(qtbot, make_app):
    """After Delete, Tab reaches the conversation itself: it showed no focus at all."""
    from PySide6.QtCore import Qt
    from tests.app.conftest import wait_ready
    rotary = make_app()
    wait_ready(qtbot, rotary)
    window = rotary.window
    window.activateWindow()
    listing, scroll = window.conversations, window.chat.scroll_area
    listing.delete_button.setFocus(Qt.FocusReason.TabFocusReason)
    plain = scroll.grab().toImage()
    qtbot.keyClick(listing.delete_button, Qt.Key.Key_Tab)
    qtbot.waitUntil(scroll.hasFocus, timeout=2000)
    focused = scroll.grab().toImage()
    edge = [(x, 0) for x in range(12, scroll.width() - 12, 7)]
    changed = sum(plain.pixelColor(x, y) != focused.pixelColor(x, y) for x, y in edge)
    assert changed > len(edge) // 2, f"{changed} of {len(edge)} edge pixels show the focus"


def test_every_tab_stop_has_a_name_with_documents_listed(qtbot, make_app, tmp_path):
    """The list of documents was a Tab stop of its own, with no name and no focus shown."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication
    rotary, _ = app_with_documents(make_app, qtbot)
    window = rotary.window
    window.activateWindow()
    drop(window.chat.composer.input, budget_pdf(tmp_path / "budget.pdf"))
    qtbot.waitUntil(lambda: len(rotary.document_widgets.shelf.labels) == 1, timeout=10000)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=2000)
    window.conversations.search.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(window.conversations.search.hasFocus, timeout=2000)
    stops = []
    for _ in range(16):
        qtbot.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_Tab)
        stops.append(QApplication.focusWidget())
    assert None not in stops
    unnamed = [type(w).__name__ for w in stops if w is not None and not w.accessibleName()]
    assert not unnamed, unnamed
    assert rotary.document_widgets.shelf.list_area not in stops


def test_settings_says_why_its_setting_names_a_bigger_card(qtbot, make_app):
    from app.settings.model import Settings
    from tests.app.fakes import fake_hardware
    rotary = make_app(settings=Settings(first_run_done=True, preset="8gb-laptop"),
                      hardware=fake_hardware(vram_gib=2))
    qtbot.waitUntil(lambda: rotary.hardware is not None, timeout=3000)
    dialog = rotary.dialogs.open_settings()
    assert dialog.preset.currentData() == "8gb-laptop"
    assert "2.0 GB" in dialog.preset_note.text() and not dialog.preset_note.isHidden()
    dialog.preset.setCurrentIndex(dialog.preset.findData("cpu-only"))
    assert dialog.preset_note.isHidden()
    dialog.reject()


def test_the_side_panel_is_never_cut_off_on_a_short_window(qtbot, make_app):
    """On 800x600 with the software graphics card, the sentence saying where the model runs
    was cut off mid-sentence at the bottom of its section."""
    from engine.api import StepRecord, next_request_id
    from tests.app.conftest import wait_ready
    from tests.app.fakes import on_gpu
    rotary = make_app()
    wait_ready(qtbot, rotary)
    window, gauge = rotary.window, rotary.window.gauge
    window.resize(800, 560)
    event = type("Loaded", (), {"context_size": 4096, "placement": on_gpu()})()
    gauge.on_model_loaded(event)
    gauge.model.vram = None
    request = next_request_id() + 1
    gauge.on_stats(StepRecord(request, "x", 1, 5, 12, 150.0, 40.0, 6.2, 17, 4096,
                              expert_hit_rate=0.9))
    gauge.refresh()
    window.resize(800, 460)                       # shorter still: the side panel scrolls
    qtbot.wait(100)
    assert window.height() <= 460, window.height()
    for name, section in gauge.sections.items():
        if section.isVisible():
            caption = section.caption
            assert caption.height() >= caption.heightForWidth(caption.width()) - 1, name
    assert gauge.width() <= gauge.parentWidget().width()       # nothing cut at the right
