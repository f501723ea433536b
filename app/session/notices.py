"""The notice bar as the session uses it (app.widgets.notifications.NotificationService meets
it): one protocol for the chat and the documents, and ``OneNotice``, one notice of a kind at a
time. "The model is not ready yet" is one, said when the user sends or attaches while the model
loads and withdrawn once it is ready (``Session.set_model_ready``); the documents' "Please wait
until…" another, withdrawn when the work it waits for ends."""

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


class OneNotice(Generic[N]):
    """One notice of a kind on the bar at a time: saying it again replaces it, however often
    the user clicks; withdrawn once it no longer applies."""

    def __init__(self, notices: Notices[N]) -> None:
        self.notices = notices
        self._shown: N | None = None

    def say(self, message: str) -> None:
        self.withdraw()
        self._shown = self.notices.info(message)

    def withdraw(self) -> None:
        if self._shown is not None:
            self.notices.withdraw(self._shown)
            self._shown = None

    @property
    def shown(self) -> bool:
        return self._shown is not None


def not_ready_text() -> str:
    return tr("The model is not ready yet. Please wait until loading has finished.")
