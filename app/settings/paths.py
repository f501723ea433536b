"""Where Rotary keeps its files.

``ROTARY_HOME`` (used by tests and portable installs) puts everything under one
folder; otherwise platformdirs gives the usual per-user locations.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "Rotary"


@dataclass(frozen=True)
class AppPaths:
    config_dir: Path
    data_dir: Path

    @property
    def settings_file(self) -> Path:
        return self.config_dir / "settings.json"

    @property
    def history_db(self) -> Path:
        return self.data_dir / "history.db"

    @property
    def loading_marker(self) -> Path:
        return self.data_dir / "loading.json"

    @property
    def measured_speeds(self) -> Path:
        return self.data_dir / "measured-speed.json"

    @property
    def demo_dir(self) -> Path:
        return self.data_dir / "demo-model"

    @property
    def states_dir(self) -> Path:
        """Each conversation's model state, kept by the engine between turns and restarts."""
        return self.data_dir / "states"

    @property
    def attached_texts(self) -> Path:
        """Messages too long to read, attached as documents instead (one folder each)."""
        return self.data_dir / "attached-texts"

    @property
    def log_file(self) -> Path:
        return self.data_dir / "logs" / "rotary.log"

    def ensure(self) -> "AppPaths":
        self.config_dir.mkdir(parents=True, exist_ok=True)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return self

    def instance_key(self) -> str:
        """Name for the single-instance socket: one per user and data folder."""
        digest = hashlib.sha1(str(self.data_dir).encode()).hexdigest()[:12]
        return f"rotary-{digest}"


def default_paths() -> AppPaths:
    home = os.environ.get("ROTARY_HOME")
    if home:
        root = Path(home)
        return AppPaths(root / "config", root / "data").ensure()
    return AppPaths(Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)),
                    Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))).ensure()
