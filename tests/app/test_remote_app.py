"""The app with "An office server": settings, keyring, wizard offer, a real chat through a
real llama-cpp-python server on 127.0.0.1, and no network socket while it is off."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

from app.settings.paths import default_paths
from app.setup.server_settings import ServerSettingsBox
from app.settings.server import KeyringUnavailable, KeyStore, connection_for
from app.settings.model import SCHEMA_VERSION, Settings, SettingsStore
from tests.app.conftest import close_app, wait_idle, wait_ready
from tests.app.fakes import MemoryKeys

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def demo_server(tmp_path_factory):
    pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python's server extra")
    from engine.demo.demo_model import write_demo_model
    from tests.support.fixture_server import FixtureServer

    with FixtureServer(write_demo_model(tmp_path_factory.mktemp("app-remote") / "demo.gguf"),
                       api_key="office-secret") as server:
        yield server


# ---- settings -----------------------------------------------------------------------------

def test_older_settings_keep_running_on_this_computer(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"schema_version": 2, "model_path": "/m.gguf"}), encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.settings.engine_location == "local" and not loaded.problems
    assert json.loads(path.read_text())["schema_version"] == SCHEMA_VERSION == 4
    assert Settings().engine_location == "local"        # off by default


def test_a_bad_saved_server_address_is_replaced_and_reported(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"schema_version": 3, "engine_location": "cloud",
                                "server_url": "ftp://x"}), encoding="utf-8")
    loaded = SettingsStore(path).load()
    assert loaded.settings.engine_location == "local" and loaded.settings.server_url == ""
    assert len(loaded.problems) == 2


class _MemoryBackend:
    """A working password store for the test (keyring's own backends need a desktop)."""

    def __new__(cls):
        from keyring.backend import KeyringBackend

        class Backend(KeyringBackend):
            priority = 1
            stored: dict = {}

            def get_password(self, service, user):
                return self.stored.get((service, user))

            def set_password(self, service, user, password):
                self.stored[(service, user)] = password

            def delete_password(self, service, user):
                self.stored.pop((service, user), None)
        return Backend()


@pytest.fixture
def keyring_backend():
    """Sets the keyring backend for one test: ``use(backend)``; restored afterwards."""
    keyring = pytest.importorskip("keyring")
    previous = keyring.get_keyring()
    getattr(KeyStore, "_session", {}).clear()
    yield keyring.set_keyring
    keyring.set_keyring(previous)
    getattr(KeyStore, "_session", {}).clear()


def test_without_a_password_store_the_key_is_kept_until_rotary_closes(keyring_backend):
    from keyring.backends import fail
    keyring_backend(fail.Keyring())
    assert not KeyStore().keeps_keys()
    KeyStore().set("https://ai.office.lan", "secret")          # no error: Settings said so
    settings = Settings(engine_location="server", server_url="https://ai.office.lan",
                        server_model="m")
    assert connection_for(settings, KeyStore()).api_key == "secret"   # it was lost before
    KeyStore().set("https://ai.office.lan", "")
    assert connection_for(settings, KeyStore()).api_key is None


def test_a_store_that_refuses_the_key_is_reported_after_ok(keyring_backend):
    backend = _MemoryBackend()
    backend.set_password = lambda *args: (_ for _ in ()).throw(RuntimeError("locked"))
    keyring_backend(backend)
    with pytest.raises(KeyringUnavailable) as raised:
        KeyStore().set("https://ai.office.lan", "secret")
    assert "only until it closes" in raised.value.message
    assert KeyStore().get("https://ai.office.lan") == "secret"          # for this session


@pytest.mark.parametrize("store", ["none", "working"])
def test_settings_say_where_the_key_will_be_kept_before_it_is_typed(qtbot, qloop, store,
                                                                   keyring_backend):
    """It said "kept in this computer's password store" where there was none; the user
    learnt after OK that the key was not kept."""
    from keyring.backends import fail
    from app.bridge.engine_bridge import EngineBridge
    from app.bridge.facade import real_backend
    from app.widgets.notifications import NotificationService
    keyring_backend(fail.Keyring() if store == "none" else _MemoryBackend())
    bridge, notices = EngineBridge(real_backend(), qloop), NotificationService()
    box = ServerSettingsBox(Settings(), bridge, notices)
    qtbot.addWidget(box)
    box.server.setChecked(True)
    note = box.key_note.text()
    if store == "none":
        assert "no password store" in note and "until it closes" in note
    else:
        assert "kept in this computer's password store" in note
    box.address.setText("https://ai.office.lan:8443")
    box.model.setCurrentText("qwen3.6")
    box.key.setText("secret")
    chosen = box.apply(Settings())
    assert notices.history == []                                 # nothing to learn after OK
    assert connection_for(chosen, KeyStore()).api_key == "secret"
    reopened = ServerSettingsBox(chosen, bridge, notices)
    qtbot.addWidget(reopened)
    assert reopened.key.text() == "secret"
    bridge.shutdown()


# ---- the settings dialog -----------------------------------------------------------------

def test_dialog_says_which_address_receives_the_conversation(qtbot, make_app):
    rotary = make_app()
    dialog = rotary.dialogs.open_settings()
    box = dialog.server_box
    assert box.local.isChecked() and "stay on this computer" in box.receiver.text()
    assert "no network" in box.receiver.text()
    assert not box.details.isVisibleTo(dialog) and dialog.preset.isEnabled()
    box.server.setChecked(True)
    assert box.details.isVisibleTo(dialog)
    assert not dialog.preset.isEnabled() and not dialog.chooser.isEnabled()
    assert dialog.temperature.isEnabled()              # still sent to the server


def test_dialog_with_a_server_shows_its_exact_address_and_stores_the_key(qtbot, qloop):
    from app.bridge.engine_bridge import EngineBridge
    from app.bridge.facade import real_backend
    from app.widgets.notifications import NotificationService

    bridge, keys = EngineBridge(real_backend(), qloop), MemoryKeys()
    box = ServerSettingsBox(Settings(), bridge, NotificationService(), keys)
    qtbot.addWidget(box)
    box.server.setChecked(True)
    box.address.setText("not an address")
    assert "Type the server's address" in box.receiver.text()
    assert not box.is_valid()
    box.address.setText("https://ai.office.lan:8443/v1")
    box.model.setCurrentText("qwen3.6")
    box.key.setText("secret")
    assert "https://ai.office.lan:8443/v1/chat/completions" in box.receiver.text()
    assert box.is_valid()
    chosen = box.apply(Settings())
    assert (chosen.engine_location, chosen.server_url, chosen.server_model) == (
        "server", "https://ai.office.lan:8443/v1", "qwen3.6")
    assert chosen.server_verify_tls is True and not box.tls_warning.isVisibleTo(box)
    box.verify.setChecked(False)
    assert box.tls_warning.isVisibleTo(box) and "read" in box.tls_warning.text()
    assert keys.saved == {"https://ai.office.lan:8443/v1": "secret"}
    assert "secret" not in json.dumps(chosen.__dict__)
    bridge.shutdown()


def test_dialog_lists_the_servers_models(qtbot, qloop, demo_server):
    from app.bridge.engine_bridge import EngineBridge
    from app.bridge.facade import real_backend
    from app.widgets.notifications import NotificationService

    bridge, keys = EngineBridge(real_backend(), qloop), MemoryKeys()
    keys.saved[demo_server.url] = "office-secret"
    box = ServerSettingsBox(Settings(engine_location="server", server_url=demo_server.url),
                            bridge, NotificationService(), keys)
    qtbot.addWidget(box)
    future = qloop.create_task(box.fetch_models())
    qtbot.waitUntil(future.done, timeout=20_000)
    assert future.result() == [demo_server.alias]
    assert box.model.currentText() == demo_server.alias
    bridge.shutdown()


@pytest.mark.parametrize("gpus", [(), None])
def test_wizard_offers_the_server_only_without_a_gpu(qtbot, make_app, gpus):
    from tests.app.fakes import fake_hardware     # the engine's own HardwareInfo

    rotary = make_app(hardware=fake_hardware(gpu=gpus is None))
    wizard = rotary.dialogs.open_wizard()
    qtbot.waitUntil(lambda: wizard.hardware is not None, timeout=5000)
    assert wizard.server_button.isVisibleTo(wizard.hardware_page) == (gpus == ())
    if gpus == ():
        with qtbot.waitSignal(wizard.server_requested, timeout=3000):
            wizard.server_button.click()


# ---- chatting through the office server ------------------------------------------------------

@pytest.mark.slow
def test_chat_through_the_office_server_and_back_to_this_computer(qtbot, qapp, qloop,
                                                                  rotary_home, demo_server,
                                                                  monkeypatch):
    from app.application import RotaryApp
    from app.bridge.facade import real_backend
    from engine.demo.demo_model import DEMO_TEXT

    keys = MemoryKeys()
    keys.saved[demo_server.url] = "office-secret"
    monkeypatch.setattr("app.setup.server_settings.KeyStore", lambda: keys)
    paths = default_paths()
    SettingsStore(paths.settings_file).save(Settings(
        first_run_done=True, preset="cpu-only", engine_location="server",
        server_url=demo_server.url, server_model=demo_server.alias))
    rotary = RotaryApp(qapp, qloop, real_backend(), paths)
    try:
        rotary.start()
        wait_ready(qtbot, rotary, timeout=60_000)
        assert "office server" in rotary.window.model_label.text()
        rotary.chat.send("Hello")
        wait_idle(qtbot, rotary, timeout=60_000)
        errors = [n for n in rotary.notices.history if n.level == "error"]
        assert not errors, errors[0].details
        assert rotary.history.messages(rotary.chat.conversation_id)[-1].content == DEMO_TEXT
        rotary.settings.update(engine_location="local")     # back to this computer: the demo
        wait_ready(qtbot, rotary, timeout=120_000)
        assert "demo" in rotary.window.model_label.text().lower()
    finally:
        close_app(rotary)


def test_typing_the_key_in_settings_connects_at_once(qtbot, qapp, qloop, rotary_home,
                                                     demo_server, monkeypatch):
    """The server refused a missing key; the user typed it in Settings and pressed OK, and
    nothing happened (a key is not a setting, so nothing reloaded) until "Try again"."""
    from app.application import RotaryApp
    from app.bridge.facade import real_backend
    from app.setup.settings_dialog import QDialogButtonBox
    keys = MemoryKeys()                                   # no key kept yet
    monkeypatch.setattr("app.setup.server_settings.KeyStore", lambda: keys)
    paths = default_paths()
    SettingsStore(paths.settings_file).save(Settings(
        first_run_done=True, engine_location="server", server_url=demo_server.url,
        server_model=demo_server.alias))
    rotary = RotaryApp(qapp, qloop, real_backend(), paths)
    try:
        rotary.start()
        qtbot.waitUntil(rotary.window.notice_bar.isVisible, timeout=60_000)
        assert "access key" in rotary.notices.history[-1].message
        dialog = rotary.dialogs.open_settings()
        dialog.server_box.key.setText("office-secret")
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
        wait_ready(qtbot, rotary, timeout=60_000)
        assert "office server" in rotary.window.model_label.text()
        rotary.chat.send("Hello")
        wait_idle(qtbot, rotary, timeout=60_000)
        assert rotary.chat.messages[-1].role == "assistant"
    finally:
        close_app(rotary)


# ---- trust: with the office server off, no network socket at all --------------------------

NO_SERVER_RUN = textwrap.dedent("""
    import asyncio, json, os, socket, sys
    created, connected = [], []
    def hook(event, args):
        if event == "socket.__new__":
            created.append(int(args[1]))
        elif event == "socket.connect":
            connected.append(list(args[1]) if isinstance(args[1], tuple) else repr(args[1]))
    sys.addaudithook(hook)
    import psutil, qasync
    from PySide6.QtWidgets import QApplication
    qapp = QApplication([])

    async def main():
        from app.application import RotaryApp
        from app.bridge.facade import real_backend
        from app.settings.paths import default_paths
        from app.settings.model import Settings, SettingsStore
        paths = default_paths()
        server = {} if len(sys.argv) < 2 else dict(
            engine_location="server", server_url=sys.argv[1], server_model=sys.argv[2])
        SettingsStore(paths.settings_file).save(Settings(first_run_done=True, preset="cpu-only",
                                                         **server))
        rotary = RotaryApp(qapp, asyncio.get_running_loop(), real_backend(), paths)
        rotary.start()
        rotary.dialogs.open_settings().reject()
        for _ in range(1200):
            if rotary.chat.model_ready:
                break
            await asyncio.sleep(0.1)
        assert rotary.chat.model_ready, "the demo model did not load"
        assert rotary.chat.send("Hello")
        for _ in range(1200):
            await asyncio.sleep(0.1)
            if not rotary.chat.busy:
                break
        answer = rotary.history.messages(rotary.chat.conversation_id)[-1].content
        inet = [str(c) for c in psutil.Process().net_connections(kind="inet")]
        rotary.window.close()
        rotary.close()
        return answer, inet

    answer, inet = qasync.run(main())
    families = sorted({f for f in created if f in (socket.AF_INET, socket.AF_INET6)})
    print("SOCKETS " + json.dumps({"answer": answer, "inet_created": families,
                                   "connected": connected, "open_inet": inet}))
""")


def _app_sockets(home: pathlib.Path, *server: str) -> dict:
    env = {**os.environ, "ROTARY_HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-c", NO_SERVER_RUN, *server], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    line = next(out for out in result.stdout.splitlines() if out.startswith("SOCKETS "))
    return json.loads(line.removeprefix("SOCKETS "))


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="asyncio's self-pipe is a loopback "
                    "AF_INET socket pair on Windows")
