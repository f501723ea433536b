"""The models found on this computer in the wizard and Settings, and the organisation's
settings file (app/settings/policy.py): locked settings, a broken file, the wizard's skipped step."""

from __future__ import annotations


import pytest
from PySide6.QtWidgets import QDialogButtonBox, QLabel

from app.settings.policy import load_policy
from app.settings.model import Settings, SettingsStore
from app.setup.settings_locks import LOCK_NOTE
from tests.app import fakes


def _policy(tmp_path, monkeypatch, text: str):
    path = tmp_path / "policy.toml"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setenv("ROTARY_POLICY_FILE", str(path))
    return path


def _shown(model_list) -> list[str]:
    return [model_list.items.item(i).text().split("  (")[0] for i in range(model_list.items.count())]


def test_the_wizard_lists_the_models_here_and_picking_one_checks_it(qtbot, make_app, user_home):
    home, blob = user_home
    rotary = make_app(settings=Settings(), wizard=True)
    wizard = rotary.dialogs.wizard
    models = wizard.model_list
    qtbot.waitUntil(lambda: models.items.count() == 3, timeout=5000)
    # Best fit first (the too-big one last); Ollama's name; no vision projector.
    assert _shown(models) in (["qwen3:8b", "Qwen3-30B-A3B-Q4_K_M", "big-model-Q8_0"],
                              ["Qwen3-30B-A3B-Q4_K_M", "qwen3:8b", "big-model-Q8_0"])
    assert "will not fit" in models.items.item(2).text() and "Fits well." in models.items.item(0).text()
    assert models.other.text() == "Other file…" and not models.other.isHidden()
    ollama = next(i for i in range(3) if models.items.item(i).text().startswith("qwen3:8b"))
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        models.items.itemClicked.emit(models.items.item(ollama))
    assert wizard.chooser.result.path == str(blob)
    assert wizard.chooser.path_edit.text() == "qwen3:8b"
    wizard.next()
    wizard.next()
    wizard.accept()
    assert rotary.settings.current.model_path == str(blob)


def test_settings_lists_them_too_with_other_file_kept(qtbot, make_app, user_home):
    rotary = make_app(settings=Settings(first_run_done=True), autoload=False)
    dialog = rotary.dialogs.open_settings()
    qtbot.waitUntil(lambda: dialog.model_list.items.count() == 3, timeout=5000)
    assert "Qwen3-30B-A3B-Q4_K_M" in _shown(dialog.model_list)
    assert not dialog.chooser.browse.isVisibleTo(dialog)       # "Other file…" replaces it
    dialog.reject()


LOCKING = """
model_folders = ["{share}"]
locked = ["model_path", "preset", "temperature"]
users_may_change_server = false
thinking = false

[settings]
model_path = "{share}/office-model.gguf"
preset = "cpu-only"
temperature = 0.2
system_prompt = "Answer in the office's style."
"""


def test_locked_settings_cannot_be_changed_in_the_dialog(qtbot, make_app, tmp_path, monkeypatch):
    share = tmp_path / "share"
    fakes.fake_gguf(share / "office-model.gguf")
    _policy(tmp_path, monkeypatch, LOCKING.format(share=share))
    rotary = make_app(settings=Settings(first_run_done=True, temperature=0.9), autoload=False)
    current = rotary.settings.current
    # Locked: the organisation's, over the user's own file. Not locked: the user's own.
    assert current.model_path == str(share / "office-model.gguf") and current.preset == "cpu-only"
    assert current.temperature == 0.2 and current.system_prompt == ""
    dialog = rotary.dialogs.open_settings()
    for widget in (dialog.chooser, dialog.preset, dialog.temperature, dialog.use_model_sampling,
                   dialog.server_box):
        assert not widget.isEnabled() and widget.toolTip() == "Set by your organisation"
    notes = [label for label in dialog.findChildren(QLabel) if label.objectName() == LOCK_NOTE]
    assert len(notes) == 5 and all(n.text() == "Set by your organisation" for n in notes)
    assert dialog.model_list is None
    assert dialog.threads.isEnabled() and dialog.system_prompt.isEnabled()
    # Even a value forced into a locked box does not get through.
    dialog.temperature.setValue(1.5)
    dialog.chooser.path_edit.setText("/somewhere/else.gguf")
    dialog.system_prompt.setPlainText("Be brief.")
    assert dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
    dialog.accept()
    current = rotary.settings.current
    assert current.temperature == 0.2 and current.model_path == str(share / "office-model.gguf")
    assert current.system_prompt == "Be brief."
    # Any other path to the settings keeps them too.
    rotary.settings.update(preset="auto")
    assert rotary.settings.current.preset == "cpu-only"
    # Thinking is the organisation's choice: off, and the menu item cannot change it.
    assert rotary.session.store.think.for_conversation(None) is False
    rotary.think_chosen(True)
    assert rotary.session.store.think.for_conversation(None) is False


