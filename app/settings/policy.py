"""The organisation's settings file: what IT decides once for every desk.

A machine-wide TOML file (``policy_path``) that users cannot write. It gives the settings'
own values (the names of app/settings/model.py's ``Settings``: one vocabulary, checked by the same
rules), says which of them users may not change, adds folders to search for models, and can
switch thinking before answering on or off for everyone::

    model_folders = ["/srv/models"]        # searched for models, beside the usual places
    locked = ["model_path", "preset"]      # "Set by your organisation" in Settings
    users_may_change_server = false        # locks where the model runs and the server
    thinking = false                       # think before answering: off for everyone

    [settings]                             # values for everyone (first start, and locked)
    model_path = "/mnt/models/Qwen3.6-35B-A3B-Q4_K_M.gguf"

A value that is not locked is where a new user starts; a locked one always wins (a locked
setting the file gives no value for is held at its default). A locked ``temperature`` also
holds ``model_sampling`` off (answers use that temperature), unless ``model_sampling`` is
locked itself. A file
that cannot be read is ignored as a whole and said in plain words (``problems``); a single
bad value is left out and said. Nothing here raises: Rotary always starts.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

from app.text.i18n import tr
from app.settings.model import (SERVER_FIELDS, Settings, SettingsData, check_value, setting_names,
                                with_values)

POLICY_ENV = "ROTARY_POLICY_FILE"         # tests and unusual installs name another file
KNOWN_KEYS = frozenset({"model_folders", "locked", "users_may_change_server", "thinking",
                        "settings"})


def policy_path() -> Path:
    """Where IT puts the file on this system (or the file ROTARY_POLICY_FILE names)."""
    named = os.environ.get(POLICY_ENV)
    if named:
        return Path(named)
    if sys.platform == "win32":
        return Path(os.environ.get("ProgramData", r"C:\ProgramData")) / "Rotary" / "policy.toml"
    if sys.platform == "darwin":
        return Path("/Library/Application Support/Rotary/policy.toml")
    return Path("/etc/rotary/policy.toml")


@dataclass(frozen=True)
class Policy:
    values: dict[str, object] = field(default_factory=dict)  # Settings field -> checked value
    locked: frozenset[str] = frozenset()
    model_folders: tuple[str, ...] = ()
    thinking: bool | None = None          # None: each conversation chooses
    path: Path | None = None              # the file read (None: there is none)
    problems: tuple[tuple[str, str], ...] = ()    # (plain sentence, details for IT)

    def is_locked(self, name: str) -> bool:
        return name in self.locked

    def first_settings(self, settings: Settings) -> Settings:
        """A new user's settings: every value the organisation gives."""
        return with_values(settings, self.values)

    def enforce(self, settings: Settings) -> Settings:
        """``settings`` with every locked value the organisation's: the one it gives, else
        the default (a locked setting is the same on every desk)."""
        defaults = Settings()
        locked = {name: self.values.get(name, getattr(defaults, name)) for name in self.locked}
        return with_values(settings, locked) if locked else settings

    @property
    def decides_model(self) -> bool:
        """The wizard need not ask which model: the organisation chose it for everyone."""
        return "model_path" in self.locked and bool(self.values.get("model_path")) or (
            "engine_location" in self.locked and self.values.get("engine_location") == "server")


NO_POLICY = Policy()


def load_policy(path: Path | None = None) -> Policy:
    """The organisation's policy, or none; never raises."""
    path = path or policy_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return NO_POLICY
    except (OSError, UnicodeDecodeError) as error:
        return _ignored(path, tr("Rotary could not open it."), repr(error))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return _ignored(path, tr("It is not written correctly."), str(error))
    return _read(path, data)


def _ignored(path: Path, why: str, details: str) -> Policy:
    sentence = tr("Your organisation's settings file ({path}) was ignored: {why} Ask your IT "
                  "department to check it.").format(path=path, why=why)
    return Policy(path=path, problems=((sentence, f"{path}: {details}"),))


def _read(path: Path, data: SettingsData) -> Policy:
    problems: list[tuple[str, str]] = []

    def bad(what: str, details: str) -> None:
        problems.append((tr("Your organisation's settings file ({path}) has a value Rotary "
                            "cannot use ({what}), so that value was left out.")
                         .format(path=path, what=what), f"{path}: {details}"))

    for key in sorted(set(data) - KNOWN_KEYS):
        bad(key, f"unknown key {key!r}; known: {', '.join(sorted(KNOWN_KEYS))}")
    values = _values(data.get("settings", {}), bad)
    locked = _locked(data, bad)
    _hold_temperature(values, locked)
    folders = data.get("model_folders", [])
    if not (isinstance(folders, list) and all(isinstance(f, str) for f in folders)):
        bad("model_folders", f"model_folders must be a list of folder names, not {folders!r}")
        folders = []
    thinking = data.get("thinking")
    if thinking is not None and not isinstance(thinking, bool):
        bad("thinking", f"thinking must be true or false, not {thinking!r}")
        thinking = None
    return Policy(values, frozenset(locked), tuple(folders), thinking, path, tuple(problems))


def _values(table: object, bad: Callable[[str, str], None]) -> dict[str, object]:
    if not isinstance(table, dict):
        bad("settings", "[settings] must be a table")
        return {}
    values = {}
    for name, value in table.items():
        if name not in setting_names() or name in ("first_run_done", "schema_version"):
            bad(name, f"no setting called {name!r}; settings: {', '.join(setting_names())}")
        elif not check_value(name, value):
            bad(name, f"{name} = {value!r} is not a valid value")
        else:
            values[name] = value
    return values


def _hold_temperature(values: dict[str, object], locked: set[str]) -> None:
    """A locked temperature means answers use it: the model's own sampling (which would
    replace it) is held off too, unless the file locks ``model_sampling`` itself."""
    if "temperature" in locked and "model_sampling" not in locked:
        locked.add("model_sampling")
        values["model_sampling"] = False


def _locked(data: SettingsData, bad: Callable[[str, str], None]) -> set[str]:
    listed = data.get("locked", [])
    if not (isinstance(listed, list) and all(isinstance(name, str) for name in listed)):
        bad("locked", f"locked must be a list of setting names, not {listed!r}")
        listed = []
    locked = set()
    for name in listed:
        if name in setting_names():
            locked.add(name)
        else:
            bad(name, f"locked names no setting {name!r}")
    server_free = data.get("users_may_change_server", True)
    if not isinstance(server_free, bool):
        bad("users_may_change_server", f"must be true or false, not {server_free!r}")
    elif not server_free:
        locked |= set(SERVER_FIELDS)
    return locked
