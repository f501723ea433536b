"""Run by test_screenshot.py under Xvfb: show Rotary mid-answer and save a screenshot.

``python -m tests.app.screenshot_driver OUT.png`` (DISPLAY must point at an X server).
Uses the fake engine with a slow, Markdown-rich answer so the picture shows streaming
text, a code block and the gauge: graphics memory bar, writing-speed chart, conversation
memory bar. Like the real engine today, the fake reports no expert hit rate, so that part
of the gauge stays hidden. Next to OUT.png it writes OUT.json: where each gauge drawing is
in the window, and what it should show, for test_screenshot.py to check the pixels.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import qasync
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from app.settings.paths import default_paths
from app.settings.model import Settings, SettingsStore
from tests.app.fakes import FakeScript, fake_backend

ANSWER = ("Here is a short plan for the **quarterly report**:\n\n"
          "1. Collect the sales figures from each office.\n"
          "2. Compare them with last quarter.\n"
          "3. Write a one-page summary.\n\n"
          "A small script can add up the numbers:\n\n"
          "```python\ntotals = {}\nfor office, amount in rows:\n"
          "    totals[office] = totals.get(office, 0) + amount\nprint(totals)\n```\n\n"
          "After that, the summary should explain the biggest changes and why they "
          "happened, in plain words for the whole team to read.")


def pieces(text: str) -> tuple[str, ...]:
    words = text.split(" ")
    return tuple(word + (" " if i < len(words) - 1 else "") for i, word in enumerate(words))


async def capture(out: Path) -> int:
    from app.application import RotaryApp
    paths = default_paths()
    SettingsStore(paths.settings_file).save(Settings(first_run_done=True))
    backend, _ = fake_backend(FakeScript(answer=pieces(ANSWER), token_delay=0.03,
                                         record_routing=False))
    rotary = RotaryApp(QApplication.instance(), asyncio.get_running_loop(), backend, paths)
    rotary.start()
    while not rotary.session.requests.model_ready:
        await asyncio.sleep(0.05)
    rotary.session.chat.send("How should I prepare the quarterly report?")
    while len(rotary.session.requests.partial) < len(ANSWER) * 0.75:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)          # let the throttled renderer and gauge catch up
    window = rotary.window
    window.gauge.refresh()
    await asyncio.sleep(0.1)
    picture = QGuiApplication.primaryScreen().grabWindow(window.winId())
    if picture.isNull():
        picture = window.grab()
    ok = picture.save(str(out))
    out.with_suffix(".json").write_text(json.dumps(gauge_layout(window)), encoding="utf-8")
    rotary.session.chat.stop()
    await asyncio.sleep(0.2)
    rotary.close()
    return 0 if ok else 1


def _rect(widget, window) -> list[int]:
    corner = widget.mapTo(window, widget.rect().topLeft())
    return [corner.x(), corner.y(), widget.width(), widget.height()]


def gauge_layout(window) -> dict:
    gauge = window.gauge
    return {
        "vram_bar": {"rect": _rect(gauge.vram_bar, window),
                     "parts": [[r.x(), r.width(), c] for r, c in gauge.vram_bar.part_rects()]},
        "context_bar": {"rect": _rect(gauge.context_bar, window),
                        "parts": [[r.x(), r.width(), c]
                                  for r, c in gauge.context_bar.part_rects()]},
        "chart": {"rect": _rect(gauge.chart, window), "points": len(gauge.chart.points)},
        "hits_visible": gauge.sections["hits"].isVisible(),
        "captions": {k: s.caption.text() for k, s in gauge.sections.items()},
        "window": [window.width(), window.height()],
    }


def main() -> int:
    out = Path(sys.argv[1])
    out.parent.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    return qasync.run(capture(out))


if __name__ == "__main__":
    sys.exit(main())
