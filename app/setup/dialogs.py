"""The first-run wizard and the Settings dialog: opening each, and what their answers change.

``Dialogs`` belongs to app.application.RotaryApp; app.wiring connects each dialog as it
opens (``wizard_opened``, ``settings_opened``), before it shows.
"""

from __future__ import annotations

from typing import Callable, Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from engine.model.facts import ModelFacts
from app.bridge.engine_bridge import EngineBridge
from app.bridge.facade import HardwareInfo, Sampling
from app.settings.model import MODEL_FIELDS
from app.settings.paths import AppPaths
from app.settings.policy import Policy
from app.setup.settings_dialog import SettingsDialog
from app.setup.settings_holder import SettingsHolder
from app.setup.wizard import FirstRunWizard
from app.widgets.notifications import NotificationService


class ModelInUse(Protocol):
    """What the dialogs read of the app (app.application.RotaryApp): the computer as
    probed, the model in use, and how to load it again."""

    @property
    def hardware(self) -> HardwareInfo | None: ...
    @property
    def loaded_facts(self) -> ModelFacts | None: ...
    @property
    def loaded_sampling(self) -> Sampling | None: ...
    def reload_model(self) -> None: ...


class Dialogs(QObject):
    wizard_opened = Signal(object)       # FirstRunWizard, for app.wiring to connect
    settings_opened = Signal(object)     # SettingsDialog, the same

    def __init__(self, model: ModelInUse, on_server: Callable[[], bool],
                 settings: SettingsHolder, bridge: EngineBridge, notices: NotificationService,
                 paths: AppPaths, policy: Policy, window: QWidget) -> None:
        super().__init__()        # RotaryApp keeps it, not the window (which Qt may delete first)
        self.model, self.on_server = model, on_server
        self.settings, self.bridge, self.notices = settings, bridge, notices
        self.paths, self.policy, self.window = paths, policy, window
        self.wizard: FirstRunWizard | None = None

    def open_wizard(self) -> FirstRunWizard:
        if self.wizard is not None:
            self.wizard.close()
        self.wizard = FirstRunWizard(self.bridge, self.notices, self.paths, self.window,
                                     policy=self.policy)
        self.wizard_opened.emit(self.wizard)
        self.wizard.open()
        return self.wizard

    def wizard_finished(self, code: int) -> None:
        """Cancelled or not, do not open it by itself again: Settings can re-run it."""
        self.settings.update(first_run_done=True)

    def wizard_completed(self, model_path: str, preset: str) -> None:
        self.settings.update(model_path=model_path, preset=preset, first_run_done=True)

    def open_settings(self) -> SettingsDialog:
        hardware, facts = self.model.hardware, self.model.loaded_facts
        dialog = SettingsDialog(
            self.settings.current, self.bridge, self.notices, self.window,
            has_gpu=None if hardware is None else bool(hardware.gpus),
            model_has_experts=None if facts is None else bool(facts.n_expert),
            model_sampling="server" if self.on_server() else self.model.loaded_sampling,
            policy=self.policy)
        dialog.show_fitted(hardware)
        self.settings_opened.emit(dialog)
        dialog.open()
        return dialog

    def apply_dialog(self, dialog: SettingsDialog) -> None:
        before = self.settings.current
        self.settings.replace_all(dialog.result_settings())
        # A new key for the same server changes no setting, but the connection needs it.
        unchanged = all(getattr(before, name) == getattr(self.settings.current, name)
                        for name in MODEL_FIELDS)
        if dialog.server_box.key_changed() and unchanged:
            self.model.reload_model()
