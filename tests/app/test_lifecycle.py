"""Chat lifecycle while an answer streams: every answer lands in the conversation that
asked for it (it goes on there when the user leaves it) or is dropped, by the rules at the
top of app/session/requests.py; nothing raises, nothing is misfiled, and a label says why an
answer stopped only when something did stop it. Real HistoryStore, fake engine on its own
thread."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.conversation.history import COMPLETE, INTERRUPTED, WRITING, HistoryStore, StoredMessage
from engine.api import ChatRequest, LoadRequest, RequestFinished, RequestStarted
from tests.app.conftest import wait_idle, wait_ready
from tests.app.fakes import FakeScript
from tests.support.event_collector import on_request_events

LONG = tuple(f" w{i}" for i in range(400))          # 400 tokens × 5 ms ≈ 2 s


def _send(qtbot, rotary, text: str) -> None:
    pane = rotary.window.chat
    pane.composer.input.setPlainText(text)
    qtbot.keyClick(pane.composer.input, Qt.Key.Key_Return)


def _streaming(qtbot, rotary, at_least: int = 20) -> None:
    qtbot.waitUntil(lambda: len(rotary.session.requests.partial) > at_least, timeout=3000)


def _all_settled(qtbot, rotary) -> None:
    """Every answer, shown or left, has ended (the engine reported on it)."""
    qtbot.waitUntil(lambda: not rotary.session.requests.jobs, timeout=5000)
    qtbot.wait(50)


def _contents(rotary, conversation_id):
    return [(m.role, m.content) for m in rotary.history.messages(conversation_id)]


def _app(make_app, *answers, delay=0.005):
    return make_app(script=FakeScript(answers=[a for a in answers], token_delay=delay))


def test_new_chat_while_streaming_keeps_the_answer_in_its_own_conversation(qtbot, make_app):
    rotary = _app(make_app, LONG, ("Fresh",))
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "First question")
    _streaming(qtbot, rotary)
    first = rotary.session.store.conversation_id
    rotary.window.menu_actions["new_chat"].trigger()
    assert rotary.session.store.conversation_id is None and not rotary.session.requests.busy
    assert rotary.window.chat.streaming is None and not rotary.window.chat.message_widgets
    _send(qtbot, rotary, "Second question")           # waits in the engine's queue, then runs
    _all_settled(qtbot, rotary)
    stored = rotary.history.messages(first)
    assert [m.role for m in stored] == ["user", "assistant"]
    # It went on in its own conversation: whole, and not labelled as stopped by the user.
    assert stored[1].content == "".join(LONG) and stored[1].status == COMPLETE
    assert stored[1].stats.stop_reason == "eos"
    second = rotary.session.store.conversation_id
    assert second != first
    assert _contents(rotary, second) == [("user", "Second question"), ("assistant", "Fresh")]
    assert [w.text for w in rotary.window.chat.message_widgets] == ["Second question", "Fresh"]


def test_opening_another_conversation_while_streaming_never_misfiles(qtbot, make_app):
    rotary = _app(make_app, ("Old answer",), LONG)
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Older chat")
    wait_idle(qtbot, rotary)
    older = rotary.session.store.conversation_id
    rotary.session.chat.new_chat()
    _send(qtbot, rotary, "Newer chat")
    _streaming(qtbot, rotary)
    newer = rotary.session.store.conversation_id
    rotary.session.chat.open_conversation(older)
    _all_settled(qtbot, rotary)
    assert _contents(rotary, older) == [("user", "Older chat"), ("assistant", "Old answer")]
    late = rotary.history.messages(newer)
    assert late[0].content == "Newer chat" and late[1].stats.stop_reason == "eos"
    assert late[1].content == "".join(LONG)
    assert [w.text for w in rotary.window.chat.message_widgets] == ["Older chat", "Old answer"]
    assert rotary.session.store.messages[-1].content == "Old answer"


def test_reopening_a_left_conversation_shows_its_answer_still_being_written(qtbot, make_app):
    """Opened again while its answer goes on: the answer streams there again (once, not as
    a saved row plus a stream), Stop stops it, and it ends labelled as the user stopped it."""
    rotary = _app(make_app, LONG)
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Question")
    _streaming(qtbot, rotary, at_least=200)           # saved at least once by now
    conversation = rotary.session.store.conversation_id
    rotary.session.chat.new_chat()
    assert not rotary.window.chat.composer.stop_button.isVisible()
    qtbot.wait(100)                                   # it goes on meanwhile
    rotary.session.chat.open_conversation(conversation)
    pane = rotary.window.chat
    assert [w.text for w in pane.message_widgets][:1] == ["Question"]
    assert len(pane.message_widgets) == 2 and pane.streaming is pane.message_widgets[1]
    assert rotary.session.requests.busy and pane.composer.stop_button.isVisible()
    shown = len(rotary.session.requests.partial)
    qtbot.waitUntil(lambda: len(rotary.session.requests.partial) > shown + 20, timeout=3000)
    pane.composer.stop_button.click()
    wait_idle(qtbot, rotary)
    final = rotary.history.messages(conversation)
    assert len(final) == 2 and final[1].stats.stop_reason == "stopped"
    answer = pane.message_widgets[1]
    assert "You stopped" in answer.status.text() and answer.text == final[1].content


def test_deleting_the_open_conversation_while_streaming(qtbot, make_app):
    rotary = _app(make_app, ("Kept",), LONG)
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Keep me")
    wait_idle(qtbot, rotary)
    kept = rotary.session.store.conversation_id
    rotary.session.chat.new_chat()
    _send(qtbot, rotary, "Delete me")
    _streaming(qtbot, rotary)
    doomed = rotary.session.store.conversation_id
    rotary.session.store.delete(doomed)
    assert rotary.window.chat.streaming is None and not rotary.window.chat.message_widgets
    _all_settled(qtbot, rotary)
    assert not rotary.history.exists(doomed)
    assert [c.id for c in rotary.history.list_conversations()] == [kept]
    assert _contents(rotary, kept) == [("user", "Keep me"), ("assistant", "Kept")]
    total = rotary.history.db.execute("SELECT COUNT(*) FROM messages").fetchone()[0]
    assert total == 2
    engine = rotary.fake["engine"]           # the engine drops its kept state of it too
    qtbot.waitUntil(lambda: engine.forgotten == [doomed], timeout=3000)
    loads = [r for r in engine.requests if isinstance(r, LoadRequest)]
    assert loads and loads[-1].state_dir == str(rotary.paths.states_dir)


def test_deleting_a_left_conversation_before_its_answer_ends(qtbot, make_app):
    rotary = _app(make_app, LONG)
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Will be left")
    _streaming(qtbot, rotary)
    left = rotary.session.store.conversation_id
    rotary.session.chat.new_chat()
    rotary.session.store.delete(left)                  # its answer has not reported its end yet
    _all_settled(qtbot, rotary)
    assert rotary.history.list_conversations() == []
    assert rotary.history.db.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 0


def test_regenerate_while_streaming_replaces_the_answer(qtbot, make_app):
    rotary = _app(make_app, LONG, ("Second", " try"))
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Question")
    _streaming(qtbot, rotary, at_least=200)    # long enough to have saved a partial row
    rotary.window.menu_actions["regenerate"].trigger()
    _all_settled(qtbot, rotary)
    conversation = rotary.session.store.conversation_id
    assert _contents(rotary, conversation) == [("user", "Question"), ("assistant", "Second try")]
    assert [w.text for w in rotary.window.chat.message_widgets] == ["Question", "Second try"]


def test_edit_while_streaming_forgets_the_old_answer(qtbot, make_app):
    rotary = _app(make_app, ("One",), LONG, ("Edited answer",))
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "first")
    wait_idle(qtbot, rotary)
    _send(qtbot, rotary, "second")
    _streaming(qtbot, rotary, at_least=200)
    rotary.window.chat.message_widgets[0].edit_button.click()
    _send(qtbot, rotary, "first, edited")
    _all_settled(qtbot, rotary)
    conversation = rotary.session.store.conversation_id
    assert _contents(rotary, conversation) == [("user", "first, edited"),
                                               ("assistant", "Edited answer")]
    assert [w.text for w in rotary.window.chat.message_widgets] == ["first, edited",
                                                                    "Edited answer"]


def test_the_answer_is_saved_while_it_streams_in_batches(qtbot, make_app):
    rotary = _app(make_app, LONG)
    rotary.session.requests.save_interval_s = 0.3
    updates = []
    wait_ready(qtbot, rotary)
    rotary.history.db.set_trace_callback(
        lambda sql: updates.append(sql) if sql.startswith("UPDATE messages") else None)
    _send(qtbot, rotary, "Write a lot")
    conversation = rotary.session.store.conversation_id
    qtbot.waitUntil(lambda: len(rotary.session.requests.partial) > 1200, timeout=5000)
    saved = rotary.history.messages(conversation)[1]
    assert saved.status == WRITING and len(saved.content) > 600
    assert rotary.session.requests.partial.startswith(saved.content)
    wait_idle(qtbot, rotary)
    rotary.history.db.set_trace_callback(None)
    final = rotary.history.messages(conversation)[1]
    assert final.status == COMPLETE and final.content == "".join(LONG)
    assert 2 <= len(updates) <= 12          # ≈ 2 s / 0.3 s, not one write per token (400)


def test_an_interrupted_answer_reappears_marked(qtbot, make_app, rotary_home):
    from app.settings.paths import default_paths
    store = HistoryStore(default_paths().history_db)
    conversation = store.create_conversation("Cut off")
    store.append(conversation, StoredMessage("user", "Tell me"))
    store.append(conversation, StoredMessage("assistant", "Half an ans", status=WRITING))
    store.db.close()                           # as if the process had been killed
    rotary = make_app()
    assert rotary.history.interrupted == 1
    rotary.session.chat.open_conversation(conversation)
    stored = rotary.history.messages(conversation)
    assert stored[1].status == INTERRUPTED and stored[1].content == "Half an ans"
    answer = rotary.window.chat.message_widgets[1]
    assert "cut off" in answer.status.text() and answer.regenerate_button.isVisibleTo(answer)


def test_a_question_stopped_before_any_text_can_be_asked_again(qtbot, make_app):
    script = FakeScript(answers=[("Never",), ("Now", " answered")], first_token_delay=5.0)
    rotary = make_app(script=script)
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Slow question")
    qtbot.waitUntil(lambda: rotary.window.chat.composer.stop_button.isVisible(), timeout=2000)
    # The model has taken the question ("Never" is its answer) and reads the prompt: a stop
    # that came earlier would end the question in the queue and leave "Never" for the next.
    qtbot.waitUntil(lambda: any(isinstance(r, ChatRequest) for r in rotary.fake["engine"].requests),
                    timeout=2000)
    rotary.window.chat.composer.stop_button.click()
    wait_idle(qtbot, rotary)
    pane = rotary.window.chat
    assert [w.text for w in pane.message_widgets] == ["Slow question"]
    question = pane.message_widgets[0]
    assert question.regenerate_button.isVisibleTo(question)
    script.first_token_delay = 0.0
    question.regenerate_button.click()
    wait_idle(qtbot, rotary)
    assert [w.text for w in pane.message_widgets] == ["Slow question", "Now answered"]
    assert not question.regenerate_button.isVisibleTo(question)
    assert _contents(rotary, rotary.session.store.conversation_id)[-1] == ("assistant", "Now answered")


def test_list_selection_follows_new_chat_and_open_scrolls_to_latest(qtbot, make_app):
    long_answer = tuple(f"Line {i}.\n\n" for i in range(30))
    rotary = make_app(script=FakeScript(answers=[long_answer] * 4, token_delay=0.001))
    rotary.window.resize(900, 500)
    wait_ready(qtbot, rotary)
    for text in ("one", "two"):
        _send(qtbot, rotary, text)
        wait_idle(qtbot, rotary)
    conversation = rotary.session.store.conversation_id
    listing = rotary.window.conversations
    assert listing.selected_id() == conversation
    rotary.window.menu_actions["new_chat"].trigger()
    assert listing.selected_id() is None and not listing.items.selectedItems()
    listing.items.itemClicked.emit(listing.items.item(0))
    assert rotary.session.store.conversation_id == conversation and listing.selected_id() == conversation
    bar = rotary.window.chat.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=2000)


def test_quitting_mid_answer_keeps_it_as_stopped_not_interrupted(qtbot, make_app):
    from tests.app.conftest import close_app
    rotary = _app(make_app, LONG)
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Question")
    _streaming(qtbot, rotary)
    conversation = rotary.session.store.conversation_id
    close_app(rotary)                        # the window closes, then the app
    store = HistoryStore(rotary.paths.history_db)
    answer = store.messages(conversation)[1]
    assert store.interrupted == 0 and answer.status == COMPLETE
    assert answer.stats.stop_reason == "closed" and answer.content.startswith(" w0")
    store.close()
    from app.chat.message_widget import stored_status
    assert stored_status(answer) == "Stopped when Rotary was closed."       # not "You stopped"


def test_clicking_the_open_conversation_does_not_stop_its_answer(qtbot, make_app):
    rotary = _app(make_app, LONG)
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Question")
    _streaming(qtbot, rotary)
    listing = rotary.window.conversations
    listing.items.itemClicked.emit(listing.items.item(0))
    assert rotary.session.requests.busy and rotary.window.chat.streaming is not None
    wait_idle(qtbot, rotary)
    stored = rotary.history.messages(rotary.session.store.conversation_id)
    assert stored[1].content == "".join(LONG) and stored[1].stats.stop_reason == "eos"


def test_the_gauge_never_shows_steps_of_a_left_answer(qtbot, make_app):
    rotary = _app(make_app, LONG, ("Fresh", " one"))
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Left behind")
    _streaming(qtbot, rotary)
    left_request = rotary.session.requests.current.request_id
    gauge, seen = rotary.window.gauge, []
    gauge.on_stats = seen.append        # a step's record carries its hit rates too
    rotary.session.chat.new_chat()
    _send(qtbot, rotary, "New question")
    _all_settled(qtbot, rotary)
    assert seen and all(record.request_id != left_request for record in seen)


def test_a_new_answer_comes_into_view_even_after_scrolling_up(qtbot, make_app):
    long_answer = tuple(f"Line {i}.\n\n" for i in range(30))
    rotary = make_app(script=FakeScript(answers=[long_answer] * 2, token_delay=0.001))
    rotary.window.resize(900, 500)
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "one")
    wait_idle(qtbot, rotary)
    bar = rotary.window.chat.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    bar.setValue(0)                                   # the reader scrolls up
    _send(qtbot, rotary, "two")
    wait_idle(qtbot, rotary)
    qtbot.waitUntil(lambda: bar.value() == bar.maximum() > 0, timeout=2000)


def test_answers_run_one_at_a_time_and_a_waiting_one_can_be_stopped(qtbot, make_app):
    rotary = _app(make_app, LONG, ("Third",))
    wait_ready(qtbot, rotary)
    bridge, finished, started = rotary.bridge, [], []
    on_request_events(bridge, RequestFinished, finished.append)
    on_request_events(bridge, RequestStarted, lambda event: started.append(event.request_id))
    first = bridge.chat([("user", "one")], 0.7)
    second = bridge.chat([("user", "two")], 0.7)
    third = bridge.chat([("user", "three")], 0.7)
    qtbot.waitUntil(lambda: started == [first], timeout=3000)
    engine = rotary.fake["engine"]
    chats = lambda: [r.request_id for r in engine.requests if hasattr(r, "messages")]  # noqa: E731
    assert chats() == [first]                     # the others wait in the engine's queue
    assert bridge.waits(second) and bridge.waits(third) and not bridge.waits(first)
    bridge.stop(second)                            # it will never start
    bridge.stop(first)
    qtbot.waitUntil(lambda: len(finished) == 3, timeout=5000)
    assert [e.request_id for e in finished] == [first, second, third]
    assert finished[0].stats.stop_reason == "stopped"
    assert finished[1].text == "" and finished[1].stats.stop_reason == "stopped"
    assert finished[2].text == "Third" and started == [first, third]
    assert chats() == [first, third]


def test_changing_the_model_stops_answers_and_says_so(qtbot, make_app):
    """A model reload stops the answer being written and one left in another
    conversation; both are kept, labelled as stopped by the change, not by the user."""
    rotary = _app(make_app, LONG, LONG)
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Left one")
    _streaming(qtbot, rotary)
    left = rotary.session.store.conversation_id
    rotary.session.chat.new_chat()
    _send(qtbot, rotary, "Open one")             # waits behind the left one
    rotary.reload_model()
    _all_settled(qtbot, rotary)
    kept = rotary.history.messages(left)
    assert kept[1].stats.stop_reason == "reloaded" and kept[1].content.startswith(" w0")
    assert [m.role for m in rotary.history.messages(rotary.session.store.conversation_id)] == ["user"]
    wait_ready(qtbot, rotary)
    rotary.session.chat.open_conversation(left)
    status = rotary.window.chat.message_widgets[1].status.text()
    assert status == "Stopped when the model was changed."


def test_an_empty_answer_says_the_model_gave_none_and_is_logged(qtbot, make_app, caplog):
    rotary = _app(make_app, (), ("  ", "\n"), ("Fine",))
    wait_ready(qtbot, rotary)
    pane = rotary.window.chat
    for question in ("Nothing comes", "Only spaces come"):
        _send(qtbot, rotary, question)
        wait_idle(qtbot, rotary)
        notice = rotary.notices.history[-1]
        assert notice.level == "warning" and notice.message.startswith("The model gave no answer.")
        assert "chat template" in notice.message
        assert rotary.window.notice_bar.isVisible()
        # No empty bubble; the question stays, with Write again on it.
        assert [w.role for w in pane.message_widgets][-1] == "user"
        assert pane.message_widgets[-1].regenerate_button.isVisibleTo(pane.message_widgets[-1])
        pane.message_widgets[-1].edit_button.click()
        pane.composer.clear()
    assert sum("the model gave no answer" in r.getMessage() for r in caplog.records) == 2
    assert [m.role for m in rotary.history.messages(rotary.session.store.conversation_id)] == [
        "user", "user"]


def test_an_empty_answer_from_a_base_model_names_the_reason(qtbot, make_app):
    rotary = make_app(script=FakeScript(answers=[()], chat_template=None))
    wait_ready(qtbot, rotary)
    _send(qtbot, rotary, "Hello?")
    wait_idle(qtbot, rotary)
    message = rotary.notices.history[-1].message
    assert message.startswith("The model gave no answer.") and "base model" in message


def test_a_message_sent_behind_an_answer_still_stopping_says_it_waits(qtbot, make_app):
    """After New chat, a message queued behind the old answer (still
    stopping: a server that hangs) said nothing; it now says it waits, until its turn."""
    rotary = make_app(script=FakeScript(answers=[LONG, ("Fresh",)], first_token_delay=0.6))
    wait_ready(qtbot, rotary)
    phases = []
    rotary.chat.phase_changed.connect(phases.append)
    old = rotary.bridge.chat([("user", "old")], 0.7)     # still reading its prompt
    qtbot.waitUntil(lambda: rotary.fake["engine"].requests[-1].request_id == old, timeout=3000)
    _send(qtbot, rotary, "New question")
    assert phases[-1] == "Waiting for the previous answer to end…"
    rotary.bridge.stop(old)
    qtbot.waitUntil(lambda: phases[-1] in ("Reading your message…", "Writing the answer…"),
                    timeout=3000)
    wait_idle(qtbot, rotary)
    assert rotary.session.store.messages[-1].content == "Fresh"
