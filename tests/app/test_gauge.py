"""The live gauge, with a fake VRAM reader and fake step records.

The fake engine reports 150 tokens/s reading, 42 tokens/s writing, first token after
0.05 s, context 12 + n of 4,096 and (with routing) an expert hit rate of 0.875.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QScrollArea

from engine.api import StepRecord, next_request_id
from app.gauge import gauge_text
from app.gauge.gauge_model import GaugeModel
from app.widgets.theme import gauge_colour
from tests.app.conftest import wait_idle, wait_ready
from tests.app.fakes import FakeScript, FakeVramReader, fake_hardware


def _step(request_id, n=5, tps=42.0, used=17, hit=None) -> StepRecord:
    return StepRecord(request_id, "x", 1, n, 12, 150.0, tps, 0.05, used, 4096, expert_hit_rate=hit)


def _answer(qtbot, rotary, text="numbers please"):
    rotary.session.chat.send(text)
    wait_idle(qtbot, rotary)
    gauge = rotary.window.gauge
    qtbot.waitUntil(lambda: gauge.model.decode_tps > 0, timeout=2000)
    gauge.refresh()
    return gauge


def test_gauge_shows_measured_memory_speed_context_and_hits(qtbot, make_app):
    rotary = make_app(vram=FakeVramReader(used_gib=5.0, total_gib=8.0))
    gauge = rotary.window.gauge
    sections = gauge.sections
    qtbot.waitUntil(lambda: "5.0 of 8.0 GB" in sections["vram"].caption.text(), timeout=3000)
    assert gauge.vram_bar.parts == [(3.5 / 8, "model"), (1.5 / 8, "other")]
    assert "Rotary 3.5 GB, other programs 1.5 GB, free 3.0 GB" in sections["vram"].toolTip()
    assert sections["ram"].caption.text() == "System memory used by Rotary: 1.5 GB"
    wait_ready(qtbot, rotary)
    gauge = _answer(qtbot, rotary)
    # 42 tokens/s x 0.75 words per token = 31.5 -> "about 32 words"
    assert sections["speed"].caption.text() == "Writing speed: about 32 words a second"
    assert "writing 42.0 tokens per second, reading 150 tokens per second" in \
        sections["speed"].toolTip()
    assert sections["speed"].note.text() == ("Reading your message: about 110 words a second"
                                             " · first\u00a0word\u00a0after\u00a00.1\u00a0s")
    # 7 pieces written: 19 of 4,096 tokens used; (4096 - 19) x 0.75 = 3,058 -> "about 3,100"
    assert sections["context"].caption.text() == "Conversation memory: about 3,100 words left"
    assert "19 of 4,096 tokens used" in sections["context"].accessibleDescription()
    assert gauge.context_bar.parts == [(19 / 4096, "context")]
    assert sections["hits"].caption.text() == "Ready on the graphics card: 88% of the work"
    assert not sections["hits"].isHidden() and gauge.hit_bar.parts == [(0.875, "hits")]
    assert len(gauge.chart.points) >= 1


def test_hits_stay_hidden_until_the_engine_reports_a_hit_rate(qtbot, make_app):
    rotary = make_app(script=FakeScript(record_routing=False))
    wait_ready(qtbot, rotary)
    gauge = _answer(qtbot, rotary)
    assert gauge.model.hit_rate is None and gauge.sections["hits"].isHidden()
    assert gauge.sections["hits"].caption.text() == ""


def test_new_chat_and_model_switch_clear_the_old_numbers(qtbot, make_app, tmp_path):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    gauge = _answer(qtbot, rotary)
    old_request = rotary.fake["engine"].requests[-1].request_id
    assert "words left" in gauge.sections["context"].caption.text()
    rotary.session.chat.new_chat()
    sections = gauge.sections
    assert sections["context"].caption.text() == "Conversation memory: shown after the next answer"
    assert sections["speed"].caption.text() == "Writing speed: shown while an answer is written"
    assert gauge.chart.points == [] and gauge.context_bar.isHidden()
    assert sections["hits"].isHidden()
    gauge.on_stats(_step(old_request, hit=0.5))      # a late step of the old answer
    gauge.refresh()
    assert gauge.model.decode_tps == 0 and sections["hits"].isHidden()
    # Switching models: nothing of the previous model stays, its context size included.
    _answer(qtbot, rotary, "again")
    model_file = tmp_path / "other.gguf"
    model_file.write_bytes(b"GGUF" + b"\0" * 32)
    rotary.settings.update(model_path=str(model_file))
    assert sections["context"].caption.text() == "Conversation memory: no model loaded"
    assert gauge.model.speeds == type(gauge.model.speeds)()
    wait_ready(qtbot, rotary)
    gauge.refresh()
    assert sections["context"].caption.text() == "Conversation memory: shown after the next answer"


def test_nvml_failing_mid_session_shows_unknown(qtbot, make_app):
    vram = FakeVramReader()
    rotary = make_app(vram=vram)
    gauge = rotary.window.gauge
    qtbot.waitUntil(lambda: "GB in use" in gauge.sections["vram"].caption.text(), timeout=3000)
    vram.fail = True
    qtbot.waitUntil(lambda: "unknown" in gauge.sections["vram"].caption.text(), timeout=3000)
    assert rotary.window.isVisible() and gauge.vram_bar.isHidden()


def test_without_an_nvidia_gpu_the_gauge_says_so(qtbot, make_app):
    vram = FakeVramReader()
    vram.fail = True
    rotary = make_app(vram=vram, hardware=fake_hardware(gpu=False))
    gauge = rotary.window.gauge
    qtbot.waitUntil(lambda: "No graphics card" in gauge.sections["vram"].caption.text(),
                    timeout=3000)
    assert gauge.vram_bar.isHidden()


def test_polling_does_not_block_the_gui(qtbot, make_app):
    class Slow(FakeVramReader):
        def __call__(self, index=0):
            time.sleep(0.3)         # a slow driver call must not freeze the window
            return super().__call__(index)

    rotary = make_app(vram=Slow())
    start = time.perf_counter()
    qtbot.wait(50)
    assert time.perf_counter() - start < 0.25
    assert rotary.window.isVisible()


def test_model_ignores_stale_steps_and_forgets_speeds_after_a_minute():
    model = GaugeModel()
    floor = next_request_id()
    model.reset_conversation(floor)
    assert not model.on_step(_step(floor), now=0.0)
    assert model.on_step(_step(floor + 1), now=100.0) and model.speeds[-1] == (100.0, 42.0)
    model.on_step(_step(floor + 1, tps=40.0), now=100.1)     # within 0.25 s: not a new point
    assert len(model.speeds) == 1
    model.forget_old_speeds(161.0)
    assert not model.speeds
    model.on_vram(None)
    assert gauge_text.vram_text(model) == "Graphics memory: unknown"


def test_focus_on_a_gauge_section_is_drawn(qtbot, make_app):
    rotary = make_app()
    rotary.window.show()
    rotary.window.activateWindow()
    section = rotary.window.gauge.first_section()
    before = section.grab().toImage()
    rotary.window.menu_actions["focus_gauge"].trigger()
    qtbot.waitUntil(section.hasFocus, timeout=2000)
    after = section.grab().toImage()
    highlight = section.palette().highlight().color()
    edge = [after.pixelColor(x, 1) for x in range(4, section.width() - 4)]
    assert sum(c.rgb() == highlight.rgb() for c in edge) > len(edge) // 2
    assert before.pixelColor(section.width() // 2, 1).rgb() != highlight.rgb()


def test_the_chat_is_the_widest_column_at_800_by_500(qtbot, make_app):
    rotary = make_app(start=False)
    window = rotary.window
    window.resize(800, 500)
    rotary.start()                  # loads the demo, whose long name is shown while loading
    wait_ready(qtbot, rotary)
    _answer(qtbot, rotary)          # long gauge texts must not widen the gauge
    qtbot.wait(50)
    assert window.width() == 800    # nothing forced the window wider than the user made it
    conversations, middle, gauge = window.splitter.sizes()
    assert middle > conversations and middle > gauge, window.splitter.sizes()
    for area in window.chat.findChildren(QScrollArea):
        assert not area.horizontalScrollBar().isVisible()
    # and it stays so when the window grows and shrinks again
    window.resize(1400, 800)
    qtbot.wait(20)
    window.resize(800, 500)
    qtbot.wait(20)
    assert window.width() == 800
    conversations, middle, gauge = window.splitter.sizes()
    assert middle > conversations and middle > gauge, window.splitter.sizes()


def test_vram_bar_without_a_per_program_reading_does_not_claim_a_share(qtbot, make_app):
    vram = FakeVramReader(used_gib=6.0, total_gib=8.0)
    vram.process = None                 # what NVML gives under Windows' WDDM driver model
    rotary = make_app(vram=vram)
    gauge = rotary.window.gauge
    qtbot.waitUntil(lambda: gauge.vram_bar.parts != [], timeout=3000)
    assert gauge.vram_bar.parts == [(0.0, "model"), (0.75, "other")]
    assert "Rotary's share not reported" in gauge.sections["vram"].toolTip()
    assert "in&nbsp;use&nbsp;by&nbsp;all&nbsp;programs" in gauge.sections["vram"].note.text()


def test_slot_cache_numbers_are_in_the_hit_details(qtbot, make_app):
    """The slot cache reports this token's hits and misses and what it copied."""
    from dataclasses import replace
    rotary = make_app()
    gauge = rotary.window.gauge
    wait_ready(qtbot, rotary)
    request = next_request_id()
    first = replace(_step(request, n=1, hit=0.5), expert_hits=3, expert_misses=5,
                    expert_uploaded_bytes=2 * 2**20)
    second = replace(_step(request, n=2, hit=0.6), expert_hits=6, expert_misses=2,
                     expert_uploaded_bytes=2**20)
    for step in (first, second):
        gauge.on_stats(step)
    gauge.refresh()
    section = gauge.sections["hits"]
    assert not section.isHidden() and gauge.hit_bar.parts == [(0.6, "hits")]
    assert section.caption.text() == "Ready on the graphics card: 60% of the work"
    assert "expert" not in section.toolTip().lower()        # plain words first
    gauge.toggle_hit_details()                                # the engine's view: "Details"
    assert "This word: 6 of 8 experts from the graphics card; 3 MB copied there" in \
        section.toolTip()


