"""Every connection between the app's objects, in one module (GPT4All's ``Chat::connectLLM``).

``wire`` connects a built ``RotaryApp`` (app.application) once. A request's engine events
have one receiver, the session (app.session.Session.on_event), which hands each to its job's
owner; the screen hears of them through the session's Qt face (app.chat.chat_controller, which
hands a document's on to app.documents.document_flow), so no order between receivers of an
engine request's event is needed. What the chat asks of the documents (Write again, Edit, a
conversation opened or deleted) and the documents held until the model is ready stay inside
the session, not here. One order remains, kept by the order of the calls in ``wire``: the
loader hears of a loaded model before what remembers it. Dialogs made later
(the wizard, Settings) are connected here too, when they open (app.setup.dialogs says so). A widget connecting its own
child widgets stays inside it.

The bridge emits on the GUI thread (it receives engine events through
``loop.call_soon_threadsafe``), so these are plain direct connections.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol

from engine.api import ModelLoaded, RequestFinished, ServerModelLoaded, StepRecord
from app.widgets import help as help_texts
from app.conversation.chat_text import base_model_warning
from app.documents.document_view import choose_files
from app.text.i18n import tr

if TYPE_CHECKING:       # types only: this module connects what app.application built
    from app.bridge.engine_bridge import EngineBridge
    from app.chat.chat_controller import ChatController
    from app.chat.conversation_actions import ConversationActions
    from app.session.document_session import DocumentSession
    from app.session.session import Session
    from app.documents.document_flow import DocumentFlow
    from app.documents.document_shelf import ConversationDocuments
    from app.documents.document_view import DocumentWidgets
    from app.gauge.gauge import GaugeWidget
    from app.setup.loading import ModelLoader
    from app.main_window import MainWindow
    from app.widgets.notifications import NotificationService
    from app.settings.paths import AppPaths
    from app.settings.model import Settings
    from app.setup.dialogs import Dialogs
    from app.setup.settings_dialog import SettingsDialog
    from app.setup.settings_holder import SettingsHolder
    from app.widgets.single_instance import SingleInstance
    from app.setup.wizard import FirstRunWizard


class Rotary(Protocol):
    """What the wiring needs of app.application.RotaryApp: its parts and its reactions."""

    paths: AppPaths
    notices: NotificationService
    settings: SettingsHolder
    bridge: EngineBridge
    session: Session
    chat: ChatController
    window: MainWindow
    loader: ModelLoader
    document_widgets: DocumentWidgets
    documents: DocumentFlow
    shelved_documents: ConversationDocuments
    dialogs: Dialogs
    conversation_actions: ConversationActions

    def refresh_conversations(self) -> None: ...
    def on_model_loading(self, name: str, is_demo: bool) -> None: ...
    def on_model_ready(self, name: str, is_demo: bool) -> None: ...
    def on_model_failed(self) -> None: ...
    def on_settings_changed(self, old: Settings, new: Settings) -> None: ...
    def remember_model(self, event: ModelLoaded | ServerModelLoaded) -> None: ...
    def remember_speed(self, event: RequestFinished) -> None: ...
    def show_think(self) -> None: ...
    def think_chosen(self, on: bool) -> None: ...


def wire(rotary: Rotary) -> None:
    """Every connection of the app's long-lived objects, once, in this order."""
    connect_chat(rotary.chat, rotary.session, rotary.window)
    connect_notices(rotary.notices, rotary.window)
    connect_gauge(rotary.chat, rotary.loader, rotary.window.gauge)
    connect_app(rotary)
    connect_actions(rotary)
    connect_documents(rotary)
    connect_engine(rotary)
    connect_help(rotary)
    connect_dialogs(rotary)


def connect_gauge_numbers(chat: ChatController, gauge: GaugeWidget) -> None:
    """The gauge shows the numbers of the job in the open conversation only (the session
    says which), never the late steps of one the user left. A step's record carries its
    hit rates too."""

    def on_step(record: StepRecord, reading_document: bool) -> None:
        gauge.model.reading_document = reading_document
        gauge.on_stats(record)

    chat.step_shown.connect(on_step)
    # An answer shown again when its conversation is reopened: its numbers count again.
    chat.answer_followed.connect(gauge.follow)


