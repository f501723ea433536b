"""Hand-offs to the GUI thread.

The PySide6 6.12.0 work-around that lived here (a reference to ``True`` lost on every
``Signal.emit``) is gone: pyproject.toml excludes 6.12.0, and its detector measured no
leak on the pinned versions (6.11.3 here); every module calls ``signal.emit(...)``.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QObject, Qt, Signal


class MainThreadHandoff(QObject):
    """Runs callables on the thread this object lives on (the GUI thread), from any thread.

    A queued connection delivers them in order through the Qt event loop.
    """

    _call = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._call.connect(self._run, Qt.ConnectionType.QueuedConnection)

    def post(self, function: Callable[[], None]) -> None:
        self._call.emit(function)

    @staticmethod
    def _run(function: Callable[[], None]) -> None:
        function()
