"""The live gauge, with a fake VRAM reader and fake step records."""

from __future__ import annotations

from app.gauge import GaugeModel, ReuseTracker
from tests.app.conftest import wait_idle, wait_ready
from tests.app.fakes import FakeHardware, FakeVramReader


def test_gauge_shows_vram_speeds_context_and_reuse(qtbot, make_app):
    vram = FakeVramReader(used_gib=5.0, total_gib=8.0)
    rotary = make_app(vram=vram)
    labels = rotary.window.gauge.labels
    qtbot.waitUntil(lambda: "5.0 GB of 8.0 GB" in labels["vram"].text(), timeout=3000)
    wait_ready(qtbot, rotary)
    rotary.chat.send("numbers please")
    wait_idle(qtbot, rotary)
    qtbot.waitUntil(lambda: "42.0 tokens per second" in labels["writing"].text(), timeout=2000)
    assert "150 tokens per second" in labels["reading"].text()
    assert "0.1 seconds" in labels["ttft"].text() or "0.0" in labels["ttft"].text()
    assert "of 4,096 tokens" in labels["context"].text()
    assert "88%" in labels["hits"].text()
    assert "14.0 GB" in labels["ram"].text()
    assert len(rotary.window.gauge.strip.values) == 8


def test_nvml_failing_mid_session_shows_unknown(qtbot, make_app):
    vram = FakeVramReader()
    rotary = make_app(vram=vram)
    label = rotary.window.gauge.labels["vram"]
    qtbot.waitUntil(lambda: "GB of" in label.text(), timeout=3000)
    vram.fail = True
    qtbot.waitUntil(lambda: "unknown" in label.text(), timeout=3000)
    assert rotary.window.isVisible() and not rotary.window.gauge.vram_bar.isVisible()


def test_without_an_nvidia_gpu_the_gauge_says_so(qtbot, make_app):
    vram = FakeVramReader()
    vram.fail = True
    rotary = make_app(vram=vram, hardware=FakeHardware(gpus=()))
    label = rotary.window.gauge.labels["vram"]
    qtbot.waitUntil(lambda: "No NVIDIA graphics card" in label.text(), timeout=3000)


def test_polling_does_not_block_the_gui(qtbot, make_app):
    import time
    vram = FakeVramReader()
    original = vram.__call__

    class Slow(FakeVramReader):
        def __call__(self, index=0):
            time.sleep(0.3)         # a slow driver call must not freeze the window
            return original(index)

    rotary = make_app(vram=Slow())
    start = time.perf_counter()
    qtbot.wait(50)
    assert time.perf_counter() - start < 0.25
    assert rotary.window.isVisible()


def test_reuse_tracker_counts_recent_experts():
    tracker = ReuseTracker(window=2)
    assert tracker.add(((1, 2), (3, 4))) == [0.0, 0.0]
    assert tracker.add(((1, 5), (3, 4))) == [0.5, 1.0]
    model = GaugeModel()
    model.on_vram(None)
    assert model.vram_text() == "Graphics memory: unknown"
