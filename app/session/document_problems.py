"""What the user is told about documents that could not be read: one notice for a single
file, or, for several files attached together, one line each said once all were tried (rather
than each notice replacing the last). The last such notice is withdrawn when a new document
starts. Only ``DocumentProblems`` writes these; the session and the queue call its methods."""

from __future__ import annotations

import logging
from typing import Generic

from engine.errors import EngineError, ReadingStoppedError
from app.text.error_text import error_text
from app.session.notices import N, Notices
from app.text.i18n import tr

log = logging.getLogger("rotary.documents")
class DocumentProblems(Generic[N]):
    """The last problem notice, and the outcomes of the files attached together."""

    def __init__(self, notices: Notices[N]) -> None:
        self.notices = notices
        self._shown: N | None = None               # the notice about the last document
        self._outcomes: tuple[tuple[str, str], ...] | None = None   # (name, why not or "")

    def collect(self, count: int) -> None:
        """``count`` files attached together: their outcomes are said together."""
        self._outcomes = () if count > 1 else None

    def refused(self, name: str, said: str) -> None:
        """Not read at all (a kind of file Rotary does not read)."""
        if not self._note(name, said):
            self.notices.info(said)

    def read(self, name: str) -> None:
        self._note(name, "")

    def failed(self, name: str, error: EngineError) -> None:
        if self._note(name, error_text(error)[0]):
            log.error("%s could not be read: %s\n%s", name, error.message, error.details)
        elif isinstance(error, ReadingStoppedError):   # the user's own Stop: said, not an error
            log.info("document stopped before it was read: %s", error.message)
            self._shown = self.notices.info(error_text(error)[0])
        else:
            self._shown = self.notices.engine_error(error)

    def say_together(self) -> None:
        """One notice for files attached together: a line for each, read or why not."""
        outcomes, self._outcomes = self._outcomes or (), None
        failed = [name for name, problem in outcomes if problem]
        if not failed:
            return                      # all read: the list above the messages shows them
        lines = [tr("{name}: read.").format(name=name) if not problem
                 else tr("{name}: not read. {why}").format(name=name, why=problem)
                 for name, problem in outcomes]
        head = tr("{failed} of {count} files could not be read:").format(
            failed=len(failed), count=len(outcomes))
        self._shown = self.notices.warning("\n".join([head, *lines]))

    def withdraw(self) -> None:
        """A new document (or a summary that starts) makes the last notice stale."""
        if self._shown is not None:
            self.notices.withdraw(self._shown)
            self._shown = None

    def _note(self, name: str, problem: str) -> bool:
        """Kept to be said with the other files (False: this file came alone)."""
        if self._outcomes is None:
            return False
        self._outcomes += ((name, problem),)
        return True
