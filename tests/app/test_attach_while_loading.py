"""A document attached a moment after the wizard's Finish (the model still loading) waits for
the load and is then read, with no error; the card says it waits. It failed with "No model is
loaded yet" (the demo is written before its load starts) or "The model is not ready yet"."""

from __future__ import annotations

from engine.errors import InsufficientMemoryError
from tests.app.conftest import wait_ready
from tests.app.document_helpers import FakeDocuments, drop

WAITS = "Waiting for the model to finish loading"


def _app(make_app, qtbot):
    rotary = make_app()
    wait_ready(qtbot, rotary)
    return rotary, FakeDocuments(rotary.fake["engine"])


def _complaints(rotary) -> list[str]:
    return [n.message for n in rotary.notices.history
            if "loaded yet" in n.message or "not ready" in n.message
            or "cannot be read" in n.message]


def _read_into_the_conversation(qtbot, rotary, docs) -> None:
    panel = rotary.document_widgets.panel
    qtbot.waitUntil(lambda: panel.options.isVisible(), timeout=5000)
    assert [r.inspect_only for r in docs.requests] == [True]
    assert docs.requests[0].conversation_id == rotary.session.store.conversation_id is not None
    assert rotary.history.title(rotary.session.store.conversation_id) == "Jahresbericht.pdf"
    assert not panel.waiting.isVisible() and not _complaints(rotary)


def test_a_document_attached_while_the_demo_model_reloads_waits_then_is_read(
        qtbot, make_app, tmp_path):
    rotary, docs = _app(make_app, qtbot)
    panel = rotary.document_widgets.panel
    rotary.reload_model()                       # what the wizard's Finish sets off
    assert rotary.shelved_documents.attach([str(tmp_path / "Jahresbericht.pdf")])
    assert not _complaints(rotary)
    assert panel.isVisible() and WAITS in panel.found.text()
    assert "Jahresbericht.pdf" in panel.title.text() and panel.drop_button.isVisible()
    _read_into_the_conversation(qtbot, rotary, docs)


def test_a_document_dropped_after_the_wizard_chose_a_model_waits_then_is_read(
        qtbot, make_app, tmp_path):
    rotary, docs = _app(make_app, qtbot)
    model = tmp_path / "chosen.gguf"
    model.write_bytes(b"GGUF" + b"\0" * 64)
    rotary.dialogs.wizard_completed(str(model), "auto")         # Finish in the wizard
    assert not rotary.session.requests.model_ready
    path = tmp_path / "Jahresbericht.pdf"
    path.write_bytes(b"%PDF-1.4")
    assert drop(rotary.window.chat.composer.input, path) == (True, True)
    assert WAITS in rotary.document_widgets.panel.found.text() and not _complaints(rotary)
    _read_into_the_conversation(qtbot, rotary, docs)
    assert rotary.fake["engine"].requests[-2].model_path == str(model)   # read by the new one


def test_a_failed_load_keeps_them_waiting_for_the_next_and_dont_read_drops_them(
        qtbot, make_app, tmp_path):
    rotary, docs = _app(make_app, qtbot)
    panel = rotary.document_widgets.panel
    rotary.fake["script"].fail_load = InsufficientMemoryError("Not enough memory.")
    rotary.reload_model()
    rotary.shelved_documents.attach([str(tmp_path / "Jahresbericht.pdf")])
    qtbot.waitUntil(lambda: "could not be loaded" in panel.found.text(), timeout=5000)
    assert not docs.requests and panel.isVisible()
    rotary.fake["script"].fail_load = None
    rotary.loader.start()                       # e.g. "Try the safer setting"
    _read_into_the_conversation(qtbot, rotary, docs)
    rotary.session.document_queue.dismiss()
    rotary.reload_model()
    rotary.shelved_documents.attach([str(tmp_path / "other.pdf")])
    assert panel.isVisible()
    panel.drop_button.click()                   # "Don't read"
    assert not panel.isVisible() and not rotary.session.document_queue.held
    wait_ready(qtbot, rotary)
    qtbot.wait(100)
    assert len(docs.requests) == 1              # nothing more was read


def test_finish_right_after_the_first_start_loads_the_chosen_model_not_the_demo(
        qtbot, make_app, tmp_path):
    """The demo, still being written when Finish chose a model, loaded after it and replaced
    the user's choice."""
    rotary = make_app(start=False)
    model = tmp_path / "chosen.gguf"
    model.write_bytes(b"GGUF" + b"\0" * 64)
    rotary.start(autoload=True, wizard=False)       # the demo is being written
    rotary.dialogs.wizard_completed(str(model), "auto")
    wait_ready(qtbot, rotary)
    qtbot.wait(300)                                 # time for a late demo load to come
    assert [r.model_path for r in rotary.fake["engine"].requests] == [str(model)]
    assert rotary.session.requests.model_ready and rotary.session.requests.model_name == "Fake MoE 35B"
