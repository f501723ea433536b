"""The one typed settings model, stored as JSON with a schema version and migrations.

Like napari's settings: a dataclass is the only way code reads settings (no string
keys scattered around), ``MIGRATIONS`` upgrade older files step by step, and values
that fail validation are replaced by defaults and reported to the user.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable

from app.bridge import preset_names
from app.i18n import LANGUAGES, tr

SCHEMA_VERSION = 3
ENGINE_LOCATIONS = ("local", "server")


@dataclass(frozen=True)
class Range:
    """Valid values of one advanced number; the settings model and the dialog share it."""
    low: int
    high: int

    def __contains__(self, value: object) -> bool:
        return type(value) is int and self.low <= value <= self.high


# One set of ranges: a value stored here is always one the dialog can show unchanged.
RANGES = {"context_size": Range(256, 1_048_576), "gpu_expert_layers": Range(0, 1000),
          "threads": Range(1, 512)}
TEMPERATURE_RANGE = (0.0, 2.0)


@dataclass(frozen=True)
class Settings:
    schema_version: int = SCHEMA_VERSION
    model_path: str = ""                  # "" = use the built-in demo model
    preset: str = "auto"
    context_size: int | None = None       # None = let the planner decide
    gpu_expert_layers: int | None = None
    threads: int | None = None
    temperature: float = 0.7
    system_prompt: str = ""
    language: str = "system"              # "system" or a code in i18n.LANGUAGES
    first_run_done: bool = False
    # Where the model runs: "local" (this computer, the default) or "server" (an office
    # server, app/server_settings.py). The server's access key lives in the OS keyring.
    engine_location: str = "local"
    server_url: str = ""
    server_model: str = ""
    server_verify_tls: bool = True
    server_ca_bundle: str = ""

    def overrides(self) -> dict[str, int]:
        """The advanced values the user set, in the planner's vocabulary."""
        chosen = {"n_ctx": self.context_size, "gpu_expert_layers": self.gpu_expert_layers,
                  "n_threads": self.threads}
        return {key: value for key, value in chosen.items() if value is not None}


@dataclass(frozen=True)
class LoadedSettings:
    settings: Settings
    problems: tuple[str, ...] = ()        # plain sentences for the notification


# ---- migrations: each takes schema N's dict and returns schema N+1's ---------------

def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """v1 (the prototype) used short keys and one nested "advanced" block."""
    advanced = data.pop("advanced", None) or {}
    renames = {"model": "model_path", "temp": "temperature", "lang": "language"}
    for old, new in renames.items():
        if old in data:
            data[new] = data.pop(old)
    data["context_size"] = advanced.get("ctx")
    data["gpu_expert_layers"] = advanced.get("gpu_layers")
    data["threads"] = advanced.get("threads")
    return data


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """v3 adds the office server; every older file keeps running on this computer."""
    data.setdefault("engine_location", "local")
    return data


MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2, 2: _v2_to_v3}


def migrate(data: dict[str, Any]) -> dict[str, Any]:
    version = int(data.get("schema_version", 1))
    while version < SCHEMA_VERSION:
        data = MIGRATIONS[version](dict(data))
        version += 1
        data["schema_version"] = version
    return data


# ---- validation ---------------------------------------------------------------------

def _optional_in(valid: Range) -> Callable[[Any], bool]:
    return lambda v: v is None or v in valid


_VALIDATORS: dict[str, Callable[[Any], bool]] = {
    "model_path": lambda v: isinstance(v, str),
    "preset": lambda v: v in preset_names(),
    "context_size": _optional_in(RANGES["context_size"]),
    "gpu_expert_layers": _optional_in(RANGES["gpu_expert_layers"]),
    "threads": _optional_in(RANGES["threads"]),
    "temperature": lambda v: (type(v) in (int, float)
                              and TEMPERATURE_RANGE[0] <= v <= TEMPERATURE_RANGE[1]),
    "system_prompt": lambda v: isinstance(v, str),
    "language": lambda v: v == "system" or v in LANGUAGES,
    "first_run_done": lambda v: isinstance(v, bool),
    "engine_location": lambda v: v in ENGINE_LOCATIONS,
    "server_url": lambda v: isinstance(v, str) and (not v or v.startswith(("http://", "https://"))),
    "server_model": lambda v: isinstance(v, str),
    "server_verify_tls": lambda v: isinstance(v, bool),
    "server_ca_bundle": lambda v: isinstance(v, str),
}

def preset_label(preset: str) -> str:
    """Plain words for a preset name, used by the wizard and the settings dialog."""
    return {"auto": tr("Automatic (fit this computer)"),
            "8gb-laptop": tr("Laptop with an 8 GB graphics card"),
            "12gb-desktop": tr("Desktop with a 12 GB graphics card"),
            "16gb-desktop": tr("Desktop with a 16 GB graphics card"),
            "24gb-workstation": tr("Workstation with a 24 GB graphics card"),
            "cpu-only": tr("Processor only (no graphics card)")}.get(preset, preset)


def _field_label(name: str) -> str:
    labels = {
        "model_path": tr("model file"), "preset": tr("setting for this computer"),
        "context_size": tr("conversation memory"),
        "gpu_expert_layers": tr("parts of the model on the graphics card"),
        "threads": tr("processor cores used"), "temperature": tr("answer variety"),
        "system_prompt": tr("system prompt"), "language": tr("language"),
        "first_run_done": tr("first-time setup"),
        "engine_location": tr("where the model runs"), "server_url": tr("office server address"),
        "server_model": tr("office server model"),
        "server_verify_tls": tr("office server certificate check"),
        "server_ca_bundle": tr("office certificate file"),
    }
    return labels[name]


def _validated(data: dict[str, Any]) -> tuple[Settings, list[str]]:
    defaults, values, problems = Settings(), {}, []
    for name, is_valid in _VALIDATORS.items():
        if name not in data:
            continue
        if is_valid(data[name]):
            values[name] = data[name]
        else:
            problems.append(tr("The saved {what} was not valid, so the default was restored.")
                            .format(what=_field_label(name)))
    return replace(defaults, **values), problems


# ---- file access -------------------------------------------------------------------

class SettingsStore:
    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> LoadedSettings:
        if not self.path.exists():
            return LoadedSettings(Settings())
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
        backup = self.path.with_name(f"{self.path.name}.bad-{int(time.time())}")
        try:
            os.replace(self.path, backup)
        except OSError:
            backup = None
        message = tr("Your settings file could not be read, so the default settings "
                     "were restored.")
        if backup is not None:
            message += " " + tr("The old file was kept as {name}.").format(name=backup.name)
        self.save(Settings())
        return LoadedSettings(Settings(), (message,))

    def save(self, settings: Settings) -> None:
        """Write to a temporary file first so a crash never leaves half a file."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temp = self.path.with_suffix(".tmp")
        temp.write_text(json.dumps(asdict(settings), indent=2), encoding="utf-8")
        os.replace(temp, self.path)
