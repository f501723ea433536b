"""Settings: model file (checked when chosen), recipe and advanced values, language.

The dialog edits a copy; ``result_settings()`` gives the new typed Settings, and the
application decides what to reload. Colours follow the OS, so there is no theme choice.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFrame,
                               QFormLayout, QGroupBox, QLabel, QPlainTextEdit, QPushButton,
                               QScrollArea, QSpinBox, QVBoxLayout, QWidget)

from app.text.i18n import LANGUAGES, tr
from app.text.messages import say
from app.setup.model_check import ModelChooser
from app.bridge.engine_bridge import EngineBridge
from app.bridge.facade import (HardwareInfo, ModelCheck, Sampling, fitted_to_card, preset_names,
                               words_per_token)
from app.setup.server_settings import ServerSettingsBox
from app.setup.model_list import attach_model_list
from app.settings.policy import NO_POLICY, Policy
from app.setup.settings_locks import lock_settings
from app.widgets.notifications import NotificationService
from app.settings.model import (RANGES, SERVER_FIELDS, TEMPERATURE_RANGE, Range, Settings,
                          preset_label)


class AutoSpin(QSpinBox):
    """Its lowest value is "Automatic"; once the model check says what Automatic chose
    (``automatic``), the box says it and a step from it starts there, not at 0."""

    automatic: int | None = None

    def stepBy(self, steps: int) -> None:
        if self.value() == self.minimum() and self.automatic is not None and steps > 0:
            self.setValue(min(self.maximum(), self.automatic + steps - 1))
            return
        super().stepBy(steps)

    def show_automatic(self, chosen: int | None, total: int = 0) -> None:
        self.automatic = chosen
        self.setSpecialValueText(tr("Automatic") if chosen is None else
                                 tr("Automatic ({n} of {total})").format(n=chosen, total=total))


def _auto_spin(valid: Range, value: int | None, name: str, term: str) -> AutoSpin:
    """A number box whose lowest value reads "Automatic" (= let Rotary decide). Its range
    is the settings model's own, so a valid stored value is shown (and kept) unchanged."""
    spin = AutoSpin()
    spin.setRange(valid.low - 1, valid.high)
    spin.setSpecialValueText(tr("Automatic"))
    spin.setValue(valid.low - 1 if value is None else value)
    spin.setAccessibleName(name)
    spin.setToolTip(term)
    return spin


def _spin_value(spin: QSpinBox) -> int | None:
    return None if spin.value() == spin.minimum() else spin.value()


