""""Check my computer" says which check runs and for how long, every second, instead of
"Checking…" alone for 40 s."""

from __future__ import annotations

import re
import time

from PySide6.QtCore import Qt

from app.settings.model import Settings
from app.settings.paths import default_paths
from app.setup.selftest import run_checks
from tests.app.fakes import FakeScript, fake_backend

STEP = re.compile(r"Checking (\d+) of (\d+): (.+)… (\d+) s")


def test_the_checks_report_each_step_in_order(rotary_home):
    backend, _ = fake_backend()
    seen: list[tuple[int, int, str]] = []
    report = run_checks(default_paths(), backend,
                        progress=lambda step, steps, name: seen.append((step, steps, name)))
    assert report.ok, report.verdict()
    assert [step for step, _, _ in seen] == list(range(1, 8))
    assert {steps for _, steps, _ in seen} == {7}
    assert [name for _, _, name in seen][2:4] == ["demo model", "engine"]


def test_the_wizard_shows_the_step_and_the_seconds_while_it_checks(qtbot, make_app):
    # The demo's answer takes 3 s to begin: the engine step is the long one, as on a laptop.
    rotary = make_app(settings=Settings(), wizard=True,
                      script=FakeScript(first_token_delay=3.0))
    page = rotary.dialogs.wizard.hardware_page
    qtbot.waitUntil(lambda: rotary.dialogs.wizard.hardware is not None, timeout=3000)
    said: list[tuple[float, str]] = []
    timer_seen = []

    def sample() -> None:
        text = page.check_result.text()
        if not said or said[-1][1] != text:
            said.append((time.monotonic(), text))
    qtbot.mouseClick(page.check_button, Qt.MouseButton.LeftButton)
    while "Everything works" not in page.check_result.text():
        sample()
        timer_seen.append(rotary.dialogs.wizard.check_timer.isActive())
        qtbot.wait(50)
        assert len(timer_seen) < 400, said
    steps = [(at, STEP.match(text)) for at, text in said if STEP.match(text)]
    engine = [(at, m) for at, m in steps if m.group(1) == "4"]
    assert engine and "demo model" in engine[0][1].group(3), said
    assert engine[0][1].group(2) == "7"
    seconds = [int(m.group(4)) for _, m in engine]
    assert seconds == sorted(seconds) and seconds[-1] >= seconds[0] + 2, said   # it moves
    times = [at for at, _ in engine]
    assert max(b - a for a, b in zip(times, times[1:])) < 1.3, said          # every second
    assert not rotary.dialogs.wizard.check_timer.isActive()