def connect_engine(rotary: Rotary) -> None:
    """Every bridge -> GUI connection of the app: a request's events to the session only;
    a load's to the loader before what remembers the model."""
    bridge, chat, window, loader = rotary.bridge, rotary.chat, rotary.window, rotary.loader
    gauge, panel = window.gauge, window.loading
    bridge.request_event.connect(rotary.session.on_event)
    connect_gauge_numbers(chat, gauge)
    bridge.vram_read.connect(gauge.on_vram)
    bridge.ram_read.connect(gauge.on_ram)
    bridge.load_progress.connect(loader.on_progress)
    bridge.load_fallback.connect(loader.on_fallback)
    bridge.model_loaded.connect(loader.on_loaded)
    bridge.model_loaded.connect(gauge.on_model_loaded)
    bridge.load_failed.connect(loader.on_failed)
    bridge.model_unloaded.connect(gauge.on_model_unloaded)
    bridge.load_failed.connect(gauge.on_load_failed)
    # A model on the office server has no file to read a chat template from: no warning.
    bridge.model_loaded.connect(lambda event: window.chat.set_model_warning(
        base_model_warning(getattr(event, "facts", None))))
    bridge.model_unloaded.connect(lambda: window.chat.set_model_warning(""))
    bridge.model_loaded.connect(rotary.remember_model)
    chat.request_ended.connect(rotary.remember_speed)
    # "Copy details" names the recipe of the model in use (app.widgets.notifications).
    bridge.model_loaded.connect(window.notice_bar.context.remember_model)
    loader.started.connect(panel.on_started)
    loader.progress.connect(panel.on_progress)
    loader.fallback_explained.connect(panel.on_fallback)
    loader.ready.connect(panel.on_finished)
    loader.failed.connect(panel.on_finished)


def connect_chat(chat: ChatController, session: Session, window: MainWindow) -> None:
    """What the user does in the chat pane and the conversation list goes to the session
    (never to the engine); what the session reports comes back through the chat's signals."""
    pane, composer = window.chat, window.chat.composer
    store, actions = session.store, session.chat

    def send(text: str) -> None:
        if actions.send(text):
            composer.clear()

    def edit_and_send(index: int, text: str) -> None:
        if actions.edit_and_resend(index, text):
            composer.clear()

    composer.send_requested.connect(send)
    composer.edit_send_requested.connect(edit_and_send)
    composer.stop_requested.connect(actions.stop)
    composer.queued_cancel_requested.connect(lambda: composer.take_back(actions.cancel_queued()))
    chat.queued_changed.connect(composer.show_queued)
    pane.regenerate_requested.connect(actions.regenerate)
    pane.document_edit_requested.connect(actions.edit_document)
    chat.conversation_opened.connect(pane.show_conversation)   # the box emptied, then
    chat.draft_restored.connect(composer.restore_draft)         # its own unsent text back
    actions.draft = composer.draft
    # The list highlights the open conversation, and nothing after New chat.
    chat.conversation_opened.connect(
        lambda _messages: window.conversations.select(store.conversation_id))
    chat.message_updated.connect(pane.update_message)
    chat.message_added.connect(pane.add_message)
    chat.answer_started.connect(pane.start_answer)
    chat.answer_piece.connect(pane.add_piece)
    def show_thinking(text: str, done: bool) -> None:
        if pane.streaming is not None:
            pane.streaming.set_thinking(text, done)

    chat.thinking_changed.connect(show_thinking)
    chat.answer_done.connect(pane.finish_answer)
    chat.truncated.connect(pane.truncate)
    chat.window_moved.connect(pane.show_window_start)
    chat.busy_changed.connect(pane.set_busy)
    chat.busy_changed.connect(composer.set_busy)
    chat.phase_changed.connect(composer.set_phase)
    chat.phase_changed.connect(pane.set_phase)
    chat.activity_changed.connect(window.conversations.set_activity)
    window.closed.connect(actions.close)
    window.conversations.open_requested.connect(actions.open_conversation)
    window.conversations.new_requested.connect(actions.new_chat)
    window.conversations.rename_requested.connect(store.rename)
    window.conversations.delete_requested.connect(actions.delete)


