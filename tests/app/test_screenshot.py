"""A screenshot of the main window mid-answer, taken under Xvfb and kept as an artifact.

Saved to $ROTARY_ARTIFACTS or <repo>/artifacts/main_window_mid_answer.png.
Needs the Debian packages xvfb, libxcb-icccm4 and libxcb-keysyms1 (Qt's xcb plugin).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage

from app.widgets.theme import gauge_colour

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def xvfb_display():
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (apt-get install -y xvfb libxcb-icccm4 "
                    "libxcb-keysyms1)")
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0",
                               "1280x800x24", "-nolisten", "tcp"], pass_fds=(write,),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    yield f":{number}"
    server.terminate()
    server.wait(10)


def _share(image: QImage, xs, y: int, colour: QColor) -> float:
    """Share of pixels on row ``y`` at ``xs`` that are exactly ``colour``."""
    xs = list(xs)
    return sum(image.pixelColor(x, y).rgb() == colour.rgb() for x in xs) / max(1, len(xs))


def _check_bar(image: QImage, bar: dict) -> None:
    """Each part of the bar is filled with its colour, and the rest with the track."""
    x0, y0, width, height = bar["rect"]
    assert bar["parts"], "the bar has nothing drawn"
    for row in (y0 + 2, y0 + height // 2, y0 + height - 3):
        end = x0
        for x, w, colour in bar["parts"]:
            left, right = x0 + int(x) + 1, x0 + int(x + w) - 1
            if right - left >= 2:
                assert _share(image, range(left, right), row, gauge_colour(colour)) > 0.95, \
                    (colour, row)
            end = x0 + int(x + w)
        if x0 + width - 2 - (end + 1) >= 2:
            assert _share(image, range(end + 1, x0 + width - 2), row,
                          gauge_colour("track")) > 0.95


def _check_chart(image: QImage, chart: dict) -> None:
    """A line of the speed colour with the fill under it; the track where no data is yet."""
    x0, y0, width, height = chart["rect"]
    assert chart["points"] >= 2
    line = fill = 0
    for x in range(x0, x0 + width):
        column = [image.pixelColor(x, y).rgb() for y in range(y0, y0 + height)]
        line += gauge_colour("speed").rgb() in column
        fill += gauge_colour("speed_fill").rgb() == column[-2]
    assert line >= width // 10 and fill >= width // 10, (line, fill, width)
    assert _share(image, range(x0 + 1, x0 + 6), y0 + height // 2, gauge_colour("track")) > 0.9


def test_screenshot_of_an_answer_being_written(xvfb_display, tmp_path):
    artifacts = Path(os.environ.get("ROTARY_ARTIFACTS", ROOT / "artifacts"))
    out = artifacts / "main_window_mid_answer.png"
    out.unlink(missing_ok=True)
    env = dict(os.environ, DISPLAY=xvfb_display, QT_QPA_PLATFORM="xcb",
               ROTARY_HOME=str(tmp_path / "home"))
    result = subprocess.run([sys.executable, "-m", "tests.app.screenshot_driver", str(out)],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=90)
    if "could not load the qt platform plugin" in result.stderr.lower():
        pytest.skip("Qt's xcb plugin cannot load: install libxcb-icccm4 libxcb-keysyms1 "
                    "libxcb-cursor0 libxkbcommon-x11-0")
    assert result.returncode == 0, result.stderr[-3000:]
    image = QImage(str(out))
    layout = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert [image.width(), image.height()] == layout["window"]
    _check_bar(image, layout["vram_bar"])          # Rotary's share, other programs, free
    assert [c for _, _, c in layout["vram_bar"]["parts"]] == ["model", "other"]
    _check_bar(image, layout["context_bar"])
    _check_chart(image, layout["chart"])
    assert layout["captions"]["vram"] == "Graphics memory: 5.0 of 8.0 GB in use"
    assert "words a second" in layout["captions"]["speed"]
    assert "words left" in layout["captions"]["context"]
    assert not layout["hits_visible"]              # the fake reports no hit rate, as the engine
