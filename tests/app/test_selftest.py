"""``--self-test``: real checks that pass on a good install and fail, in words, on a bad one."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from app.settings.paths import AppPaths, default_paths
from app.setup.selftest import (Check, NetworkGuard, SelfTestReport, check_engine, check_folder_writable,
                          check_network, run_checks)
from engine.errors import ModelLoadError
from tests.app.fakes import FakeScript, fake_backend

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_real_engine_passes_every_check(rotary_home):
    report = run_checks(default_paths())
    assert report.ok, report.verdict()
    names = [check.name for check in report.checks]
    assert names == ["settings folder", "history folder", "demo model", "engine",
                     "native helpers", "text recognition", "offline"]
    native = next(c for c in report.checks if c.name == "native helpers")
    assert native.detail == "C helpers: rotary policy step, routing recorder"   # pip built them
    engine = next(c for c in report.checks if c.name == "engine")
    assert engine.detail.startswith("8 tokens")
    assert report.verdict().startswith("ROTARY SELF-TEST PASSED")


@pytest.mark.slow
def test_command_line_prints_one_verdict_and_exits_zero(rotary_home):
    result = subprocess.run([sys.executable, "-m", "app", "--self-test"], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    lines = result.stdout.strip().splitlines()
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(lines) == 1 and lines[0].startswith("ROTARY SELF-TEST PASSED"), lines
    assert "window (Qt offscreen)" in lines[0]
    log = (rotary_home / "data" / "logs" / "rotary.log").read_text(encoding="utf-8")
    assert lines[0] in log


def test_a_folder_that_cannot_be_written_fails_in_words(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    check = check_folder_writable("settings folder", blocker / "config")
    assert not check.ok and "not writable" in check.detail


def test_a_model_that_does_not_load_fails_the_verdict(rotary_home, tmp_path):
    backend, _state = fake_backend(FakeScript(fail_load=ModelLoadError("The model did not load.",
                                                                       "llama: bad tensor")))
    check = check_engine(backend, tmp_path / "demo.gguf", "cpu-only", timeout=10)
    assert not check.ok and "did not load" in check.detail and "bad tensor" in check.detail
    report = SelfTestReport((Check("settings folder", True, "writable"), check), 1.0)
    assert not report.ok
    assert report.verdict().startswith("ROTARY SELF-TEST FAILED (1 of 2 checks)")


def test_the_engine_check_counts_what_streamed_and_fails_a_silent_engine(rotary_home, tmp_path):
    backend, _state = fake_backend(FakeScript(answer=(" one", " two", " three")))
    check = check_engine(backend, tmp_path / "demo.gguf", "cpu-only", timeout=10)
    assert check.ok and check.detail.startswith("3 tokens, "), check.detail
    # The fake's recipe plans every layer for the GPU, but its ModelLoaded says nothing of
    # where the model went: the check never repeats the plan (tests/app/test_where_the_model_runs.py
    # has the placements).
    assert check.detail.endswith("recipe cpu-only, placement unknown"), check.detail
    backend, _state = fake_backend(FakeScript(answer=()))
    check = check_engine(backend, tmp_path / "demo.gguf", "cpu-only", timeout=10)
    assert not check.ok and check.detail == "the model loaded but wrote nothing"
    paths = AppPaths(rotary_home / "config", rotary_home / "data").ensure()
    report = run_checks(paths, fake_backend(FakeScript(answer=()))[0])
    assert not report.ok and "wrote nothing" in report.verdict()


def test_the_guard_sees_internet_sockets_but_not_unix_ones():
    with NetworkGuard() as guard:
        local = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        local.close()
        assert guard.attempts == []
        internet = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            internet.connect(("127.0.0.1", 9))       # UDP connect sends nothing
        finally:
            internet.close()
    assert guard.attempts[0] == "created AF_INET socket"
    assert any(a.startswith("connect ('127.0.0.1', 9)") for a in guard.attempts)
    assert not check_network(guard).ok


def test_a_socket_left_open_by_anyone_fails_the_offline_check():
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)   # outside any guard
    listening.bind(("127.0.0.1", 0))
    listening.listen()
    try:
        with NetworkGuard() as guard:
            pass
        check = check_network(guard)
    finally:
        listening.close()
    assert not check.ok and "127.0.0.1" in check.detail
    with NetworkGuard() as guard:
        pass
    assert check_network(guard).ok


def test_the_wizard_runs_the_same_checks_through_the_bridge(qtbot, qloop, rotary_home):
    import asyncio
    from app.bridge.engine_bridge import EngineBridge
    from app.setup.selftest import check_my_computer
    backend, state = fake_backend()
    bridge = EngineBridge(backend, qloop)
    task = asyncio.ensure_future(check_my_computer(bridge, default_paths()))
    qtbot.waitUntil(task.done, timeout=20_000)
    report = task.result()
    bridge.shutdown()
    assert report.ok, report.verdict()
    assert [c.name for c in report.checks][-1] == "offline"
    assert state["engine"] is not None                  # the bridge's backend did the work
    assert "Everything works" in report.user_text()


def test_failed_checks_are_named_in_the_interface_language(qapp):
    # The names went through tr() as variables, which lupdate never sees: they stayed English.
    import re

    from PySide6.QtCore import QTranslator

    from app.text.i18n import I18N_DIR
    from app.setup.selftest import check_titles
    source = (Path(__file__).parents[2] / "app" / "setup" / "selftest.py").read_text(encoding="utf-8")
    named = set(re.findall(r'Check\("([a-z ]+)"', source)) | \
        set(re.findall(r'check_folder_writable\("([a-z ]+)"', source))
    assert named and named <= check_titles().keys()
    translator = QTranslator()
    assert translator.load(str(I18N_DIR / "rotary_ko.qm"))
    qapp.installTranslator(translator)
    try:
        report = SelfTestReport((Check("engine", False, "did not start"),
                                 Check("offline", True, "no internet socket")), 1.0)
        assert "(엔진)" in report.user_text() and "engine" not in report.user_text()
    finally:
        qapp.removeTranslator(translator)


def test_a_c_helper_that_does_not_match_the_engine_fails_its_check(monkeypatch):
    from app.setup import selftest
    from engine.native.abi import NativeAbiError
    from engine.residency import native_rotary

    def mismatched():
        raise NativeAbiError("rp_engine.budget is at 40 in C, 32 here")
    monkeypatch.setattr(native_rotary, "library", mismatched)
    check = selftest.check_native()
    assert not check.ok and "does not match" in check.detail and "rp_engine" in check.detail