def test_with_the_server_off_the_app_opens_no_network_socket(tmp_path):
    seen = _app_sockets(tmp_path / "home")
    assert seen["answer"], "the local demo answered nothing"
    assert seen["inet_created"] == [] and seen["open_inet"] == [], seen
    assert all(isinstance(c, str) and "AF_INET" not in c for c in seen["connected"]), seen


@pytest.mark.slow
def test_with_the_server_on_the_app_connects_only_to_it(tmp_path):
    pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python's server extra")
    from engine.demo.demo_model import DEMO_TEXT, write_demo_model
    from tests.support.fixture_server import FixtureServer

    with FixtureServer(write_demo_model(tmp_path / "demo.gguf")) as server:
        seen = _app_sockets(tmp_path / "home", server.url, server.alias)
    assert seen["answer"] == DEMO_TEXT
    internet = [tuple(c) for c in seen["connected"] if isinstance(c, list)]
    assert internet and set(internet) == {("127.0.0.1", server.port)}, seen


def test_a_server_that_is_not_there_offers_try_again(qtbot, qapp, qloop, rotary_home):
    from app.application import RotaryApp
    from app.bridge.facade import real_backend
    from tests.support.fixture_server import free_port

    url = f"http://127.0.0.1:{free_port()}"
    paths = default_paths()
    SettingsStore(paths.settings_file).save(Settings(
        first_run_done=True, engine_location="server", server_url=url, server_model="m"))
    rotary = RotaryApp(qapp, qloop, real_backend(), paths)
    try:
        rotary.start()
        qtbot.waitUntil(lambda: any(n.level == "error" for n in rotary.notices.history),
                        timeout=30_000)
        notice = next(n for n in rotary.notices.history if n.level == "error")
        assert f"The office server at {url} does not answer" in notice.message
        assert [a.label for a in notice.actions] == ["Try again"]
        assert not rotary.chat.model_ready
    finally:
        close_app(rotary)


