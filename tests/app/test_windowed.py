"""A windowed build has ``sys.stdout = sys.stderr = None``: the app still loads a model,
and llama.cpp's log, prints and tracebacks all reach the log file, not a console."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

WINDOWED = textwrap.dedent("""
    import sys
    sys.stdout = None            # what a windowed PyInstaller build hands the app
    sys.stderr = None
    import app.__main__ as entry
    assert "llama_cpp" not in sys.modules, "llama_cpp imported before the log was set up"
    code = entry.main(["--self-test"])          # loads the demo model, writes tokens
    print("after the self-test")               # goes to the fallback stream
    try:
        raise RuntimeError("a traceback for the log")
    except RuntimeError:
        import traceback
        traceback.print_exc()                   # what an unhandled error would write
    sys.stdout.flush()
    sys.stderr.flush()
    raise SystemExit(code)
""")


@pytest.mark.slow
def test_windowed_build_without_console_loads_a_model_and_logs_to_the_file(tmp_path):
    home = tmp_path / "home"
    env = dict(os.environ, ROTARY_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([sys.executable, "-c", WINDOWED], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    log = (home / "data" / "logs" / "rotary.log").read_text(encoding="utf-8")
    assert result.returncode == 0, log[-3000:] + result.stderr
    llama_lines = [line for line in log.splitlines() if " rotary.llama: " in line]
    assert any("llama_model_loader" in line for line in llama_lines), log[-3000:]
    assert any("ROTARY SELF-TEST PASSED" in line and "rotary.stdout" in line
               for line in log.splitlines())
    assert "rotary.stdout: after the self-test" in log
    assert "RuntimeError: a traceback for the log" in log
    # Nothing of llama.cpp's went to the process's real stdout/stderr either.
    assert "llama_model_loader" not in result.stdout + result.stderr


@pytest.mark.slow
def test_quitting_during_the_very_first_start_prints_no_traceback(tmp_path):
    """The window closes while the first start still writes the demo model and probes the
    computer: the work not yet begun is cancelled quietly (it printed a CancelledError)."""
    env = dict(os.environ, ROTARY_HOME=str(tmp_path / "home"), QT_QPA_PLATFORM="offscreen")
    result = subprocess.run([sys.executable, "-m", "app", "--quit-after-shown"], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "WINDOW_SHOWN" in result.stdout
    assert "Traceback" not in result.stderr and "CancelledError" not in result.stderr, \
        result.stderr