def connect_notices(notices: NotificationService, window: MainWindow) -> None:
    """Notices from anywhere show in the bar above the chat."""
    notices.posted.connect(window.notice_bar.show_notice)
    notices.withdrawn.connect(window.notice_bar.withdraw)


def connect_gauge(chat: ChatController, loader: ModelLoader, gauge: GaugeWidget) -> None:
    """The gauge shows the current model and conversation only: reset on a switch."""
    loader.started.connect(gauge.reset_model)
    chat.conversation_opened.connect(gauge.reset_conversation)
    # "Memory left": what the open conversation takes as its next turn sends it.
    chat.context_changed.connect(gauge.on_conversation_context)


def connect_app(rotary: Rotary) -> None:
    """The app's own reactions: the conversation list, the model's state, settings."""
    chat, window, loader = rotary.chat, rotary.window, rotary.loader
    chat.conversations_changed.connect(rotary.refresh_conversations)
    window.conversations.search_changed.connect(lambda _text: rotary.refresh_conversations())
    loader.ready.connect(rotary.on_model_ready)
    loader.started.connect(rotary.on_model_loading)
    loader.failed.connect(rotary.on_model_failed)
    loader.choose_model_requested.connect(rotary.dialogs.open_wizard)
    rotary.settings.changed.connect(rotary.on_settings_changed)


def connect_actions(rotary: Rotary) -> None:
    """The menus' actions and their shortcuts."""
    window, chat, dialogs = rotary.window, rotary.chat, rotary.dialogs
    session = rotary.session.chat
    actions, conversation = window.menu_actions, rotary.conversation_actions
    actions["new_chat"].triggered.connect(session.new_chat)
    actions["export"].triggered.connect(conversation.ask_export)
    actions["settings"].triggered.connect(dialogs.open_settings)
    actions["wizard"].triggered.connect(dialogs.open_wizard)
    actions["quit"].triggered.connect(window.close)
    actions["stop"].triggered.connect(session.stop)
    actions["regenerate"].triggered.connect(session.regenerate)
    actions["edit_last"].triggered.connect(conversation.edit_last_message)
    actions["copy_last"].triggered.connect(conversation.copy_last_answer)
    actions["think"].toggled.connect(rotary.think_chosen)
    chat.conversation_opened.connect(lambda _messages: rotary.show_think())
    actions["focus_input"].triggered.connect(window.chat.composer.input.setFocus)
    actions["focus_search"].triggered.connect(window.conversations.search.setFocus)
    actions["focus_list"].triggered.connect(window.conversations.items.setFocus)
    actions["focus_gauge"].triggered.connect(window.focus_gauge)


def connect_documents(rotary: Rotary) -> None:
    """The document card, the conversation's list of documents, Attach (and Ctrl+O) and
    dropped files, to the session's documents; what they say comes back through their Qt
    face (``rotary.documents``)."""
    flow, shelved, widgets = rotary.documents, rotary.shelved_documents, rotary.document_widgets
    pane, documents = rotary.window.chat, rotary.session.documents
    connect_document_shelf(flow, rotary.chat, shelved, widgets, documents)

    def choose() -> None:
        choose_files(pane, documents.last_folder, shelved)

    widgets.attach.clicked.connect(choose)
    rotary.window.open_documents.activated.connect(choose)
    widgets.drops.files_dropped.connect(shelved.attach)
    pane.attach_text_requested.connect(                                  # a refused message
        rotary.conversation_actions.attach_message_text)
    connect_document_card(flow, widgets, rotary.session)
    flow.overview_ready.connect(lambda _overview: rotary.window.keep_typing_focus())
    # Escape closes the card first, while it offers its choices.
    pane.composer.escape_handlers.insert(0, widgets.panel.escape)