def test_per_layer_strip_shows_each_layers_share_from_the_graphics_card(qtbot, make_app):
    """Two cached layers, k = 4: layer 0 always hits, layer 1 hits 1 of 4, then 3 of 4."""
    from dataclasses import replace
    rotary = make_app()
    gauge = rotary.window.gauge
    wait_ready(qtbot, rotary)
    gauge.resize(260, 600)
    request = next_request_id()
    steps = [replace(_step(request, n=1, hit=5 / 8), expert_hits=5, expert_misses=3,
                     expert_layer_hits=(4, 1)),
             replace(_step(request, n=2, hit=0.75), expert_hits=7, expert_misses=1,
                     expert_layer_hits=(4, 3))]
    for step in steps:
        gauge.on_stats(step)
    gauge.refresh()
    assert gauge.model.layer_shares() == [1.0, 0.5]
    assert not gauge.layer_strip.isVisibleTo(gauge)          # behind "Details"
    QTest.keyClick(gauge.sections["hits"], Qt.Key.Key_Return)
    assert "Per layer, in order: 100%, 50%." in gauge.sections["hits"].toolTip()
    strip = gauge.layer_strip
    assert strip.isVisibleTo(gauge)
    image = strip.grab().toImage()
    (track0, fill0), (track1, fill1) = strip.column_rects()
    assert fill0.height() == strip.height() and abs(fill1.height() - strip.height() / 2) < 1
    hits = gauge_colour("hits").rgb()
    x0, x1 = int(track0.center().x()), int(track1.center().x())
    assert image.pixelColor(x0, 1).rgb() == hits                     # full column
    assert image.pixelColor(x1, 1).rgb() != hits                     # half column: track on top
    assert image.pixelColor(x1, strip.height() - 2).rgb() == hits
    gauge.reset_conversation()
    gauge.refresh()
    assert gauge.model.layer_shares() == [] and gauge.sections["hits"].isHidden()


