"""Hand-offs to the GUI thread.

Qt objects may be touched only on the thread they live on; other threads (the engine's
listener, asyncio callbacks) queue callables here and the event loop runs them in order.
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