# ---- errors where the user acts, notices that go with their cause ---------------

class _RefusingBridge:
    """Says what a server with another key says: the key is refused."""

    def __init__(self) -> None:
        self.accept = False

    def server_address(self, url: str) -> str:
        return url

    async def server_models(self, connection) -> list[str]:
        from engine.errors import ServerAuthError
        if not self.accept:
            raise ServerAuthError("The office server refused the access key.", "HTTP 401")
        return ["gemma-3-270m-it"]


def test_a_refused_key_is_said_in_settings_not_behind_them(qtbot, qloop):
    from app.widgets.notifications import NotificationService
    notices, bridge = NotificationService(), _RefusingBridge()
    box = ServerSettingsBox(Settings(engine_location="server", server_url="http://127.0.0.1:9"),
                            bridge, notices, MemoryKeys())
    qtbot.addWidget(box)
    box.show()
    future = qloop.create_task(box.fetch_models())
    qtbot.waitUntil(future.done, timeout=3000)
    assert future.result() == []
    assert box.models_problem.isVisible()
    assert "refused the access key" in box.models_problem.text()
    assert notices.history == []                       # not in the main window behind
    qtbot.keyClicks(box.key, "right-key")              # typing the key: the old word goes
    assert not box.models_problem.isVisible()
    bridge.accept = True
    future = qloop.create_task(box.fetch_models())
    qtbot.waitUntil(future.done, timeout=3000)
    assert future.result() == ["gemma-3-270m-it"] and not box.models_problem.isVisible()


def test_a_failed_load_notice_goes_when_a_load_succeeds(qtbot, make_app):
    from engine.errors import ServerAuthError
    from tests.app.fakes import FakeScript
    script = FakeScript(fail_load=ServerAuthError("The office server refused the access key."))
    rotary = make_app(script=script)
    bar = rotary.window.notice_bar
    qtbot.waitUntil(lambda: bar.notice is not None, timeout=3000)
    assert "refused the access key" in bar.message.text()
    script.fail_load = None                            # the right key is in place
    rotary.loader.start()
    wait_ready(qtbot, rotary)
    assert bar.notice is None and not bar.isVisibleTo(rotary.window)


def test_the_status_bar_names_a_server_model_readably():
    from types import SimpleNamespace
    from app.setup.server_settings import server_model_name
    loaded = SimpleNamespace(server=SimpleNamespace(model="/srv/models/gemma-3-270m-it-Q8_0.gguf"))
    assert server_model_name(loaded) == "gemma-3-270m-it-Q8_0 on the office server"
    loaded = SimpleNamespace(server=SimpleNamespace(model="qwen3.6"))
    assert server_model_name(loaded) == "qwen3.6 on the office server"