def test_the_wizard_skips_the_model_the_organisation_chose(qtbot, make_app, tmp_path, monkeypatch):
    share = tmp_path / "share"
    fakes.fake_gguf(share / "office-model.gguf")
    _policy(tmp_path, monkeypatch, LOCKING.format(share=share))
    rotary = make_app(settings=Settings(), wizard=True, autoload=False)
    wizard = rotary.dialogs.wizard
    assert wizard.model_page not in [wizard.page(i) for i in wizard.pageIds()]
    wizard.next()
    assert wizard.currentPage() is wizard.done_page
    assert "organisation has chosen the model" in wizard.done_page.summary.text()
    wizard.accept()
    assert rotary.settings.current.model_path == str(share / "office-model.gguf")
    assert rotary.settings.current.first_run_done


def test_a_suggested_model_is_checked_in_the_wizard_and_can_be_changed(qtbot, make_app, tmp_path,
                                                                     monkeypatch, user_home):
    share = tmp_path / "share"
    suggested = fakes.fake_gguf(share / "office-model.gguf")
    _policy(tmp_path, monkeypatch, f'model_folders = ["{share}"]\n[settings]\n'
                                   f'model_path = "{suggested}"\n')
    rotary = make_app(settings=Settings(), wizard=True, autoload=False)
    wizard = rotary.dialogs.wizard
    qtbot.waitUntil(lambda: wizard.chooser.result is not None, timeout=5000)
    assert wizard.chooser.result.path == str(suggested)
    qtbot.waitUntil(lambda: wizard.model_list.items.count() == 4, timeout=5000)
    assert "office-model" in _shown(wizard.model_list)          # IT's folder is searched
    assert "from your organisation" in wizard.model_list.items.item(
        _shown(wizard.model_list).index("office-model")).text()


@pytest.mark.parametrize("text, said", [
    ("locked = [\"model_path\"\n[settings", "It is not written correctly."),
    (b"\xff\xfe not text", "Rotary could not open it."),
])
def test_a_broken_policy_file_is_said_in_plain_words_and_ignored(qtbot, make_app, tmp_path,
                                                                 monkeypatch, text, said, caplog):
    path = tmp_path / "policy.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    monkeypatch.setenv("ROTARY_POLICY_FILE", str(path))
    rotary = make_app(settings=Settings(first_run_done=True, preset="cpu-only"), autoload=False)
    warnings = [n for n in rotary.notices.history if "organisation's settings file" in n.message]
    assert len(warnings) == 1 and str(path) in warnings[0].message and said in warnings[0].message
    assert any("organisation's settings file" in r.getMessage() for r in caplog.records)
    assert rotary.policy.locked == frozenset() and rotary.settings.current.preset == "cpu-only"
    dialog = rotary.dialogs.open_settings()
    assert dialog.preset.isEnabled() and dialog.chooser.isEnabled()
    dialog.reject()


