"""Settings: model file (checked when chosen), recipe and advanced values, language.

The dialog edits a copy; ``result_settings()`` gives the new typed Settings, and the
application decides what to reload. Colours follow the OS, so there is no theme choice.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox,
                               QFormLayout, QGroupBox, QLabel, QPlainTextEdit, QPushButton,
                               QSpinBox, QVBoxLayout)

from app.i18n import LANGUAGES, tr
from app.model_check import ModelChooser
from app.server_settings import ServerSettingsBox
from app.settings import PRESETS, Settings
from app.qt_compat import emit


def preset_label(preset: str) -> str:
    return {"auto": tr("Automatic (fit this computer)"),
            "8gb-laptop": tr("Laptop with an 8 GB graphics card"),
            "12gb-desktop": tr("Desktop with a 12 GB graphics card"),
            "16gb-desktop": tr("Desktop with a 16 GB graphics card"),
            "24gb-workstation": tr("Workstation with a 24 GB graphics card"),
            "cpu-only": tr("Processor only (slow, safest)")}.get(preset, preset)


def _auto_spin(minimum: int, maximum: int, value: int | None, name: str) -> QSpinBox:
    """A number box whose lowest value reads "Automatic" (= let Rotary decide)."""
    spin = QSpinBox()
    spin.setRange(minimum - 1, maximum)
    spin.setSpecialValueText(tr("Automatic"))
    spin.setValue(minimum - 1 if value is None else value)
    spin.setAccessibleName(name)
    return spin


def _spin_value(spin: QSpinBox) -> int | None:
    return None if spin.value() == spin.minimum() else spin.value()


class SettingsDialog(QDialog):
    rerun_setup_requested = Signal()

    def __init__(self, settings: Settings, bridge, notices, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Settings"))
        self.original = settings
        self.chooser = ModelChooser(bridge, notices, settings.preset)
        self.chooser.path_edit.setText(settings.model_path)
        self.chooser.check_finished.connect(self._update_ok)
        self.chooser.check_started.connect(self._update_ok)
        self.preset = QComboBox()
        self.preset.setAccessibleName(tr("Memory recipe"))
        for name in PRESETS:
            self.preset.addItem(preset_label(name), name)
        self.preset.setCurrentIndex(PRESETS.index(settings.preset))
        self.language = self._language_box(settings.language)
        self.server_box = ServerSettingsBox(settings, bridge, notices)
        self.server_box.validity_changed.connect(self._update_ok)
        self._build(settings)

    def _language_box(self, current: str) -> QComboBox:
        box = QComboBox()
        box.setAccessibleName(tr("Language"))
        box.addItem(tr("Same as the system"), "system")
        for code, name in LANGUAGES.items():
            box.addItem(name, code)
        box.setCurrentIndex(max(0, box.findData(current)))
        return box

    def _build(self, settings: Settings) -> None:
        form = QFormLayout()
        form.addRow(tr("Model file:"), self.chooser)
        form.addRow(tr("Memory recipe:"), self.preset)
        form.addRow(tr("Language:"), self.language)
        form.addRow("", QLabel(tr("A new language is used after restarting Rotary.")))
        form.addRow("", QLabel(tr("Colours follow your system's light or dark setting.")))
        self.rerun = QPushButton(tr("Run first-time setup again"))
        self.rerun.setAccessibleName(tr("Run first-time setup again"))
        self.rerun.clicked.connect(self._rerun)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.server_box)
        layout.addLayout(form)
        layout.addWidget(self._advanced(settings))
        layout.addWidget(self.rerun)
        layout.addWidget(self.buttons)
        self.server_box.bind_local_fields((self.chooser, self.preset, self.context,
                                           self.gpu_layers, self.threads))

    def _advanced(self, settings: Settings) -> QGroupBox:
        box = QGroupBox(tr("Advanced"))
        self.context = _auto_spin(256, 262144, settings.context_size,
                                  tr("Context length in tokens"))
        self.gpu_layers = _auto_spin(0, 200, settings.gpu_expert_layers,
                                     tr("Expert layers on the graphics card"))
        self.threads = _auto_spin(1, 256, settings.threads, tr("Processor threads"))
        self.temperature = QDoubleSpinBox()
        self.temperature.setRange(0.0, 2.0)
        self.temperature.setSingleStep(0.1)
        self.temperature.setValue(settings.temperature)
        self.temperature.setAccessibleName(tr("Temperature (higher gives more varied answers)"))
        self.system_prompt = QPlainTextEdit(settings.system_prompt)
        self.system_prompt.setAccessibleName(tr("System prompt"))
        self.system_prompt.setTabChangesFocus(True)
        self.system_prompt.setMaximumHeight(80)
        form = QFormLayout(box)
        form.addRow(tr("Context length:"), self.context)
        form.addRow(tr("Expert layers on the graphics card:"), self.gpu_layers)
        form.addRow(tr("Processor threads:"), self.threads)
        form.addRow(tr("Temperature:"), self.temperature)
        form.addRow(tr("System prompt:"), self.system_prompt)
        return box

    def _update_ok(self, *args) -> None:
        """OK needs a usable model file, or none at all (the demo model)."""
        changed = self.chooser.path_edit.text().strip() != self.original.model_path
        usable = not changed or not self.chooser.path_edit.text().strip() or (
            self.chooser.result is not None)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(
            usable and self.server_box.is_valid())

    def _rerun(self) -> None:
        self.reject()
        emit(self.rerun_setup_requested)

    def result_settings(self) -> Settings:
        return self.server_box.apply(replace(
            self.original, model_path=self.chooser.path_edit.text().strip(),
            preset=self.preset.currentData(), context_size=_spin_value(self.context),
            gpu_expert_layers=_spin_value(self.gpu_layers), threads=_spin_value(self.threads),
            temperature=round(self.temperature.value(), 2),
            system_prompt=self.system_prompt.toPlainText(), language=self.language.currentData()))
