"""The one typed settings model, stored as JSON with a schema version and migrations.

Like napari's settings: a dataclass is the only way code reads settings (no string
keys scattered around), ``MIGRATIONS`` upgrade older files step by step, and values
that fail validation are replaced by defaults and reported to the user.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Callable, Mapping, Protocol, TypeVar

from app.bridge.facade import ADVANCED_RANGES, Range, auto_preset, preset_names, preset_title
from app.text.i18n import LANGUAGES, tr
from app.text.korean import particles

SCHEMA_VERSION = 4
ENGINE_LOCATIONS = ("local", "server")


# Settings field -> its name in the planner's vocabulary (Settings.overrides).
ADVANCED_NAMES = {"context_size": "n_ctx", "gpu_expert_layers": "gpu_expert_layers",
                  "threads": "n_threads"}
# One set of ranges, the engine's (engine/plan/advanced.py): a value stored here is always one
# the dialog can show unchanged and the planner takes.
RANGES: dict[str, Range] = {name: ADVANCED_RANGES[planner] for name, planner in ADVANCED_NAMES.items()}
TEMPERATURE_RANGE = (0.0, 2.0)

T = TypeVar("T")
# A settings file's JSON object as read, before its values are checked (``_validated``).
SettingsData = dict[str, object]


def _setting(default: T, valid: Callable[[object], bool], label: Callable[[], str], *,
             model: bool = False) -> T:
    """One setting, said once: its default, what a stored value must be (else the default
    comes back), its name in plain words, and whether changing it reloads the model."""
    return field(default=default, metadata={"valid": valid, "label": label, "model": model})


def _optional_in(valid: Range) -> Callable[[object], bool]:
    return lambda v: v is None or v in valid


def _text(value: object) -> bool:
    return isinstance(value, str)


def _temperature(value: object) -> bool:
    return (type(value) is int or type(value) is float) and \
        TEMPERATURE_RANGE[0] <= value <= TEMPERATURE_RANGE[1]


@dataclass(frozen=True)
class Settings:
    schema_version: int = SCHEMA_VERSION
    # "" = use the built-in demo model
    model_path: str = _setting("", _text, lambda: tr("model file"), model=True)
    preset: str = _setting(auto_preset(), lambda v: _text(v) and v in preset_names(),
                           lambda: tr("setting for this computer"), model=True)
    # None = let the planner decide
    context_size: int | None = _setting(None, _optional_in(RANGES["context_size"]),
                                        lambda: tr("conversation memory"), model=True)
    gpu_expert_layers: int | None = _setting(
        None, _optional_in(RANGES["gpu_expert_layers"]),
        lambda: tr("parts of the model on the graphics card"), model=True)
    threads: int | None = _setting(None, _optional_in(RANGES["threads"]),
                                   lambda: tr("processor cores used"), model=True)
    temperature: float = _setting(0.7, _temperature, lambda: tr("answer variety"))
    # True: the model's own sampling defaults (its file's, else its family's; the engine's
    # ModelLoaded.sampling says which); False: ``temperature`` above overrides them.
    model_sampling: bool = _setting(True, lambda v: isinstance(v, bool),
                                    lambda: tr("the model's own answer variety"))
    system_prompt: str = _setting("", _text, lambda: tr("system prompt"))
    # "system" or a code in i18n.LANGUAGES
    language: str = _setting("system", lambda v: _text(v) and (v == "system" or v in LANGUAGES),
                             lambda: tr("language"))
    first_run_done: bool = _setting(False, lambda v: isinstance(v, bool),
                                    lambda: tr("first-time setup"))
    # Where the model runs: "local" (this computer, the default) or "server" (an office
    # server, app/setup/server_settings.py). The server's access key lives in the OS keyring.
    engine_location: str = _setting("local", lambda v: _text(v) and v in ENGINE_LOCATIONS,
                                    lambda: tr("where the model runs"), model=True)
    server_url: str = _setting(
        "", lambda v: isinstance(v, str) and (not v or v.startswith(("http://", "https://"))),
        lambda: tr("office server address"), model=True)
    server_model: str = _setting("", _text, lambda: tr("office server model"), model=True)
    server_verify_tls: bool = _setting(True, lambda v: isinstance(v, bool),
                                       lambda: tr("office server certificate check"), model=True)
    server_ca_bundle: str = _setting("", _text, lambda: tr("office certificate file"),
                                     model=True)

    def overrides(self) -> dict[str, int]:
        """The advanced values the user set, in the planner's vocabulary."""
        chosen = {planner: getattr(self, name) for name, planner in ADVANCED_NAMES.items()}
        return {key: value for key, value in chosen.items() if value is not None}


_FIELDS = {f.name: f for f in fields(Settings) if "valid" in f.metadata}
# What the organisation's "users may not change the server" locks (app/settings/policy.py).
SERVER_FIELDS = ("engine_location", "server_url", "server_model", "server_verify_tls",
                 "server_ca_bundle")


def setting_names() -> tuple[str, ...]:
    return tuple(_FIELDS)


def check_value(name: str, value: object) -> bool:
    """The rule a stored value meets (the organisation's file is checked by the same)."""
    return bool(_FIELDS[name].metadata["valid"](value))
