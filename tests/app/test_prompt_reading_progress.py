"""A long wait for the first word says how far the message is read and how long is left,
said again every second even when the engine's reports are far apart."""

from __future__ import annotations

import re
import time

from engine.api import PromptProgress
from tests.app.conftest import wait_idle, wait_ready
from tests.app.fakes import FakeScript

PERCENT_LEFT = re.compile(r"Reading your message… (\d+)% — about (\d+) s left")


def _said_while_reading(make_app, qtbot, script: FakeScript) -> list[tuple[float, str]]:
    rotary = make_app(script=script)
    wait_ready(qtbot, rotary)
    said: list[tuple[float, str]] = []
    rotary.chat.phase_changed.connect(lambda text: said.append((time.monotonic(), text)))
    assert rotary.session.chat.send("a long message")
    qtbot.waitUntil(lambda: any(PERCENT_LEFT.match(text) for _, text in said), timeout=3000)
    bubble = rotary.window.chat.streaming
    assert bubble is not None and "% — about" in bubble.status.text()   # in the answer's box too
    wait_idle(qtbot, rotary, timeout=10_000)
    return said


def test_the_reading_line_says_percent_and_time_left_every_second(make_app, qtbot):
    # One report from the engine (the next would come after 10 s): the app carries it on.
    said = _said_while_reading(make_app, qtbot, FakeScript(
        first_token_delay=5.0, prompt_tokens=10000, prompt_report_s=10.0))
    reading = [(at, PERCENT_LEFT.match(text)) for at, text in said if PERCENT_LEFT.match(text)]
    assert len(reading) >= 4, said
    times = [at for at, _ in reading]
    assert max(b - a for a, b in zip(times, times[1:])) < 1.3, times     # at least every second
    percents = [int(m.group(1)) for _, m in reading]
    lefts = [int(m.group(2)) for _, m in reading]
    assert percents == sorted(percents) and percents[-1] > percents[0]
    assert lefts == sorted(lefts, reverse=True) and lefts[-1] < lefts[0]
    assert lefts[0] <= 7                 # measured: 5 s in all, never a guess of minutes
    assert said[-1][1] == ""             # the answer ended: the line is cleared
    assert any(text == "Writing the answer…" for _, text in said)


def test_a_short_message_says_no_percentage(make_app, qtbot):
    rotary = make_app(script=FakeScript(first_token_delay=0.3))
    wait_ready(qtbot, rotary)
    said: list[str] = []
    rotary.chat.phase_changed.connect(said.append)
    assert rotary.session.chat.send("hi")
    wait_idle(qtbot, rotary)
    assert "Reading your message…" in said and not any("%" in text for text in said)


def test_stop_while_reading_is_not_overwritten_by_the_countdown(make_app, qtbot):
    rotary = make_app(script=FakeScript(first_token_delay=5.0, prompt_tokens=5000))
    wait_ready(qtbot, rotary)
    assert rotary.session.chat.send("a long message")
    pane = rotary.window.chat
    qtbot.waitUntil(lambda: "% — about" in pane.composer.phase.text(), timeout=3000)
    rotary.session.chat.stop()
    assert pane.composer.phase.text() == "Stopping…"
    # A report the engine sent before it saw the stop arrives after it: "Stopping…" stays.
    answer = rotary.session.requests.current
    rotary.session.on_event(PromptProgress(answer.request_id, answer.conversation_id,
                                                  2500, 5000, 2.5, 2.5))
    assert pane.composer.phase.text() == "Stopping…"
    qtbot.wait(1200)
    assert "%" not in pane.composer.phase.text()
    wait_idle(qtbot, rotary)
