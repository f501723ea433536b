"""Builds Rotary from its parts and runs its start-up checks.

``RotaryApp`` is created inside the qasync loop by ``app.__main__`` and by the tests
(with a fake engine backend and a temporary ROTARY_HOME).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from engine.api import ServerModelLoaded, StopReason
from engine.errors import EngineError
from app.bridge import EngineBackend, EngineBridge
from app.chat_controller import ChatController
from app.chat_text import conversation_to_markdown
from app.history import HistoryStore
from app.i18n import install_translator, tr, uninstall_translators
from app.loading import ModelLoader
from app.main_window import MainWindow
from app.measured_speed import MeasuredSpeeds
from app.notifications import (NotificationService, asyncio_exception_handler,
                               install_exception_hooks)
from app.paths import AppPaths
from app.policy import load_policy
from app.settings import MODEL_FIELDS, Settings, SettingsStore
from app.settings_dialog import SettingsDialog
from app.settings_holder import SettingsHolder
from app.theme import follow_os_theme
from app.document_view import install_documents, interface_language
from app.wiring import connect_chat, connect_documents, connect_engine, connect_help
from app.wizard import FirstRunWizard


class RotaryApp(QObject):
    def __init__(self, qapp: QApplication, loop: asyncio.AbstractEventLoop,
                 backend: EngineBackend, paths: AppPaths) -> None:
        super().__init__()
        self.qapp, self.loop, self.paths = qapp, loop, paths
        self.notices = NotificationService()
        self._uninstall_hooks = install_exception_hooks(self.notices)
        loop.set_exception_handler(asyncio_exception_handler(self.notices))
        # The organisation's settings file (app/policy.py): a new user's values and locked ones.
        self.policy = load_policy()
        store = SettingsStore(paths.settings_file, self.policy)
        loaded = store.load()
        self.settings = SettingsHolder(store, loaded.settings)
        self.translators = install_translator(qapp, loaded.settings.language)
        follow_os_theme(qapp)
        self.history = HistoryStore(paths.history_db)
        self.bridge = EngineBridge(backend, loop)
        self.chat = ChatController(self.history, self.bridge, self.notices,
                                   lambda: interface_language(self.settings.current.language))
        self.window = MainWindow()
        self.loader = ModelLoader(self.bridge, self.notices, paths, self.settings)
        self.wizard: FirstRunWizard | None = None
        self.hardware = None              # engine HardwareInfo once probed
        self.loaded_facts = None          # ModelFacts of the model in use
        self.loaded_recipe = None         # and its Recipe
        self.speeds = MeasuredSpeeds(paths.measured_speeds)
        self.bridge.measured_speed = self.speeds.range_for
        self._wire()
        self.documents = install_documents(self)       # app/document_view.py
        connect_documents(self.chat, self.documents)
        connect_engine(self)                           # every bridge -> GUI connection
        connect_help(self)                             # Help (F1)
        self._set_model_ready(False, tr("No model loaded"))
        self._apply_chat_settings(self.settings.current)
        self._report_startup_problems(loaded.problems)
        self._apply_policy()

    # ---- wiring --------------------------------------------------------------------------

    def _wire(self) -> None:
        connect_chat(self.chat, self.window)
        self.notices.posted.connect(self.window.notice_bar.show_notice)
        self.notices.withdrawn.connect(self.window.notice_bar.withdraw)
        self._wire_gauge()
        self.chat.conversations_changed.connect(self.refresh_conversations)
        self.window.conversations.search_changed.connect(lambda _text:
                                                         self.refresh_conversations())
        self.loader.ready.connect(self._on_model_ready)
        self.loader.started.connect(self._on_model_loading)
        self.loader.failed.connect(lambda: self._set_model_ready(False, tr("No model loaded")))
        self.loader.choose_model_requested.connect(self.open_wizard)
        self.settings.changed.connect(self._on_settings_changed)
        self._wire_actions()

    def _wire_gauge(self) -> None:
        """The gauge shows the current model and conversation only: reset on a switch."""
        gauge = self.window.gauge
        self.loader.started.connect(gauge.reset_model)
        self.chat.conversation_opened.connect(gauge.reset_conversation)
        # "Memory left": what the open conversation takes as its next turn sends it.
        self.chat.context_changed.connect(gauge.on_conversation_context)
        # An answer shown again when its conversation is reopened: its numbers count again.
        self.chat.answer_started.connect(lambda _index: gauge.follow(self.chat.current))

    def remember_model(self, event) -> None:
        """engine.api.ModelLoaded, or ServerModelLoaded (no file, no recipe here)."""
        self.loaded_facts = getattr(event, "facts", None)       # None: on the office server
        self.loaded_recipe = getattr(event, "recipe", None)
        self.chat.model_facts = self.loaded_facts
        self.chat.on_server = isinstance(event, ServerModelLoaded)
        self.loaded_sampling = getattr(event, "sampling", None)   # engine SamplingDefaults
        self.loaded_format = getattr(event, "chat_format", None)  # engine ChatFormat
        self._show_think()

    def _show_think(self) -> None:
        """Chat → Think before answering: the open conversation's choice, else the model's
        default; enabled only where the template takes the choice (Qwen3.x, gpt-oss, …)."""
        fmt = getattr(self, "loaded_format", None)
        action = self.window.actions["think"]
        chosen = self.chat.think_for(self.chat.conversation_id)
        action.blockSignals(True)
        action.setEnabled(fmt is not None and fmt.can_switch and self.policy.thinking is None)
        action.setChecked(bool(fmt is not None and fmt.can_think and (
            fmt.thinks_by_default if chosen is None else chosen)))
        action.blockSignals(False)

    def _think_chosen(self, on: bool) -> None:
        self.chat.set_think(on)

    def remember_speed(self, event) -> None:
        """Each whole answer's writing speed on this computer, for the model check."""
        stats = event.stats
        if self.loaded_recipe is None or self.chat.on_server or \
                stats.stop_reason not in (StopReason.EOS, StopReason.LENGTH):
            return
        self.speeds.add(self.loaded_facts.path, self.loaded_recipe.preset,
                        stats.generated_tokens, stats.decode_tps)

    def _wire_actions(self) -> None:
        actions, window = self.window.actions, self.window
        actions["new_chat"].triggered.connect(self.chat.new_chat)
        actions["export"].triggered.connect(self.ask_export)
        actions["settings"].triggered.connect(self.open_settings)
        actions["wizard"].triggered.connect(self.open_wizard)
        actions["quit"].triggered.connect(window.close)
        actions["stop"].triggered.connect(self.chat.stop)
        actions["regenerate"].triggered.connect(self.chat.regenerate)
        actions["edit_last"].triggered.connect(self.edit_last_message)
        actions["copy_last"].triggered.connect(self.copy_last_answer)
        actions["think"].toggled.connect(self._think_chosen)
        self.chat.conversation_opened.connect(lambda _messages: self._show_think())
        actions["focus_input"].triggered.connect(window.chat.input.setFocus)
        actions["focus_search"].triggered.connect(window.conversations.search.setFocus)
        actions["focus_list"].triggered.connect(window.conversations.items.setFocus)
        actions["focus_gauge"].triggered.connect(
            lambda: window.gauge.first_section().setFocus(Qt.FocusReason.ShortcutFocusReason))

    # ---- start and stop -------------------------------------------------------------------

    def start(self, autoload: bool = True, wizard: bool = True) -> None:
        self.window.show()
        self.refresh_conversations()
        self._open_latest()
        self.bridge.start_vram_polling()
        asyncio.ensure_future(self._probe_for_gauge())
        crashed = self.loader.check_previous_crash()
        if autoload and not crashed:
            self.loader.start()
        if wizard and not self.settings.current.first_run_done:
            self.open_wizard()

    def _open_latest(self) -> None:
        """After a restart the latest conversation is open and selected (an empty window
        with nothing selected looked as if the conversations were lost)."""
        latest = self.history.list_conversations()
        if latest and self.chat.conversation_id is None:
            self.chat.open_conversation(latest[0].id)

    async def _probe_for_gauge(self) -> None:
        try:
            hardware = await self.bridge.probe_hardware()
        except EngineError:
            return      # the gauge keeps saying "unknown"; the wizard reports details
        self.hardware = hardware
        self.window.gauge.set_has_gpu(bool(hardware.gpus))

    def close(self) -> None:
        self.bridge.shutdown()
        self.history.close()
        self._uninstall_hooks()
        uninstall_translators(self.qapp, self.translators)

    # ---- reacting -------------------------------------------------------------------------

    def _report_startup_problems(self, problems: tuple[str, ...]) -> None:
        for problem in problems:
            self.notices.warning(problem)
        if self.history.recovery_note:
            self.notices.warning(
                tr("Your saved conversations could not be read, so Rotary started a new, "
                   "empty history. The damaged file was kept next to the new one."),
                self.history.recovery_note)

    def _apply_policy(self) -> None:
        """Say what was wrong with the organisation's file (it is then ignored, in part or as
        a whole), and let it decide thinking before answering for everyone."""
        for sentence, details in self.policy.problems:
            self.notices.warning(sentence, details)
        self.chat.think_policy = self.policy.thinking

    def _on_model_loading(self, name: str, is_demo: bool) -> None:
        self._set_model_ready(False, tr("Loading: {name}").format(name=name))

    def _on_model_ready(self, name: str, is_demo: bool) -> None:
        self.chat.model_name = name
        self._set_model_ready(True, tr("Model: {name}").format(name=name))

    def _set_model_ready(self, ready: bool, text: str) -> None:
        self.chat.model_ready = ready
        self.window.chat.set_ready(ready)
        self.window.set_model_text(text)

    def _apply_chat_settings(self, settings: Settings) -> None:
        self.chat.temperature = settings.temperature
        self.chat.model_sampling = settings.model_sampling
        self.chat.system_prompt = settings.system_prompt

    def _on_settings_changed(self, old: Settings, new: Settings) -> None:
        self._apply_chat_settings(new)
        if any(getattr(old, name) != getattr(new, name) for name in MODEL_FIELDS):
            self.reload_model()

    def reload_model(self) -> None:
        self.chat.stop_everything()         # kept, labelled "stopped when the model changed"
        # Not ready from now: the demo is written before its load starts, and a document
        # attached in between met an engine with no model ("No model is loaded yet").
        self._set_model_ready(False, tr("No model loaded"))
        self.bridge.unload()
        self.loader.start()

    def refresh_conversations(self) -> None:
        search = self.window.conversations.search.text()
        self.window.conversations.show_conversations(self.history.list_conversations(search),
                                                     self.chat.conversation_id)

    # ---- dialogs and menu actions ---------------------------------------------------------

    def open_wizard(self) -> FirstRunWizard:
        if self.wizard is not None:
            self.wizard.close()
        self.wizard = FirstRunWizard(self.bridge, self.notices, self.paths, self.window,
                                     policy=self.policy)
        self.wizard.completed.connect(self._on_wizard_completed)
        self.wizard.finished.connect(self._on_wizard_finished)
        self.wizard.server_requested.connect(self.open_settings)
        self.wizard.finished.connect(self.wizard.chooser.withdraw_problem)
        self.wizard.open()
        return self.wizard

    def _on_wizard_finished(self, _code: int) -> None:
        """Cancelled or not, do not open it by itself again: Settings can re-run it."""
        self.settings.update(first_run_done=True)

    def _on_wizard_completed(self, model_path: str, preset: str) -> None:
        self.settings.update(model_path=model_path, preset=preset, first_run_done=True)

    def open_settings(self) -> SettingsDialog:
        facts = self.loaded_facts
        dialog = SettingsDialog(
            self.settings.current, self.bridge, self.notices, self.window,
            has_gpu=None if self.hardware is None else bool(self.hardware.gpus),
            model_has_experts=None if facts is None else bool(facts.n_expert),
            model_sampling="server" if self.chat.on_server
            else getattr(self, "loaded_sampling", None), policy=self.policy)
        dialog.show_fitted(self.hardware)
        dialog.accepted.connect(lambda: self._apply_dialog(dialog))
        dialog.finished.connect(dialog.chooser.withdraw_problem)
        dialog.rerun_setup_requested.connect(self.open_wizard)
        dialog.open()
        return dialog

    def _apply_dialog(self, dialog: SettingsDialog) -> None:
        before = self.settings.current
        self.settings.replace_all(dialog.result_settings())
        # A new key for the same server changes no setting, but the connection needs it.
        unchanged = all(getattr(before, name) == getattr(self.settings.current, name)
                        for name in MODEL_FIELDS)
        if dialog.server_box.key_changed() and unchanged:
            self.reload_model()

    def ask_export(self) -> None:
        if self.chat.conversation_id is None:
            self.notices.info(tr("There is no conversation to export yet."))
            return
        title = self.history.title(self.chat.conversation_id)
        path, _ = QFileDialog.getSaveFileName(self.window, tr("Export conversation"),
                                              str(Path.home() / f"{title}.md"),
                                              tr("Markdown files (*.md)"))
        if path:
            self.export_to(Path(path))

    def export_to(self, path: Path) -> None:
        title = self.history.title(self.chat.conversation_id)
        try:
            path.write_text(conversation_to_markdown(title, self.chat.messages), encoding="utf-8")
        except OSError as exc:
            self.notices.warning(tr("The conversation could not be saved there."), repr(exc))
            return
        self.notices.info(tr("Conversation saved to {path}.").format(path=path))

    def edit_last_message(self) -> None:
        for index in range(len(self.chat.messages) - 1, -1, -1):
            if self.chat.messages[index].role == "user":
                self.window.chat.begin_edit(index)
                return

    def copy_last_answer(self) -> None:
        answers = [m for m in self.chat.messages if m.role == "assistant"]
        if answers:
            self.window.chat.copy(answers[-1].content)