def test_the_message_box_keeps_its_width_in_a_small_window(qtbot, make_app):
    # Attach…, Send and the box shared one row: at 640 px the box was ~70 px wide.
    rotary = make_app()
    wait_ready(qtbot, rotary)
    window, composer = rotary.window, rotary.window.chat.composer
    window.resize(640, 420)
    qtbot.wait(50)
    attach, send = rotary.document_widgets.attach.geometry(), composer.send_button.geometry()
    assert attach.x() == send.x() and attach.bottom() < send.top()     # stacked, not side by side
    assert composer.input.width() > 1.5 * send.width(), (composer.input.width(), send.width())


def test_a_server_that_does_not_report_its_context_is_said_so_and_what_was_sent_counts(
        qtbot, make_app):
    """It said "Conversation memory: no model loaded" while chatting through the server."""
    from engine.api import ServerInfo, ServerModelLoaded
    from engine.messages import msg
    rotary = make_app(autoload=False)
    gauge = rotary.window.gauge
    server = ServerInfo("http://127.0.0.1:8000/v1", "qwen3.6", 0, "/extras/tokenize")
    gauge.on_model_loaded(ServerModelLoaded(next_request_id(), server,
                                            msg("engine.no_model")))
    gauge.refresh()
    context = gauge.sections["context"]
    assert context.caption.text() == "Conversation memory: not reported by the server"
    step = StepRecord(next_request_id(), "x", -1, 5, 1200, 150.0, 42.0, 0.3, 1205, 0)
    gauge.on_stats(step)
    gauge.refresh()
    # 1,205 tokens x 0.75 = 904 -> "about 900 words sent so far"
    assert context.caption.text() == ("Conversation memory: not reported by the server; "
                                      "about 900 words sent so far")
    assert "1,205 tokens sent so far" in context.toolTip()
    assert not gauge.context_bar.isVisibleTo(gauge)          # no bar without a size


