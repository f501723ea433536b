"""History and settings files: persistence, migrations, corruption, bad values."""

from __future__ import annotations

import json
import sqlite3

from app.conversation.history import HistoryStore, StoredMessage
from app.conversation.history_file import SCHEMA_VERSION, _V1
from app.settings.paths import default_paths
from app.settings.model import SCHEMA_VERSION as SETTINGS_VERSION, Settings, SettingsStore
from tests.app.conftest import close_app, wait_idle, wait_ready


def test_history_survives_a_restart(qtbot, make_app):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    rotary.chat.send("Remember me")
    wait_idle(qtbot, rotary)
    close_app(rotary)
    again = make_app()
    titles = [again.window.conversations.items.item(i).text()
              for i in range(again.window.conversations.items.count())]
    assert titles == ["Remember me"]
    again.chat.open_conversation(again.history.list_conversations()[0].id)
    assert [w.text for w in again.window.chat.message_widgets] == [
        "Remember me", "Hello there! Here is **bold** text."]


def test_corrupt_history_is_kept_aside_and_the_user_told(qtbot, make_app, rotary_home):
    paths = default_paths()
    paths.history_db.write_bytes(b"this is not a database" * 100)
    rotary = make_app()
    assert rotary.history.list_conversations() == []
    assert list(paths.data_dir.glob("history.db.corrupt-*"))
    assert any("could not be read" in n.message for n in rotary.notices.history)


def test_history_migrates_from_schema_1(tmp_path):
    path = tmp_path / "history.db"
    db = sqlite3.connect(path)
    db.executescript(_V1 + "PRAGMA user_version=1;")
    db.execute("INSERT INTO conversations VALUES (1, 'Old', 0, 0)")
    db.execute("INSERT INTO messages VALUES (1, 1, 0, 'user', 'hi', 0)")
    db.commit()
    db.close()
    store = HistoryStore(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert store.messages(1)[0].content == "hi" and store.messages(1)[0].model_name == ""
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_search_rename_delete(tmp_path):
    store = HistoryStore(tmp_path / "h.db")
    first = store.create_conversation("Budget")
    store.append(first, StoredMessage("user", "quarterly numbers 100%"))
    second = store.create_conversation("Holiday")
    assert [c.id for c in store.list_conversations("QUARTERLY")] == [first]
    assert [c.id for c in store.list_conversations("100%")] == [first]
    store.rename(second, "Trip")
    assert store.title(second) == "Trip"
    store.delete(first)
    assert [c.id for c in store.list_conversations()] == [second]
    assert store.messages(first) == []


def test_settings_migrate_from_schema_1(rotary_home):
    paths = default_paths()
    paths.settings_file.write_text(json.dumps({
        "schema_version": 1, "model": "/models/a.gguf", "temp": 0.3, "lang": "ko",
        "advanced": {"ctx": 8192, "gpu_layers": 12}}))
    loaded = SettingsStore(paths.settings_file).load()
    assert loaded.problems == ()
    assert loaded.settings.model_path == "/models/a.gguf"
    assert loaded.settings.temperature == 0.3 and loaded.settings.language == "ko"
    assert loaded.settings.overrides() == {"n_ctx": 8192, "gpu_expert_layers": 12}
    saved = json.loads(paths.settings_file.read_text())
    assert saved["schema_version"] == SETTINGS_VERSION and "model" not in saved


def test_bad_settings_values_are_reset_and_reported(rotary_home):
    paths = default_paths()
    paths.settings_file.write_text(json.dumps({
        "schema_version": SETTINGS_VERSION, "temperature": 9, "preset": "turbo",
        "system_prompt": "ok"}))
    loaded = SettingsStore(paths.settings_file).load()
    assert loaded.settings.temperature == Settings().temperature
    assert loaded.settings.preset == "auto" and loaded.settings.system_prompt == "ok"
    assert len(loaded.problems) == 2 and "answer variety" in loaded.problems[0] + loaded.problems[1]


def test_preset_names_come_from_the_engine_registry(rotary_home):
    from engine.plan import preset_names
    paths = default_paths()
    for name in preset_names():
        paths.settings_file.write_text(json.dumps({"schema_version": SETTINGS_VERSION,
                                                   "preset": name}))
        loaded = SettingsStore(paths.settings_file).load()
        assert loaded.problems == () and loaded.settings.preset == name


def test_the_app_names_no_preset_itself():
    """Preset names lived in the engine, app/settings/model.py, app/setup/wizard.py and
    app/setup/loading.py. The app now reads names and titles from the engine's registry."""
    import ast
    from pathlib import Path

    from engine.plan import PRESETS, preset_names, preset_words
    from app.settings.model import preset_label
    from app.setup.wizard import preset_words as wizard_words
    names = set(preset_names()) | set(PRESETS)
    written = []
    for path in sorted((Path(__file__).resolve().parents[2] / "app").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in names:
                written.append(f"{path.name}:{node.lineno} {node.value!r}")
    assert not written, written
    for name in preset_names():
        title, in_a_sentence = preset_words(name)
        assert preset_label(name) == str(title) and wizard_words(name) == str(in_a_sentence)
    assert Settings().preset in preset_names()


def test_every_setting_is_declared_once_with_its_check_label_and_reload_rule(rotary_home):
    """A setting's check, its name for people and whether it reloads the model
    were three lists in app/settings/model.py and a fourth in app/application.py."""
    import dataclasses

    from app import application
    from app.settings.model import MODEL_FIELDS, _field_label
    paths = default_paths()
    for field in dataclasses.fields(Settings):
        if field.name == "schema_version":
            continue
        label = _field_label(field.name)
        assert label
        paths.settings_file.write_text(json.dumps({"schema_version": SETTINGS_VERSION,
                                                   field.name: {"not": "valid"}}))
        loaded = SettingsStore(paths.settings_file).load()
        assert getattr(loaded.settings, field.name) == field.default, field.name
        assert loaded.problems and label in loaded.problems[0], field.name
    assert application.MODEL_FIELDS is MODEL_FIELDS
    assert {"model_path", "preset", "engine_location", "server_url"} <= set(MODEL_FIELDS)
    assert not {"temperature", "system_prompt", "language"} & set(MODEL_FIELDS)


def test_the_dialog_keeps_every_valid_stored_value(qtbot, make_app):
    """One set of ranges: a large valid context is shown and saved unchanged on OK."""
    from app.settings.model import RANGES
    top = Settings(first_run_done=True, context_size=RANGES["context_size"].high,
                   gpu_expert_layers=RANGES["gpu_expert_layers"].high,
                   threads=RANGES["threads"].high)
    rotary = make_app(settings=top, autoload=False)
    assert SettingsStore(default_paths().settings_file).load().problems == ()
    dialog = rotary.dialogs.open_settings()
    assert dialog.context.value() == 1_048_576 and dialog.gpu_layers.value() == 1000
    dialog.accept()
    assert rotary.settings.current == top


def test_unreadable_settings_file_restores_defaults(qtbot, make_app, rotary_home):
    paths = default_paths()
    paths.settings_file.write_text("{not json")
    rotary = make_app(start=False)
    assert rotary.settings.current == Settings()
    assert list(paths.config_dir.glob("settings.json.bad-*"))
    assert any("could not be read" in n.message for n in rotary.notices.history)
