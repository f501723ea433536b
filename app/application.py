"""Builds Rotary from its parts and runs its start-up checks.

``RotaryApp`` is created inside the qasync loop by ``app.__main__`` and by the tests
(with a fake engine backend and a temporary ROTARY_HOME).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol, cast

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication

from engine.api import ModelLoaded, RequestFinished, ServerModelLoaded, StopReason
from engine.errors import EngineError
from engine.model.facts import ModelFacts
from engine.recipe import Recipe
from app.bridge.engine_bridge import EngineBridge
from app.bridge.facade import (EngineBackend, HardwareInfo, Sampling, forget_unused_documents,
                               summary_presets)
from app.chat.chat_controller import ChatController
from app.chat.conversation_actions import ConversationActions
from app.documents.document_flow import DocumentFlow
from app.documents.document_shelf import ConversationDocuments
from app.documents.document_text import summary_messages
from app.documents.document_view import DocumentWidgets, interface_language
from app.conversation.history import HistoryStore
from app.text.i18n import tr
from app.widgets.translation import install_translator, uninstall_translators
from app.setup.loading import ModelLoader
from app.main_window import MainWindow
from app.gauge.measured_speed import MeasuredSpeeds
from app.widgets.notifications import (NotificationService, asyncio_exception_handler,
                               install_exception_hooks)
from app.settings.paths import AppPaths
from app.settings.policy import load_policy
from app.settings.model import MODEL_FIELDS, Settings, SettingsStore
from app.setup.dialogs import Dialogs
from app.setup.settings_holder import SettingsHolder
from app.widgets.fonts import install_fallback_fonts
from app.widgets.theme import follow_os_theme
from app.session.session import Session
from app.wiring import wire

log = logging.getLogger("rotary.documents")


class ThinkingSwitch(Protocol):
    """What the app reads of the loaded model's chat format (the engine's ChatFormat, which
    ModelLoaded carries untyped, engine.api): whether it thinks, by default, and whether the
    template lets the user choose."""

    @property
    def can_switch(self) -> bool: ...
    @property
    def can_think(self) -> bool: ...
    @property
    def thinks_by_default(self) -> bool: ...


class RotaryApp(QObject):
    def __init__(self, qapp: QApplication, loop: asyncio.AbstractEventLoop,
                 backend: EngineBackend, paths: AppPaths) -> None:
        super().__init__()
        self.qapp, self.loop, self.paths = qapp, loop, paths
        self.notices = NotificationService()
        self._uninstall_hooks = install_exception_hooks(self.notices)
        loop.set_exception_handler(asyncio_exception_handler(self.notices))
        # The organisation's settings file (app/settings/policy.py): a new user's values and locked ones.
        self.policy = load_policy()
        store = SettingsStore(paths.settings_file, self.policy)
        loaded = store.load()
        self.settings = SettingsHolder(store, loaded.settings)
        self.translators = install_translator(qapp, loaded.settings.language)
        install_fallback_fonts(qapp)           # e.g. Devanagari, where the system has none
        follow_os_theme(qapp)
        self.history = HistoryStore(paths.history_db)
        self.speeds = MeasuredSpeeds(paths.measured_speeds)
        self.bridge = EngineBridge(backend, loop, measured_speed=self.speeds.range_for)
        # The session's events as Qt signals: the chat's, and the document card's.
        self.documents = DocumentFlow(self)
        self.chat = ChatController(self.documents, self)
        self.session = Session(self.history, self.bridge, self.notices, loop, self.chat.show,
                               self.language, untitled=lambda: tr("New chat"),
                               summary_messages=summary_messages,
                               index_path=str(self.history.passage_index),
                               model_loading=lambda: self.loader.loading)
        self.document_widgets = DocumentWidgets(summary_presets())
        self.window = MainWindow(self.document_widgets)
        self.loader = ModelLoader(self.bridge, self.notices, paths, self.settings)
        # The open conversation's documents; questions there carry them (app/conversation).
        self.shelved_documents = ConversationDocuments(
            self.session.document_queue, self.session.store, self.history,
            self.document_widgets.shelf, self)
        self.dialogs = Dialogs(self, lambda: self.session.chat.stream.on_server, self.settings, self.bridge,
                               self.notices, paths, self.policy, self.window)
        self.conversation_actions = ConversationActions(
            self.session.store, self.history, self.notices, self.window.chat, self.shelved_documents,
            paths.attached_texts, self.session.chat.stream.refused_text_attached)
        self.hardware: HardwareInfo | None = None     # once probed
        self.loaded_facts: ModelFacts | None = None   # of the model in use (None: on a server)
        self.loaded_recipe: Recipe | None = None      # and its Recipe
        self.loaded_sampling: Sampling | None = None   # what the loaded model asks for
        self.loaded_format: ThinkingSwitch | None = None     # and how it thinks
        wire(self)                                     # every connection: app/wiring.py
        self._tidy_passage_index()
        self._set_model_ready(False, tr("No model loaded"))
        self._apply_chat_settings(self.settings.current)
        self._report_startup_problems(loaded.problems)
        self._apply_policy()

    def language(self) -> str:
        """The interface language by its English name, for documents' summaries and answers."""
        return interface_language(self.settings.current.language)

    def _tidy_passage_index(self) -> None:
        """Passages of documents no conversation holds any more leave the index (at start)."""
        try:
            gone = forget_unused_documents(
                str(self.history.passage_index), self.history.document_hashes(),
                moved_from=str(self.history.path))     # where earlier versions kept passages
            if gone:
                log.info("removed %d documents no conversation holds from the passage index",
                         gone)
        except Exception:  # a cleanup: the next start tries again
            log.warning("could not tidy the passage index", exc_info=True)

    # ---- reactions to the model ----------------------------------------------------------

    def remember_model(self, event: ModelLoaded | ServerModelLoaded) -> None:
        """engine.api.ModelLoaded, or ServerModelLoaded (no file, no recipe here)."""
        self.loaded_facts = getattr(event, "facts", None)       # None: on the office server
        self.loaded_recipe = getattr(event, "recipe", None)
        self.session.chat.stream.model_facts = self.loaded_facts
        self.session.chat.stream.on_server = isinstance(event, ServerModelLoaded)
        self.loaded_sampling = cast("Sampling | None", getattr(event, "sampling", None))
        self.loaded_format = cast("ThinkingSwitch | None", getattr(event, "chat_format", None))
        self.show_think()

    def show_think(self) -> None:
        """Chat → Think before answering: the open conversation's choice, else the model's
        default; enabled only where the template takes the choice (Qwen3.x, gpt-oss, …)."""
        fmt = self.loaded_format
        action = self.window.menu_actions["think"]
        store = self.session.store
        chosen = store.think.for_conversation(store.conversation_id)
        action.blockSignals(True)
        action.setEnabled(fmt is not None and fmt.can_switch and self.policy.thinking is None)
        action.setChecked(bool(fmt is not None and fmt.can_think and (
            fmt.thinks_by_default if chosen is None else chosen)))
        action.blockSignals(False)

    def think_chosen(self, on: bool) -> None:
        self.session.store.think.choose(self.session.store.conversation_id, on)

    def remember_speed(self, event: RequestFinished) -> None:
        """Each whole answer's writing speed on this computer, for the model check."""
        stats = event.stats
        if self.loaded_recipe is None or self.loaded_facts is None or self.session.chat.stream.on_server or \
                stats.stop_reason not in (StopReason.EOS, StopReason.LENGTH):
            return
        self.speeds.add(self.loaded_facts.path, self.loaded_recipe.preset,
                        stats.generated_tokens, stats.decode_tps)

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
            self.dialogs.open_wizard()

    def _open_latest(self) -> None:
        """After a restart the latest conversation is open and selected (an empty window
        with nothing selected looked as if the conversations were lost)."""
        latest = self.history.list_conversations()
        if latest and self.session.store.conversation_id is None:
            self.session.chat.open_conversation(latest[0].id)

    async def _probe_for_gauge(self) -> None:
        try:
            hardware = await self.bridge.checks.probe_hardware()
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
        self.session.store.think.policy = self.policy.thinking

    def on_model_loading(self, name: str, is_demo: bool) -> None:
        self._set_model_ready(False, tr("Loading: {name}").format(name=name))

    def on_model_ready(self, name: str, is_demo: bool) -> None:
        self.session.requests.model_name = name
        self._set_model_ready(True, tr("Model: {name}").format(name=name))

    def on_model_failed(self) -> None:
        self._set_model_ready(False, tr("No model loaded"), failed=True)

    def _set_model_ready(self, ready: bool, text: str, failed: bool = False) -> None:
        """Shown, then the session's (on ready it reads the documents attached meanwhile)."""
        self.window.chat.composer.set_ready(ready)
        self.window.set_model_text(text)
        self.session.set_model_ready(ready, failed)

    def _apply_chat_settings(self, settings: Settings) -> None:
        requests = self.session.requests
        requests.temperature = settings.temperature
        requests.model_sampling = settings.model_sampling
        requests.system_prompt = settings.system_prompt

    def on_settings_changed(self, old: Settings, new: Settings) -> None:
        self._apply_chat_settings(new)
        if any(getattr(old, name) != getattr(new, name) for name in MODEL_FIELDS):
            self.reload_model()

    def reload_model(self) -> None:
        self.session.requests.stop_everything()         # kept, labelled "stopped when the model changed"
        # Not ready from now: the demo is written before its load starts, and a document
        # attached in between met an engine with no model ("No model is loaded yet").
        self._set_model_ready(False, tr("No model loaded"))
        self.bridge.unload()
        self.loader.start()

    def refresh_conversations(self) -> None:
        search = self.window.conversations.search.text()
        self.window.conversations.show_conversations(self.history.list_conversations(search),
                                                     self.session.store.conversation_id)