def test_reading_a_document_and_a_cached_prompt_are_said_plainly():
    model = GaugeModel()
    model.on_step(StepRecord(next_request_id(), "x", 1, 2, 900, 600.0, 20.0, 0.0, 902, 4096))
    assert gauge_text.reading_text(model) == ("Reading your message: about 450 words a second"
                                    " · first\u00a0word\u00a0right\u00a0away")    # was "after 0.0 s"
    model.reading_document = True
    assert gauge_text.reading_text(model).startswith("Reading the document: about 450 words a second")


def test_the_gauge_says_it_reads_the_document_during_a_summary(qtbot, make_app, tmp_path):
    from tests.app.document_helpers import FakeDocuments
    rotary = make_app()
    wait_ready(qtbot, rotary)
    FakeDocuments(rotary.fake["engine"], part_delay=0.3)
    path = tmp_path / "Jahresbericht.pdf"
    path.write_bytes(b"%PDF-1.4")
    panel = rotary.document_widgets.panel
    rotary.session.documents.open_file(str(path))
    qtbot.waitUntil(panel.options.isVisible, timeout=3000)
    rotary.session.documents.summarize("short")
    request = rotary.session.documents.request_id
    rotary.bridge._listener(StepRecord(request, "x", 1, 2, 900, 300.0, 20.0, 1.2, 902, 4096))
    gauge = rotary.window.gauge
    qtbot.waitUntil(lambda: gauge.model.prompt_tps == 300.0, timeout=2000)
    gauge.refresh()
    assert gauge.sections["speed"].note.text().startswith("Reading the document: about 220")
    wait_idle(qtbot, rotary)
    rotary.session.chat.send("A question")
    wait_idle(qtbot, rotary)
    gauge.refresh()
    assert gauge.sections["speed"].note.text().startswith("Reading your message")


def test_an_instant_office_server_shows_no_reading_speed():
    """Not "Reading your message: about 1,300,000 words a second" from a server."""
    model = GaugeModel(on_server=True)
    model.on_step(StepRecord(next_request_id(), "x", -1, 2, 1700, 1_700_000.0, 40.0, 0.001,
                             1702, 0))
    assert "words a second" not in gauge_text.reading_text(model)
    assert gauge_text.reading_text(model) == "First word after 0.0 s"
    assert "reading" not in gauge_text.speed_details(model)


def test_a_server_that_cannot_be_reached_is_said_not_no_graphics_card(qtbot, make_app):
    from engine.errors import ServerUnreachableError
    script = FakeScript(fail_load=ServerUnreachableError(
        "The office server at http://127.0.0.1:9 does not answer."))
    rotary = make_app(script=script, hardware=fake_hardware(gpu=False))
    gauge = rotary.window.gauge
    qtbot.waitUntil(lambda: rotary.window.notice_bar.notice is not None, timeout=3000)
    gauge.refresh()
    caption = gauge.sections["vram"].caption.text()
    assert "office server cannot be reached" in caption and "graphics card" not in caption
    from engine.errors import ServerAuthError
    gauge.on_load_failed(ServerAuthError("The office server refused the access key."))
    caption = gauge.sections["vram"].caption.text()
    assert "did not start the model" in caption and "graphics card" not in caption


def test_one_word_a_second_and_less_are_said_in_the_singular():
    """Never "about 1 words a second" (a software graphics device writes that slowly)."""
    said = []
    for tps in (1.4, 0.5):                       # 1.05 and 0.375 words a second
        model = GaugeModel()
        model.on_step(StepRecord(next_request_id(), "x", 1, 2, 900, tps, tps, 0.5, 902, 4096))
        said.append((gauge_text.writing_text(model), gauge_text.reading_text(model)))
        model.reading_document = True
        said.append(("", gauge_text.reading_text(model)))
    assert said[0] == ("Writing speed: about 1 word a second", "Reading your message: about 1 "
                       "word a second · first\u00a0word\u00a0after\u00a00.5\u00a0s")
    assert said[1][1].startswith("Reading the document: about 1 word a second")
    assert said[2][0] == "Writing speed: less than 1 word a second"
    assert said[2][1].startswith("Reading your message: less than 1 word a second")
    assert said[3][1].startswith("Reading the document: less than 1 word a second")
