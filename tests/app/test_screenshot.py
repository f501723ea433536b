"""A screenshot of the main window mid-answer, taken under Xvfb and kept as an artifact.

Saved to $ROTARY_ARTIFACTS or <repo>/artifacts/main_window_mid_answer.png.
Needs the Debian packages xvfb, libxcb-icccm4 and libxcb-keysyms1 (Qt's xcb plugin).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

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
    assert image.width() >= 800 and image.height() >= 500
    colours = {image.pixel(x, y) for x in range(0, image.width(), 37)
               for y in range(0, image.height(), 29)}
    assert len(colours) > 10          # a real window, not a blank frame
