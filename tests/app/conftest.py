"""App tests: offscreen Qt, a qasync loop on the test's Qt loop, fake engine, tmp dirs."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Plain `pytest` (not `python -m pytest`) does not put the repository root on sys.path;
# the tests import their fakes as tests.app.fakes.
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

import pytest  # noqa: E402
import qasync  # noqa: E402

from app.settings.paths import default_paths  # noqa: E402
from app.settings.model import Settings, SettingsStore  # noqa: E402
from engine.facade import find_models_here  # noqa: E402
from tests.app import fakes  # noqa: E402
from tests.app.fakes import fake_backend  # noqa: E402

UNEXPECTED = "Something went wrong inside Rotary"


@pytest.fixture(autouse=True, scope="session")
def qt_translation():
    """``tr`` goes through Qt's translators, as in the app (app/widgets/translation.py), so a
    test may install a QTranslator by hand."""
    from PySide6.QtCore import QCoreApplication

    from app.text import i18n
    i18n.use_translation(QCoreApplication.translate)
    yield
    i18n.use_translation(None)


@pytest.fixture
def rotary_home(tmp_path, monkeypatch):
    """Every settings, history and marker file of the test lives under tmp_path."""
    home = tmp_path / "rotary-home"
    monkeypatch.setenv("ROTARY_HOME", str(home))
    # No organisation's settings file unless a test writes one (app/settings/policy.py).
    monkeypatch.setenv("ROTARY_POLICY_FILE", str(tmp_path / "no-policy.toml"))
    return home


@pytest.fixture
def qloop(qapp):
    """An asyncio loop driven by Qt: tasks advance whenever qtbot waits."""
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    yield loop
    asyncio.events._set_running_loop(None)
    asyncio.set_event_loop(None)


@pytest.fixture
def make_app(qapp, qloop, rotary_home, qtbot):
    """Build a RotaryApp on fake engine parts; fails the test on unexpected errors."""
    from app.application import RotaryApp
    built = []

    def build(script=None, hardware=None, vram=None, settings: Settings | None = None,
              autoload=True, wizard=False, start=True, allow_unexpected=False):
        paths = default_paths()
        if settings is not None or not paths.settings_file.exists():
            SettingsStore(paths.settings_file).save(settings or Settings(first_run_done=True))
        backend, state = fake_backend(script, hardware, vram)
        rotary = RotaryApp(qapp, qloop, backend, paths)
        rotary.fake, rotary.allow_unexpected = state, allow_unexpected
        built.append(rotary)
        if start:
            rotary.start(autoload=autoload, wizard=wizard)
        return rotary

    yield build
    for rotary in built:
        close_app(rotary)
        if not rotary.allow_unexpected:
            errors = [n for n in rotary.notices.history if n.message.startswith(UNEXPECTED)]
            assert not errors, errors[0].details


def close_app(rotary) -> None:
    if getattr(rotary, "_closed_for_test", False):
        return
    rotary._closed_for_test = True
    rotary.window.close()
    rotary.close()
    rotary.window.deleteLater()     # gone, not hidden: later tests' restyles skip it


def wait_ready(qtbot, rotary, timeout=5000) -> None:
    """Until the model is ready; a load that fails meanwhile fails the test at once, with the
    engine's error (not after the whole timeout, 120 s for the real engine)."""
    failed = []
    rotary.bridge.load_failed.connect(failed.append)
    try:
        qtbot.waitUntil(lambda: rotary.session.requests.model_ready or bool(failed), timeout=timeout)
    finally:
        rotary.bridge.load_failed.disconnect(failed.append)
    if failed and not rotary.session.requests.model_ready:
        error = failed[0]
        pytest.fail(f"the model did not load: {error}\n{getattr(error, 'details', '')}")


def wait_idle(qtbot, rotary, timeout=5000) -> None:
    qtbot.waitUntil(lambda: not rotary.session.requests.busy, timeout=timeout)


# ---- a home where other apps left models (the wizard's and Settings' found models) ----

@pytest.fixture
def user_home(tmp_path, monkeypatch):
    """A home where LM Studio and Ollama left models; the fake backend finds them for real."""
    home = tmp_path / "user"
    for name in ("XDG_DATA_HOME", "XDG_DOWNLOAD_DIR", "XDG_DOCUMENTS_DIR", "HF_HOME",
                 "HF_HUB_CACHE", "OLLAMA_MODELS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    studio = home / ".lmstudio" / "models" / "lmstudio-community"
    fakes.fake_gguf(studio / "Qwen3-30B-A3B-GGUF" / "Qwen3-30B-A3B-Q4_K_M.gguf")
    fakes.fake_gguf(studio / "Qwen3-30B-A3B-GGUF" / "mmproj-Qwen3-30B-A3B-F16.gguf")
    fakes.fake_gguf(studio / "Huge-GGUF" / "big-model-Q8_0.gguf")
    blob = fakes.fake_gguf(home / ".ollama" / "models" / "blobs" / f"sha256-{'1' * 64}")
    manifest = home / ".ollama/models/manifests/registry.ollama.ai/library/qwen3/8b"
    manifest.parent.mkdir(parents=True)
    manifest.write_text(json.dumps({"layers": [{"mediaType": "application/vnd.ollama.image.model",
                                                "digest": f"sha256:{'1' * 64}"}]}))
    monkeypatch.setattr(fakes, "find_models", lambda folders: find_models_here(folders))
    return home, blob
