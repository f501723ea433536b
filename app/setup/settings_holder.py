"""The current settings, shared by the window, loader and dialogs, saved on change."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from app.settings.model import Settings, SettingsStore, with_values


class SettingsHolder(QObject):
    changed = Signal(object, object)      # old Settings, new Settings

    def __init__(self, store: SettingsStore, settings: Settings,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store, self.current = store, settings

    def update(self, **changes: object) -> Settings:
        return self.replace_all(with_values(self.current, changes))

    def replace_all(self, settings: Settings) -> Settings:
        settings = self.store.enforced(settings)     # the organisation's locked values stay
        old, self.current = self.current, settings
        self.store.save(settings)
        if old != settings:
            self.changed.emit(old, settings)
        return settings
