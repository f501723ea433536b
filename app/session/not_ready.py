""""The model is not ready yet": said when the user sends, or attaches, while the model loads
(app.session.chat_session, app.session.document_session). One such notice at a time, however
often the user clicks, and withdrawn once the model is ready (``Session.set_model_ready``)."""

from __future__ import annotations

from typing import Generic

from app.session.document_problems import N, Notices
from app.text.i18n import tr


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
