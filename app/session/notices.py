"""The notice bar as the session uses it (app.widgets.notifications.NotificationService meets
it): one protocol for the chat and the documents, and the one "The model is not ready yet"
notice, said when the user sends or attaches while the model loads (app.session.chat_session,
app.session.document_session) and withdrawn once it is ready (``Session.set_model_ready``)."""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from engine.errors import EngineError
from app.text.i18n import tr

N = TypeVar("N")


class Notices(Protocol[N]):
    """Where the user is told; ``N`` is a notice's handle, given back to withdraw it."""

    def info(self, message: str) -> N: ...

    def warning(self, message: str, details: str = "") -> N: ...

    def engine_error(self, error: EngineError) -> N: ...

    def withdraw(self, notice: N) -> None: ...


class NotReady(Generic[N]):
    """The one "not ready" notice, shared by the chat and the documents."""

    def __init__(self, notices: Notices[N]) -> None:
        self.notices = notices
        self._shown: N | None = None

    def say(self) -> None:
        """Said again: the earlier one goes, so the bar holds one."""
        self.withdraw()
        self._shown = self.notices.info(tr("The model is not ready yet. Please wait until "
                                           "loading has finished."))

    def withdraw(self) -> None:
        if self._shown is not None:
            self.notices.withdraw(self._shown)
            self._shown = None