# What a change of reloads the model (app.application): where and how it runs.
MODEL_FIELDS = tuple(name for name, f in _FIELDS.items() if f.metadata["model"])


@dataclass(frozen=True)
class LoadedSettings:
    settings: Settings
    problems: tuple[str, ...] = ()        # plain sentences for the notification


# ---- migrations: each takes schema N's dict and returns schema N+1's ---------------

def _v1_to_v2(data: SettingsData) -> SettingsData:
    """v1 (the prototype) used short keys and one nested "advanced" block."""
    advanced = data.pop("advanced", None) or {}
    if not isinstance(advanced, dict):
        raise TypeError(f"the v1 \"advanced\" block is not an object: {advanced!r}")
    renames = {"model": "model_path", "temp": "temperature", "lang": "language"}
    for old, new in renames.items():
        if old in data:
            data[new] = data.pop(old)
    data["context_size"] = advanced.get("ctx")
    data["gpu_expert_layers"] = advanced.get("gpu_layers")
    data["threads"] = advanced.get("threads")
    return data


def _v2_to_v3(data: SettingsData) -> SettingsData:
    """v3 adds the office server; every older file keeps running on this computer."""
    data.setdefault("engine_location", "local")
    return data


def _v3_to_v4(data: SettingsData) -> SettingsData:
    """v4 follows the model's own sampling defaults, unless the user had set a variety."""
    data.setdefault("model_sampling", data.get("temperature", 0.7) == 0.7)
    return data


MIGRATIONS: dict[int, Callable[[SettingsData], SettingsData]] = {
    1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4}


def migrate(data: SettingsData) -> SettingsData:
    version = data.get("schema_version", 1)
    if not isinstance(version, (int, float, str)):       # int() takes these (else TypeError)
        raise TypeError(f"schema_version is not a number: {version!r}")
    version = int(version)
    while version < SCHEMA_VERSION:
        data = MIGRATIONS[version](dict(data))
        version += 1
        data["schema_version"] = version
    return data


# ---- validation ---------------------------------------------------------------------

def preset_label(preset: str) -> str:
    """Plain words for a preset name (the engine's registry says them), for Settings."""
    return preset_title(preset)


def _field_label(name: str) -> str:
    return _FIELDS[name].metadata["label"]()


def _validated(data: SettingsData) -> tuple[Settings, list[str]]:
    defaults, values, problems = Settings(), {}, []
    for name, setting in _FIELDS.items():
        if name not in data:
            continue
        if setting.metadata["valid"](data[name]):
            values[name] = data[name]
        else:
            problems.append(tr("The saved {what} was not valid, so the default was restored.")
                            .format(what=_field_label(name)))
    return with_values(defaults, values), problems


def with_values(settings: Settings, values: Mapping[str, object]) -> Settings:
    """``settings`` with these fields changed: the one place where values named by strings (a
    file's, the organisation's, SettingsHolder.update's) become a Settings. Each met its
    field's rule (check_value) or came typed from code; mypy cannot follow a name to its field."""
    return replace(settings, **values)  # type: ignore[arg-type]


# ---- file access -------------------------------------------------------------------

class SettingsRules(Protocol):
    """What the organisation's file (app/settings/policy.py, which imports this module) decides."""

    def first_settings(self, settings: Settings) -> Settings: ...

    def enforce(self, settings: Settings) -> Settings: ...


class SettingsStore:
    """The user's settings file; ``policy`` gives a new user's values and the values the
    organisation locked, which every loaded or saved Settings carries."""

    def __init__(self, path: Path, policy: SettingsRules | None = None) -> None:
        self.path = path
        self.policy = policy

    def enforced(self, settings: Settings) -> Settings:
        return self.policy.enforce(settings) if self.policy is not None else settings

    def load(self) -> LoadedSettings:
        loaded = self._load()
        return replace(loaded, settings=self.enforced(loaded.settings))

    def _load(self) -> LoadedSettings:
        if not self.path.exists():
            return LoadedSettings(self.policy.first_settings(Settings())
                                  if self.policy is not None else Settings())
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise ValueError("settings file is not a JSON object")
            stored_version = data.get("schema_version")
            data = migrate(data)
        except (ValueError, KeyError, TypeError, OSError) as exc:
            return self._start_over(exc)
        settings, problems = _validated(data)
        if problems or stored_version != SCHEMA_VERSION:
            self.save(settings)
        return LoadedSettings(settings, tuple(problems))

    def _start_over(self, exc: Exception) -> LoadedSettings:
        kept = self.path.with_name(f"{self.path.name}.bad-{int(time.time())}")
        backup: Path | None = kept
        try:
            os.replace(self.path, kept)
        except OSError:
            backup = None
        message = tr("Your settings file could not be read, so the default settings "
                     "were restored.")
        if backup is not None:
            message += " " + particles(tr("The old file was kept as {name}.").format(
                name=backup.name))
        self.save(Settings())
        return LoadedSettings(Settings(), (message,))

    def save(self, settings: Settings) -> None:
        """Write to a temporary file first so a crash never leaves half a file."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temp = self.path.with_suffix(".tmp")
        temp.write_text(json.dumps(asdict(settings), indent=2), encoding="utf-8")
        os.replace(temp, self.path)