def test_a_new_user_starts_from_the_organisations_values(tmp_path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text('locked = ["preset"]\n[settings]\npreset = "cpu-only"\nlanguage = "ko"\n')
    policy = load_policy(path)
    new_user = SettingsStore(tmp_path / "new" / "settings.json", policy).load().settings
    assert new_user.preset == "cpu-only" and new_user.language == "ko"
    own = tmp_path / "own" / "settings.json"
    SettingsStore(own).save(Settings(preset="auto", language="en"))
    known_user = SettingsStore(own, policy).load().settings
    assert known_user.preset == "cpu-only" and known_user.language == "en"   # only locked wins
    # Locked without a value: held at the default (here: no office server on any desk).
    SettingsStore(own).save(Settings(engine_location="server", server_url="https://home.example"))
    path.write_text("users_may_change_server = false\n")
    held = SettingsStore(own, load_policy(path)).load().settings
    assert held.engine_location == "local" and held.server_url == ""


def test_a_locked_temperature_is_the_one_answers_use(qtbot, make_app, tmp_path, monkeypatch):
    # QA: temperature locked at 0.2, yet "Use the model's own answer variety" stayed ticked
    # and changeable, and answers sampled at the model's own temperature.
    _policy(tmp_path, monkeypatch, 'locked = ["temperature"]\n[settings]\ntemperature = 0.2\n'
                                   'model_sampling = true\n')
    rotary = make_app(settings=Settings(first_run_done=True, model_sampling=True), autoload=False)
    assert not rotary.settings.current.model_sampling
    assert rotary.session.requests.model_sampling is False
    assert rotary.session.requests.temperature == 0.2
    dialog = rotary.dialogs.open_settings()
    box = dialog.use_model_sampling
    assert not box.isChecked() and not box.isEnabled()
    assert box.toolTip() == "Set by your organisation"
    box.setChecked(True)                                    # forced: still not taken
    dialog.accept()
    assert not rotary.settings.current.model_sampling
    rotary.settings.update(model_sampling=True)
    assert rotary.session.requests.model_sampling is False


def test_a_policy_that_locks_model_sampling_itself_rules_it(tmp_path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text('locked = ["temperature", "model_sampling"]\n[settings]\ntemperature = 0.2\n'
                    'model_sampling = true\n')
    policy = load_policy(path)
    assert policy.enforce(Settings(model_sampling=False)).model_sampling is True
    path.write_text('locked = ["preset"]\n[settings]\ntemperature = 0.2\n')  # not locked
    policy = load_policy(path)
    assert not policy.is_locked("model_sampling")
    assert policy.enforce(Settings(model_sampling=True)).model_sampling is True


def test_a_bad_value_is_left_out_and_named(tmp_path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text('locked = ["colour"]\nthinking = "maybe"\n[settings]\ntemperature = 9\n'
                    'preset = "cpu-only"\n')
    policy = load_policy(path)
    assert policy.values == {"preset": "cpu-only"} and policy.thinking is None
    assert len(policy.problems) == 3
    assert all("has a value Rotary cannot use" in sentence for sentence, _ in policy.problems)
    assert load_policy(tmp_path / "none.toml").path is None


# ---- what the user chose shows as chosen (QA: "No models were found" beside a chosen file) ----

def _other_file(monkeypatch, path) -> None:
    """"Other file…" opens the file dialog; the user picks ``path`` there."""
    from PySide6.QtWidgets import QFileDialog
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        staticmethod(lambda *_args, **_kwargs: (str(path), "")))


def test_a_file_chosen_with_other_file_shows_as_chosen_in_settings(qtbot, make_app, tmp_path,
                                                                   monkeypatch):
    """Seen by a new user: Settings went on saying "No models were found on this computer"
    after a file was chosen with Other file…, as if nothing were chosen."""
    rotary = make_app(settings=Settings(first_run_done=True), autoload=False)
    dialog = rotary.dialogs.open_settings()
    models = dialog.model_list
    qtbot.waitUntil(lambda: "No models were found" in models.status.text(), timeout=5000)
    _other_file(monkeypatch, fakes.model_file(tmp_path, "my-model.gguf"))
    with qtbot.waitSignal(dialog.chooser.check_finished, timeout=3000):
        models.other.click()
    said = models.status.text()
    assert "No models were found" not in said
    assert said == "Chosen: my-model.gguf\nNo other models were found on this computer."
    dialog.chooser.path_edit.setText("")          # the user empties the box: nothing chosen
    dialog.chooser.path_edit.textEdited.emit("")
    assert models.status.text().startswith("No models were found on this computer.")
    dialog.reject()


def test_the_saved_model_shows_as_chosen_when_settings_opens(qtbot, make_app, tmp_path):
    model = fakes.model_file(tmp_path, "saved.gguf")
    rotary = make_app(settings=Settings(first_run_done=True, model_path=str(model)),
                      autoload=False)
    dialog = rotary.dialogs.open_settings()
    models = dialog.model_list
    qtbot.waitUntil(lambda: "found" in models.status.text(), timeout=5000)
    assert models.status.text() == "Chosen: saved.gguf\nNo other models were found on this computer."
    dialog.reject()


def test_a_choice_made_before_the_search_ends_is_kept(qtbot, make_app, tmp_path, monkeypatch):
    """The search runs on a worker: its answer may come after the user chose a file."""
    rotary = make_app(settings=Settings(), wizard=True, autoload=False)
    wizard = rotary.dialogs.wizard
    models = wizard.model_list
    _other_file(monkeypatch, fakes.model_file(tmp_path, "early.gguf"))
    models.other.click()
    models.show_choices([])                       # the search's answer, after the choice
    assert models.status.text() == "Chosen: early.gguf\nNo other models were found on this computer."
    models.show_failure()
    assert models.status.text() == ("Chosen: early.gguf\nRotary could not look for other models "
                                    "on this computer.")


def test_a_chosen_model_that_was_found_is_the_selected_line(qtbot, make_app, user_home):
    home, _blob = user_home
    found = next(home.glob(".lmstudio/models/*/Qwen3-30B-A3B-GGUF/Qwen3-30B-A3B-Q4_K_M.gguf"))
    rotary = make_app(settings=Settings(first_run_done=True, model_path=str(found)),
                      autoload=False)
    dialog = rotary.dialogs.open_settings()
    models = dialog.model_list
    qtbot.waitUntil(lambda: models.items.count() == 3, timeout=5000)
    assert models.items.currentItem().text().startswith("Qwen3-30B-A3B-Q4_K_M")
    assert models.items.currentItem().isSelected()
    assert models.status.text() == "Models found on this computer, best fit first:"
    dialog.reject()