def connect_document_shelf(flow: DocumentFlow, chat: ChatController,
                           shelved: ConversationDocuments, widgets: DocumentWidgets,
                           documents: DocumentSession[object]) -> None:
    """The list follows the open conversation and what the session reads; its buttons act."""
    flow.list_changed.connect(shelved.refresh)
    chat.conversation_opened.connect(shelved.refresh)
    widgets.shelf.remove_requested.connect(shelved.remove)
    widgets.shelf.summarise_requested.connect(documents.open_file)


def connect_document_card(flow: DocumentFlow, widgets: DocumentWidgets,
                          session: Session) -> None:
    """The card follows what the session says (through ``flow``); its buttons drive the
    session's documents."""
    panel = widgets.panel
    flow.checking.connect(panel.show_checking)
    flow.overview_ready.connect(lambda shown: panel.show_overview(
        shown.overview, shown.preset, shown.question, shown.replacing))
    flow.read.connect(panel.show_read)
    flow.started.connect(panel.show_started)
    flow.progress.connect(panel.show_progress)
    flow.done.connect(panel.close_panel)
    flow.closed.connect(panel.close_panel)
    flow.here_changed.connect(panel.set_here)
    flow.waiting_for_model.connect(panel.show_waiting)
    panel.summarize_requested.connect(session.documents.summarize)
    panel.cancel_requested.connect(session.document_queue.dismiss)
    panel.stop_requested.connect(session.documents.stop)


def connect_help(rotary: Rotary) -> None:
    """Help (F1): the guide, where models come from, the log folder, About."""
    window, actions = rotary.window, rotary.window.menu_actions
    show = window.show_help
    actions["help_guide"].triggered.connect(
        lambda: show(tr("Getting started"), help_texts.guide_text()))
    actions["help_models"].triggered.connect(
        lambda: show(tr("Where models come from"), help_texts.models_text()))
    actions["help_about"].triggered.connect(
        lambda: show(tr("About Rotary"), help_texts.about_text(rotary.bridge.loaded,
                                                              rotary.session.chat.stream.on_server)))
    def open_log_folder() -> None:
        box = help_texts.open_log_folder(rotary.paths.log_file, window)
        if box is not None:                       # no file manager: the path, to copy
            window.help_box = box

    actions["help_log"].triggered.connect(open_log_folder)


def connect_dialogs(rotary: Rotary) -> None:
    """The wizard and Settings are made each time they open: connected then, before they show."""
    rotary.dialogs.wizard_opened.connect(lambda wizard: connect_wizard(wizard, rotary))
    rotary.dialogs.settings_opened.connect(lambda dialog: connect_settings_dialog(dialog, rotary))


def connect_wizard(wizard: FirstRunWizard, rotary: Rotary) -> None:
    """First-time setup, each time it opens."""
    dialogs = rotary.dialogs
    wizard.completed.connect(dialogs.wizard_completed)
    wizard.finished.connect(dialogs.wizard_finished)
    wizard.server_requested.connect(dialogs.open_settings)
    wizard.finished.connect(wizard.chooser.withdraw_problem)
    # The main window's shortcuts do not reach it while the wizard is open (window-modal):
    # Ctrl+Q quits from the wizard too.
    wizard.addAction(rotary.window.menu_actions["quit"])


def connect_settings_dialog(dialog: SettingsDialog, rotary: Rotary) -> None:
    """Settings, each time the dialog opens."""
    dialog.accepted.connect(lambda: rotary.dialogs.apply_dialog(dialog))
    dialog.finished.connect(dialog.chooser.withdraw_problem)
    dialog.rerun_setup_requested.connect(rotary.dialogs.open_wizard)


def connect_process(instance: SingleInstance, window: MainWindow,
                    closed: Callable[[], None]) -> None:
    """A second start of Rotary brings this window to the front; closing it ends the run
    (after the chat has stopped)."""
    instance.activation_requested.connect(window.bring_to_front)
    window.closed.connect(closed)
