"""Files waiting to be read, with no Qt: several dropped or chosen at once are read one after
another (their outcomes said together, app.session.document_problems), and files attached
while the model loads (a moment after the wizard's Finish) wait for it. Each file goes
through the document session (app.session.document_session); once read it is recorded in
the history (app/conversation/history.py, conversation_documents) and the conversation's list
shows it (``ListChanged``; the list itself is app.documents.document_shelf)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Generic, Protocol

from engine.messages import to_data
from app.conversation.history import ConversationDocument
from app.conversation.store import title_from
from app.session import document_events as shown
from app.session.document_problems import N
from app.session.document_session import DocumentSession
from app.text.i18n import tr

_UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f…]')     # not in a file name on any system


class DocumentHistory(Protocol):
    """Where a conversation's documents are recorded (app.conversation.history.HistoryStore)."""

    def add_document(self, conversation_id: int, document: ConversationDocument) -> bool: ...


class DocumentQueue(Generic[N]):
    """``see`` hears every event of the session (before the screen does): a file read or
    failed sends the next one. ``model_loading``: app.setup.loading's flag."""

    def __init__(self, session: DocumentSession[N], history: DocumentHistory,
                 report: Callable[[shown.DocumentEvent], None],
                 model_loading: Callable[[], bool] = lambda: False) -> None:
        self.session, self.history, self.report = session, history, report
        self.model_loading = model_loading
        self.waiting: tuple[str, ...] = ()    # the rest of the files attached together
        self.held: tuple[str, ...] = ()       # attached while the model loads

    def attach(self, paths: list[str]) -> bool:
        """Read ``paths`` one after another into the open conversation (or a new one)."""
        if not paths:
            return False
        if not self.session.jobs.model_ready and self.model_loading():
            self.held += tuple(path for path in paths if path not in self.held)
            self._say_held(tr("Waiting for the model to finish loading before reading."))
            return True
        self.waiting = tuple(paths)
        self.session.problems.collect(len(paths))
        self._next()
        return self.session.task is not None

    def attach_text(self, text: str, folder: Path, key: str) -> bool:
        """A message's text (refused as too long to read as a message) as a document of the
        open conversation: written to a text file under ``folder``/``key`` (named after its
        first line, as the conversation list names it) and read like a dropped file."""
        name = _UNSAFE.sub(" ", title_from(text)).strip(" .") or "message"
        path = folder / key / f"{name[:60]}.txt"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as error:
            self.session.notices.warning(tr("The text could not be saved as a document."),
                                         repr(error))
            return False
        return self.attach([str(path)])

    def read_held(self, *_ready: object) -> None:
        """The model is ready: the documents attached while it loaded are read now."""
        held, self.held = list(self.held), ()
        self.attach(held)

    def load_failed(self) -> None:
        """They wait on for a model that loads (the load's notice says what to do)."""
        if self.held:
            self._say_held(tr("The model could not be loaded. Reading starts as soon as a "
                              "model has loaded."))

    def _say_held(self, why: str) -> None:
        self.report(shown.WaitingForModel(", ".join(Path(path).name for path in self.held),
                                          why))
        self.follow_conversation()

    def follow_conversation(self, *_args: object) -> None:
        """Held documents go to the conversation open when the model is ready: the card
        shows in any."""
        if self.held:
            self.report(shown.HereChanged(True))
        else:
            self.session.follow_conversation()

    def dismiss(self) -> None:
        """Cancel on the card ("Don't read" while the model loads)."""
        if self.session.dismiss():
            self.held = ()

    def see(self, event: object) -> None:
        if isinstance(event, shown.Read):
            self._read(event)
        elif isinstance(event, shown.OverviewReady):
            self._next()                 # its style is chosen on the card: the next file
        elif isinstance(event, shown.Done):
            if event.summary is None:    # this file failed (the notice says why): the next
                self._next()
            self.report(shown.ListChanged())

    def _read(self, event: shown.Read) -> None:
        """A document was read (Edit and Write again read it again): it is on its
        conversation's list, even after the user took it off."""
        overview = event.overview
        if event.conversation_id is not None and overview.sha256:
            self.history.add_document(event.conversation_id, ConversationDocument(
                overview.sha256, overview.name, str(Path(event.path)),
                {"found": to_data(overview.found) if overview.found else None,
                 "notes": [to_data(note) for note in overview.notes]}))
        self.report(shown.ListChanged())

    def _next(self) -> None:
        while self.waiting:
            path, self.waiting = self.waiting[0], self.waiting[1:]
            if self.session.open_file(path):
                return
        self.session.problems.say_together()
