"""With a policy that does not let users change the server, the wizard does not offer "My
office has a model server…" (it led to a greyed-out setting)."""

from __future__ import annotations

from app.settings.model import Settings
from tests.app.fakes import fake_hardware


def _wizard(make_app, qtbot, tmp_path, monkeypatch, policy: str | None):
    if policy is not None:
        path = tmp_path / "policy.toml"
        path.write_text(policy, encoding="utf-8")
        monkeypatch.setenv("ROTARY_POLICY_FILE", str(path))
    rotary = make_app(settings=Settings(), wizard=True, hardware=fake_hardware(gpu=False))
    wizard = rotary.dialogs.wizard
    qtbot.waitUntil(lambda: wizard.hardware is not None, timeout=3000)
    qtbot.wait(50)
    return wizard


def test_no_server_offer_when_the_policy_keeps_the_server(qtbot, make_app, tmp_path,
                                                           monkeypatch):
    wizard = _wizard(make_app, qtbot, tmp_path, monkeypatch, "users_may_change_server = false\n")
    assert not wizard.may_choose_server
    assert wizard.server_button.isHidden()


def test_the_offer_stays_without_a_policy(qtbot, make_app, tmp_path, monkeypatch):
    wizard = _wizard(make_app, qtbot, tmp_path, monkeypatch, None)
    assert wizard.may_choose_server
    qtbot.waitUntil(lambda: not wizard.server_button.isHidden(), timeout=2000)
