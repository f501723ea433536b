"""All connections between the bridge and the GUI in one function, ``connect_engine``
(GPT4All's ``Chat::connectLLM``), plus the window's own controls in a second one.
No constructor connects to the bridge; a receiver added later is connected here too.

The bridge emits on the GUI thread (it receives engine events through
``loop.call_soon_threadsafe``), so these are plain direct connections.
"""

from __future__ import annotations

from app.bridge import EngineBridge
from app.chat_controller import ChatController
from app.chat_text import base_model_warning
from app.document_flow import DocumentFlow
from app import help as help_texts
from app.i18n import tr
from app.main_window import MainWindow


def connect_answers(bridge: EngineBridge, chat: ChatController) -> None:
    """Answer events, each carrying its request id, to the controller that maps them to
    their conversation (also used alone by the crash test's child process)."""
    bridge.started.connect(chat.on_started)
    bridge.token.connect(chat.on_token)
    bridge.thinking.connect(chat.on_thinking)
    bridge.finished.connect(chat.on_finished)
    bridge.failed.connect(chat.on_failed)
    bridge.document_event.connect(chat.on_document_event)    # an answer from documents


def connect_gauge_numbers(bridge: EngineBridge, chat: ChatController, gauge) -> None:
    """The gauge shows the numbers of the answer in the open conversation only, never
    the late steps of one the user left. A step's record carries its hit rates too."""

    def on_stats(record) -> None:
        if chat.shows(record.request_id):
            gauge.model.reading_document = record.request_id == chat.external_id
            gauge.on_stats(record)

    bridge.stats.connect(on_stats)


def connect_engine(rotary) -> None:
    """Every bridge -> GUI connection of the app (app.application.RotaryApp), in one place.
    Where two receivers share a signal they run in this order: the chat before the document
    flow (a failure is the chat's answer first), the loader before what remembers the model."""
    bridge, chat, window, loader = rotary.bridge, rotary.chat, rotary.window, rotary.loader
    gauge, panel = window.gauge, window.loading
    connect_answers(bridge, chat)
    connect_gauge_numbers(bridge, chat, gauge)
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
    bridge.finished.connect(rotary.remember_speed)
    # "Copy details" names the recipe of the model in use (app.notifications).
    bridge.model_loaded.connect(window.notice_bar.context.remember_model)
    # Documents (app/document_view.py): summaries.
    bridge.document_event.connect(rotary.documents.on_event)
    bridge.failed.connect(rotary.documents.on_failed)
    loader.started.connect(panel.on_started)
    loader.progress.connect(panel.on_progress)
    loader.fallback_explained.connect(panel.on_fallback)
    loader.ready.connect(panel.on_finished)
    loader.failed.connect(panel.on_finished)


def connect_documents(chat: ChatController, flow: DocumentFlow) -> None:
    """A document card belongs to one conversation: it shows there only, and goes with it;
    Write again and Edit on a summary read its document again."""
    chat.conversation_opened.connect(flow.follow_conversation)
    chat.conversation_deleted.connect(flow.on_conversation_deleted)
    chat.summary_again_requested.connect(flow.write_again)
    chat.summary_edit_requested.connect(flow.edit)


def connect_chat(chat: ChatController, window: MainWindow) -> None:
    """The chat pane and conversation list talk to the controller, never to the engine."""
    pane = window.chat

    def send(text: str) -> None:
        if chat.send(text):
            pane.accept_sent()

    def edit_and_send(index: int, text: str) -> None:
        if chat.edit_and_resend(index, text):
            pane.accept_sent()

    pane.send_requested.connect(send)
    pane.edit_send_requested.connect(edit_and_send)
    pane.stop_requested.connect(chat.stop)
    pane.queued_cancel_requested.connect(lambda: pane.take_back(chat.cancel_queued()))
    chat.queued_changed.connect(pane.show_queued)
    pane.regenerate_requested.connect(chat.regenerate)
    pane.document_edit_requested.connect(chat.edit_document)
    chat.conversation_opened.connect(pane.show_conversation)
    # The list highlights the open conversation, and nothing after New chat.
    chat.conversation_opened.connect(
        lambda _messages: window.conversations.select(chat.conversation_id))
    chat.message_updated.connect(pane.update_message)
    chat.message_added.connect(pane.add_message)
    chat.answer_started.connect(pane.start_answer)
    chat.answer_piece.connect(pane.add_piece)
    chat.thinking_changed.connect(lambda text, done: pane.streaming is not None
                                  and pane.streaming.set_thinking(text, done))
    chat.answer_done.connect(pane.finish_answer)
    chat.truncated.connect(pane.truncate)
    chat.window_moved.connect(pane.show_window_start)
    chat.busy_changed.connect(pane.set_busy)
    chat.phase_changed.connect(pane.set_phase)
    chat.activity_changed.connect(window.conversations.set_activity)
    window.closed.connect(chat.close)
    window.conversations.open_requested.connect(chat.open_conversation)
    window.conversations.new_requested.connect(chat.new_chat)
    window.conversations.rename_requested.connect(chat.rename)
    window.conversations.delete_requested.connect(chat.delete)


def connect_help(rotary) -> None:
    """Help (F1): the guide, where models come from, the log folder, About."""
    window, actions = rotary.window, rotary.window.actions

    def show(title: str, text: str) -> None:
        window.help_box = help_texts.show_text(window, title, text)

    actions["help_guide"].triggered.connect(
        lambda: show(tr("Getting started"), help_texts.guide_text()))
    actions["help_models"].triggered.connect(
        lambda: show(tr("Where models come from"), help_texts.models_text()))
    actions["help_about"].triggered.connect(
        lambda: show(tr("About Rotary"), help_texts.about_text(rotary.bridge.loaded,
                                                              rotary.chat.on_server)))
    actions["help_log"].triggered.connect(
        lambda: help_texts.open_log_folder(rotary.paths.log_file))
