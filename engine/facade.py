"""The engine as the app sees it: one typed module of plain imports.

app/bridge/engine_bridge.py reaches the engine's functions through this module only, so linters, the type
checker and the import contract (pyproject.toml) see every edge; nothing is looked up by name.
The frozen data types (engine.api, engine.errors, engine.recipe, engine.messages) the app may
import directly. Some parts are imported inside the function that needs them, because the
app's start does not need them: the office-server client (httpx), the demo model's writer
(gguf, numpy), the passage index (sqlite3) and the self-test's checks of the C helpers and
text recognition.
"""

from __future__ import annotations

import os
import pathlib
from typing import TYPE_CHECKING

from engine.api import EngineLike, Listener
from engine.native.backends import child_main as list_devices_child
from engine.documents.presets import SUMMARY_PRESETS, SummaryPreset
from engine.plan.advanced import ADVANCED_RANGES, Range
from engine.plan.hardware import (GpuInfo, HardwareInfo, VramReading, probe, process_ram_bytes,
                                  read_vram)
from engine.plan.presets import AUTO, SAFEST, Preset, preset_names, preset_words, resolve_preset
from engine.plan.speed import WORDS_PER_TOKEN
from engine.model.finder import FoundModel, find_models_here
from engine.runtime.found_models import ModelChoice, plan_found
from engine.runtime.planning import PlannedModel, plan_model
from engine.runtime.service import EngineService

if TYPE_CHECKING:
    from engine.remote.client import ModelEntry
    from engine.remote.config import ServerConfig

__all__ = ["ADVANCED_RANGES", "AUTO", "SAFEST", "SUMMARY_PRESETS", "WORDS_PER_TOKEN", "GpuInfo",
           "FoundModel", "ModelChoice", "find_models_here", "plan_found",
           "HardwareInfo", "PlannedModel", "Preset", "Range", "SummaryPreset",
           "VramReading", "check_native_helpers", "check_text_recognition", "ensure_demo_model", "forget_unused_documents",
           "list_devices_child", "list_server_models", "probe_backend_child", "calibrate_cpu_child", "make_engine", "make_remote_engine", "plan_model",
           "preset_names", "preset_words", "probe", "process_ram_bytes", "read_vram",
           "resolve_preset", "sampling_for", "server_config"]


def make_engine(listener: Listener) -> EngineLike:
    """The engine thread for models on this computer (engine/runtime/service.py)."""
    return EngineService(listener)


def ensure_demo_model(directory: str | os.PathLike) -> pathlib.Path:
    from engine.demo.demo_model import ensure_demo_model as write  # noqa: PLC0415 - see above

    return write(directory)


def server_config(url: str, **options: object) -> ServerConfig:
    """An office server's address and options, checked (EngineError for a bad address)."""
    from engine.remote.config import ServerConfig  # noqa: PLC0415 - see above

    return ServerConfig(url, **options)  # type: ignore[arg-type]


def make_remote_engine(listener: Listener, config: ServerConfig) -> EngineLike:
    from engine.remote.service import RemoteEngineService  # noqa: PLC0415 - see above

    return RemoteEngineService(listener, config)


def list_server_models(config: ServerConfig) -> list[ModelEntry]:
    from engine.remote.service import list_models  # noqa: PLC0415 - see above

    return list_models(config)


def sampling_for(path: str | os.PathLike) -> object | None:
    """The answer variety a model file asks for (its own, else its family's), read from its
    header without loading it; None where the header cannot be read."""
    from engine.errors import EngineError  # noqa: PLC0415 - see above
    from engine.model.gguf_header import read_header  # noqa: PLC0415 - see above
    from engine.runtime.generation.sampling import model_sampling  # noqa: PLC0415 - see above

    try:
        metadata = read_header(path).metadata
    except (EngineError, OSError):
        return None
    return model_sampling({key: str(value) for key, value in metadata.items()
                           if isinstance(value, (str, int, float)) and not isinstance(value, bool)})


def forget_unused_documents(index_path: str, keep: set[str], moved_from: str | None = None) -> int:
    """Drop from the passage index the documents no conversation holds any more; first move in
    the passages ``moved_from`` (another SQLite file) still holds."""
    from engine.documents.index import PassageIndex  # noqa: PLC0415 - sqlite3: see above

    with PassageIndex(index_path) as passages:
        if moved_from is not None:
            passages.take_over(moved_from)
        return passages.keep_only(keep)


def probe_backend_child(argv: list[str]) -> int:
    """The frozen app run as engine/runtime/devices/backend_probe.py's child: measure one variant."""
    from engine.runtime.backend_probe_child import child_main  # noqa: PLC0415 - the llama runtime

    return child_main(argv)


def calibrate_cpu_child(argv: list[str]) -> int:
    """The frozen app run as engine/runtime/devices/cpu_calibration.py's driver or child."""
    from engine.runtime.devices.cpu_calibration import main  # noqa: PLC0415 - the llama runtime

    return main(argv)


def check_native_helpers() -> tuple[bool, str]:
    """The self-test's check of the engine's C helpers (engine/native)."""
    from engine.runtime.devices.native_check import self_test  # noqa: PLC0415 - see above

    return self_test()


def check_text_recognition() -> tuple[bool, str]:
    """The self-test's check of text recognition (engine/documents/ocr.py)."""
    from engine.documents.ocr import self_test  # noqa: PLC0415 - see above

    return self_test()
