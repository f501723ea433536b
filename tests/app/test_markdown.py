"""Markdown in message bubbles: what the user sees is what the model wrote, rendered
(code, fences, tables, nested lists, links, line breaks) and never interpreted as HTML."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QTextCursor

from app.widgets.markdown_render import render
from tests.app.conftest import wait_idle, wait_ready
from tests.app.fakes import FakeScript


def _shown(text: str, streamed: bool = False) -> str:
    """The plain text a bubble shows for ``text`` (whole, or streamed char by char)."""
    from app.chat.message_widget import MessageWidget
    widget = MessageWidget(1, "assistant", "" if streamed else text)
    if streamed:
        for char in text:
            widget.append(char)
            widget.refresh()
    return widget.body.toPlainText()


@pytest.mark.parametrize("streamed", [False, True])
@pytest.mark.parametrize("text", [
    "Look:\n\n    if a < b:\n        return a & b\n\nDone.",
    "~~~\nif a < b and c > d: print('&')\n~~~",
    "```python\nif a < b and c > d: print('&')\n```",
    "````\n```\nif a < b\n```\n````",
])
def test_code_shows_exactly_what_was_written(qapp, text, streamed):
    shown = _shown(text, streamed)
    assert "if a < b" in shown
    assert "&lt;" not in shown and "&amp;" not in shown


def test_a_tilde_fence_keeps_blank_lines_inside_one_block_while_streaming(qapp):
    from app.widgets.markdown_render import StreamingMarkdown
    streaming = StreamingMarkdown()
    streaming.append("~~~\nfirst\n\nsecond\n")
    assert streaming.take_finished_html() == ""       # the fence is still open
    streaming.append("~~~\n\nAfter.\n\n")
    html = streaming.take_finished_html()
    assert html.count("<pre") == 1 and "first\n\nsecond" in html


def test_raw_html_is_shown_as_text_never_run(qapp):
    text = "<script>alert(1)</script>\n\nA <b>tag</b> and <img src=x onerror=alert(1)>"
    html = render(text)
    assert "<script" not in html and "<b>" not in html and "<img" not in html
    shown = _shown(text)
    assert "<script>alert(1)</script>" in shown and "A <b>tag</b> and <img" in shown


def test_tables_render_as_tables(qapp):
    from app.chat.message_widget import MessageWidget
    widget = MessageWidget(1, "assistant", "| Name | Score |\n|---|---|\n| Ann | 3 < 4 |\n")
    cursor = widget.body.document().find("Ann")
    table = cursor.currentTable()
    assert table is not None and (table.rows(), table.columns()) == (2, 2)
    assert table.cellAt(1, 1).firstCursorPosition().block().text() == "3 < 4"


def test_nested_lists_keep_their_levels(qapp):
    from app.chat.message_widget import MessageWidget
    widget = MessageWidget(1, "assistant", "- fruit\n  - apple\n    - green\n- veg\n")
    levels = {}
    block = widget.body.document().begin()
    while block.isValid():
        if block.textList() is not None:
            levels[block.text()] = block.textList().format().indent()
        block = block.next()
    assert levels["fruit"] == levels["veg"] < levels["apple"] < levels["green"]


def test_links_show_but_are_never_followed(qtbot, qapp):
    from app.chat.message_widget import MessageWidget
    widget = MessageWidget(1, "assistant", "See [the site](https://example.com/x) and "
                           "[bad](javascript:alert(1)) and ![pic](https://example.com/p.png)")
    qtbot.addWidget(widget)
    widget.show()
    html = render("[bad](javascript:alert(1)) ![pic](https://example.com/p.png)")
    assert 'href="javascript' not in html               # markdown-it refuses such links
    assert "<img" not in html                            # nothing is fetched to show it
    body = widget.body
    assert body.openLinks() is False and body.openExternalLinks() is False
    cursor = body.document().find("the site")
    assert cursor.charFormat().anchorHref() == "https://example.com/x"
    before = body.toHtml()
    clicked = []
    body.anchorClicked.connect(clicked.append)
    inside = QTextCursor(cursor)
    inside.setPosition(cursor.selectionStart() + 3)
    point = body.cursorRect(inside).center()
    qtbot.mouseClick(body.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert clicked == [QUrl("https://example.com/x")]            # the click reached it
    assert body.source() == QUrl() and body.toHtml() == before     # still the answer


def test_single_line_breaks_are_kept(qapp):
    assert _shown("Line one\nLine two").splitlines() == ["Line one", "Line two"]
    assert _shown("Line one\nLine two\n\nNext", streamed=True).splitlines()[:2] == [
        "Line one", "Line two"]


def test_shift_enter_starts_a_new_line_and_the_message_keeps_it(qtbot, make_app):
    rotary = make_app(script=FakeScript(answers=[("First line\nSecond line",)]))
    wait_ready(qtbot, rotary)
    pane = rotary.window.chat
    qtbot.keyClicks(pane.composer.input, "Line one")
    qtbot.keyClick(pane.composer.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(pane.composer.input, "Line two")
    assert rotary.session.store.conversation_id is None            # Shift+Enter did not send
    qtbot.keyClick(pane.composer.input, Qt.Key.Key_Return)
    wait_idle(qtbot, rotary)
    stored = rotary.history.messages(rotary.session.store.conversation_id)
    assert stored[0].content == "Line one\nLine two"
    question, answer = pane.message_widgets
    assert question.body.toPlainText().splitlines() == ["Line one", "Line two"]
    assert answer.body.toPlainText().splitlines() == ["First line", "Second line"]


def test_a_streamed_loose_list_stays_one_list(qapp):
    from app.chat.message_widget import MessageWidget
    widget = MessageWidget(1, "assistant")
    for char in "Steps:\n\n1. open\n\n2. edit\n\n3. save\n\nDone.":
        widget.append(char)
        widget.refresh()
    lists = set()
    block = widget.body.document().begin()
    while block.isValid():
        if block.textList() is not None:
            lists.add(block.textList().item(0).position())
        block = block.next()
    assert len(lists) == 1
    assert widget.body.toPlainText().splitlines()[-1] == "Done."


def test_a_streamed_indented_code_block_stays_one_block(qapp):
    from app.chat.message_widget import MessageWidget
    widget = MessageWidget(1, "assistant")
    for char in "Code:\n\n    if a < b:\n\n        return a\n\nEnd.":
        widget.append(char)
        widget.refresh()
    tables, block = set(), widget.body.document().begin()
    while block.isValid():
        table = QTextCursor(block).currentTable()
        if table is not None:
            tables.add(table.firstPosition())
        block = block.next()
    assert len(tables) == 1


@pytest.mark.parametrize("streamed", [False, True])
def test_a_long_code_line_wraps_inside_the_bubble_instead_of_being_cut_off(qtbot, qapp, streamed):
    # The bubble has no horizontal scroll bar: what runs past its right edge is lost.
    from app.chat.message_widget import MessageWidget
    line = "total = " + " + ".join(f"value_{i}" for i in range(60))     # ~700 characters
    text = f"```python\n{line}\n```"
    widget = MessageWidget(1, "assistant", "" if streamed else text)
    qtbot.addWidget(widget)
    widget.resize(420, 300)
    widget.show()
    if streamed:
        widget.append(text)
        widget.refresh()
    qapp.processEvents()
    body = widget.body
    document = body.document()
    assert document.toPlainText().count("value_59") == 1           # the whole line is there
    assert document.size().width() <= body.viewport().width() + 1, \
        (document.size().width(), body.viewport().width())


def _block_looks(widget) -> list[tuple[str, float, float]]:
    looks, block = [], widget.body.document().begin()
    while block.isValid():
        fmt = block.blockFormat()
        looks.append((block.text(), fmt.topMargin(), fmt.bottomMargin()))
        block = block.next()
    return looks


def test_an_answer_looks_the_same_streamed_and_stored(qapp):
    """A streamed answer gained blank lines between its lines after switching to
    another conversation and back (several paragraphs inserted at once kept Qt's margins)."""
    from app.chat.message_widget import MessageWidget
    text = "Line A\n\nLine B\n\nLine C\n\nLine D\n\n1. x\n2. y\n\nEnd"
    stored = MessageWidget(1, "assistant", text)
    for step in (1, 9, 30):                 # tokens, and several paragraphs per refresh
        live = MessageWidget(1, "assistant")
        for start in range(0, len(text), step):
            live.append(text[start:start + step])
            live.refresh()
        live.show_final(text)
        assert _block_looks(live) == _block_looks(stored), step