class SettingsDialog(QDialog):
    rerun_setup_requested = Signal()

    def __init__(self, settings: Settings, bridge: EngineBridge, notices: NotificationService,
                 parent: QWidget | None = None, has_gpu: bool | None = None,
                 model_has_experts: bool | None = None, model_sampling: Sampling | str | None = None,
                 policy: Policy = NO_POLICY) -> None:
        super().__init__(parent)
        self.policy = policy                    # the organisation's locked settings
        # engine SamplingDefaults of the loaded model, "server", or None: unknown
        self.model_sampling = model_sampling
        self.setWindowTitle(tr("Settings"))
        self.original = settings
        self.has_gpu, self.model_has_experts = has_gpu, model_has_experts
        self.chooser = ModelChooser(bridge, notices, settings.preset)
        self.chooser.advanced = settings.overrides()     # plans as the load will
        self.chooser.path_edit.setText(settings.model_path)
        if not settings.model_path:        # an empty box read as "no model at all"
            self.chooser.path_edit.setPlaceholderText(
                tr("Now: the small demo model. Choose a model file, or drop it here"))
        self.chooser.check_finished.connect(self._update_ok)
        self.chooser.check_started.connect(self._update_ok)
        self.chooser.check_finished.connect(self._on_model_checked)
        self.chooser.cleared.connect(self._update_ok)
        self.preset = QComboBox()
        self.preset.setAccessibleName(tr("Setting for this computer"))
        self.preset.setToolTip(tr("Memory recipe (preset): how the model is shared between "
                                  "the graphics card and system memory."))
        for name in preset_names():
            self.preset.addItem(preset_label(name), name)
        self.preset.setCurrentIndex(max(0, self.preset.findData(settings.preset)))
        self.language = self._language_box(settings.language)
        self.server_box = ServerSettingsBox(settings, bridge, notices)
        self.server_box.validity_changed.connect(self._update_ok)
        self.model_list = None if policy.is_locked("model_path") else attach_model_list(
            self.chooser, bridge, notices, policy.model_folders, self.chooser.advanced,
            show_names=False)      # the box is the setting: it keeps the path
        self._build(settings)
        self._update_gpu_layers()
        lock_settings(self.setting_widgets(), policy)
        self.server_box.server.toggled.connect(
            lambda _on: lock_settings(self.setting_widgets(), policy))

    def setting_widgets(self) -> dict[str, QWidget]:
        """Each setting's widget (the organisation's locks grey them out)."""
        return {"model_path": self.chooser, "preset": self.preset, "context_size": self.context,
                "gpu_expert_layers": self.gpu_layers, "threads": self.threads,
                "temperature": self.temperature, "model_sampling": self.use_model_sampling,
                "system_prompt": self.system_prompt, "language": self.language,
                **{name: self.server_box for name in SERVER_FIELDS}}

    def show_fitted(self, hardware: HardwareInfo | None) -> None:
        """Beside the setting: why it names a bigger card than the one found (app.bridge.engine_bridge)."""
        def update(*_args: object) -> None:
            said = "" if hardware is None else fitted_to_card(hardware, self.preset.currentData())
            self.preset_note.setText(said)
            self.preset_note.setVisible(bool(said))
        self.preset.currentIndexChanged.connect(update)
        update()

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
        if self.model_list is not None:
            form.addRow(self.model_list)        # its own line says what it lists
        form.addRow(tr("Model file:"), self.chooser)
        form.addRow(tr("Setting for this computer:"), self.preset)
        self.preset_note = QLabel()          # why the setting is for another card, if it is
        self.preset_note.setWordWrap(True)
        self.preset_note.hide()
        form.addRow("", self.preset_note)
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
        # Everything but OK/Cancel scrolls: with an office server the page is taller than a
        # 1280x720 or 1024x600 screen, and OK must never fall below its edge.
        page = QWidget()
        content = QVBoxLayout(page)
        content.addWidget(self.server_box)
        content.addLayout(form)
        content.addWidget(self._advanced(settings))
        content.addWidget(self.rerun)
        content.addStretch(1)
        self.page_scroll = QScrollArea()
        self.page_scroll.setWidgetResizable(True)
        self.page_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.page_scroll.setWidget(page)
        layout = QVBoxLayout(self)
        layout.addWidget(self.page_scroll, 1)
        layout.addWidget(self.buttons)
        self.server_box.bind_local_fields((self.chooser, self.preset, self.context,
                                           self.gpu_layers, self.threads))
        self.server_box.server.toggled.connect(lambda _on: QTimer.singleShot(0, self.fit_screen))

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.fit_screen()

    def fit_screen(self) -> None:
        """As tall as the page, at most the screen's free height (the page scrolls)."""
        parent = self.parentWidget()
        screen = self.screen() or (parent.screen() if parent is not None else None)
        layout, page_widget = self.layout(), self.page_scroll.widget()
        if screen is None or layout is None or page_widget is None:
            return
        room = screen.availableGeometry()
        frame = self.frameGeometry().height() - self.geometry().height()
        page = page_widget.sizeHint()
        chrome = layout.contentsMargins()
        wanted = (page.height() + self.buttons.sizeHint().height() + chrome.top()
                  + chrome.bottom() + layout.spacing() + 2)
        height = min(wanted, room.height() - max(frame, 30) - 8)
        width = min(max(self.width(), page.width() + self.page_scroll.verticalScrollBar()
                        .sizeHint().width() + chrome.left() + chrome.right()),
                    room.width() - 16)
        self.resize(width, height)
        top = max(room.top(), min(self.frameGeometry().top(),
                                  room.bottom() - height - max(frame, 30)))
        left = max(room.left(), min(self.frameGeometry().left(), room.right() - width))
        self.move(left, top)

    def _advanced(self, settings: Settings) -> QGroupBox:
        box = QGroupBox(tr("Advanced"))
        self.context = _auto_spin(
            RANGES["context_size"], settings.context_size, tr("Conversation memory"),
            tr("Context length, in tokens (pieces of words): how much of the conversation "
               "the model can see at once. More uses more memory."))
        self.gpu_layers = _auto_spin(
            RANGES["gpu_expert_layers"], settings.gpu_expert_layers,
            tr("Model parts on the graphics card"),
            tr("How many parts of the model stay on the graphics card. More is faster but "
               "needs more graphics memory; Automatic lets Rotary choose for this computer."))
        self.threads = _auto_spin(RANGES["threads"], settings.threads,
                                  tr("Processor cores to use"), tr("Processor threads."))
        self.temperature = QDoubleSpinBox()
        self.temperature.setRange(*TEMPERATURE_RANGE)
        self.temperature.setSingleStep(0.1)
        self.temperature.setValue(settings.temperature)
        self.temperature.setAccessibleName(tr("Answer variety"))
        self.temperature.setToolTip(tr("Temperature: lower gives steadier answers, higher "
                                       "gives more varied ones."))
        self._build_model_sampling(settings)
        self.system_prompt = QPlainTextEdit(settings.system_prompt)
        self.system_prompt.setAccessibleName(tr("Standing instructions"))
        self.system_prompt.setToolTip(tr("System prompt: text the model reads before every "
                                         "conversation."))
        self.system_prompt.setTabChangesFocus(True)
        self.system_prompt.setMaximumHeight(80)
        self.context.setSuffix(tr(" tokens"))
        self.context_words = QLabel()
        self.context_words.setWordWrap(True)
        self.context.valueChanged.connect(self._show_context_words)
        self._show_context_words()
        self.gpu_layers_note = QLabel()
        self.gpu_layers_note.setWordWrap(True)
        form = QFormLayout(box)
        form.addRow(tr("Conversation memory:"), self.context)
        form.addRow("", self.context_words)
        form.addRow(tr("Model parts on the graphics card:"), self.gpu_layers)
        form.addRow("", self.gpu_layers_note)
        form.addRow(tr("Processor cores to use:"), self.threads)
        form.addRow("", self.use_model_sampling)
        form.addRow("", self.sampling_note)
        form.addRow(tr("Answer variety:"), self.temperature)
        form.addRow(tr("Standing instructions:"), self.system_prompt)
        return box

    def _build_model_sampling(self, settings: Settings) -> None:
        """The model's own sampling (its file's, else its family's), or the variety below."""
        self.use_model_sampling = QCheckBox(tr("Use the model's own answer variety"))
        self.use_model_sampling.setChecked(settings.model_sampling)
        self.sampling_note = QLabel()
        self.sampling_note.setWordWrap(True)
        self._show_sampling(self.model_sampling)
        # Setting a variety is the override: the model's own defaults stop applying.
        self.temperature.valueChanged.connect(lambda _v: self.use_model_sampling.setChecked(False))

    def _show_sampling(self, sampling: Sampling | str | None) -> None:
        """Plain words for the model's own variety; the exact values in the tooltip."""
        if isinstance(sampling, str):            # "server"
            self.sampling_note.setText(tr("The office server applies its own for its model."))
            return
        self.sampling_note.setText(sampling_words(sampling) if sampling
                                   else tr("Known once a model is loaded."))
        self.sampling_note.setToolTip(say(sampling.said) if sampling else "")

    def _show_context_words(self, *_args: object) -> None:
        """The number in the box is tokens; say what it means in words."""
        tokens = _spin_value(self.context)
        self.context_words.setText(
            tr("Rotary chooses it for the model and this computer.") if tokens is None else
            tr("About {n} words of the conversation.").format(
                n=f"{round(tokens * words_per_token(), -1):,.0f}"))

    def _on_model_checked(self, result: ModelCheck | None) -> None:
        if result is not None:
            self.model_has_experts = bool(getattr(result.facts, "n_expert", 0))
        self.gpu_layers.show_automatic(*_parts_on_card(result))
        if result is not None and self.model_sampling != "server":
            self._show_sampling(getattr(result, "sampling", None))    # this model's, not the last
        self._update_gpu_layers()

    def _update_gpu_layers(self) -> None:
        """Greyed out, with the reason, when it cannot apply to this computer or model."""
        reason = ""
        if self.has_gpu is False:
            reason = tr("No graphics card was found, so models will run on the processor.")
        elif self.model_has_experts is False:
            reason = tr("This model is used whole on every word, so this does not apply.")
        self.gpu_layers.setEnabled(not reason)
        self.gpu_layers_note.setText(reason)
        self.gpu_layers_note.setVisible(bool(reason))

    def _update_ok(self, *_args: object) -> None:
        """OK needs a usable model file, or none at all (the demo model)."""
        changed = self.chooser.path_edit.text().strip() != self.original.model_path
        usable = not changed or not self.chooser.path_edit.text().strip() or (
            self.chooser.result is not None)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(
            usable and self.server_box.is_valid())

    def _rerun(self) -> None:
        self.reject()
        self.rerun_setup_requested.emit()

    def result_settings(self) -> Settings:
        chosen = self._chosen_settings()
        kept = {name: getattr(self.original, name) for name in self.policy.locked}
        return replace(chosen, **kept) if kept else chosen

    def _chosen_settings(self) -> Settings:
        return self.server_box.apply(replace(
            self.original, model_path=self.chooser.path_edit.text().strip(),
            preset=self.preset.currentData(), context_size=_spin_value(self.context),
            gpu_expert_layers=(_spin_value(self.gpu_layers) if self.gpu_layers.isEnabled()
                               else self.original.gpu_expert_layers),
            threads=_spin_value(self.threads),
            temperature=round(self.temperature.value(), 2),
            model_sampling=self.use_model_sampling.isChecked(),
            system_prompt=self.system_prompt.toPlainText(), language=self.language.currentData()))


def _parts_on_card(result: ModelCheck | None) -> tuple[int | None, int]:
    """(parts Automatic puts on the graphics card, parts there are) for the checked model's
    plan; (None, 0) where there is no plan or the model has no such parts."""
    recipe, facts = getattr(result, "recipe", None), getattr(result, "facts", None)
    total = len(getattr(facts, "moe_layers", ()) or ())
    if recipe is None or not total:
        return None, 0
    if recipe.n_gpu_layers == 0:
        return 0, total
    return total - len(set(recipe.cpu_expert_layers)), total


def sampling_words(sampling: Sampling) -> str:
    """"Recommended for this kind of model: answer variety 1.0." (top-p and top-k, which an
    office worker does not know, are in the tooltip)."""
    said = {"model file": tr("The model file's own answer variety: {temperature}."),
            "family": tr("Recommended for this kind of model: answer variety {temperature}."),
            }.get(sampling.source, tr("Rotary's usual answer variety: {temperature}."))
    return said.format(temperature=sampling.temperature)
