"""Work-arounds for Qt binding bugs, kept in one place with a detector for each.

PySide6 6.12.0: ``SignalInstance.emit()`` called from Python returns ``True`` without
taking a reference, so every emit leaves ``True`` one reference short; after a few
hundred emits CPython aborts ("bool_dealloc: deallocating True or False"). qasync's
``loop.call_soon_threadsafe`` and ``run_in_executor`` emit a signal internally, so we
avoid them and hand work to the GUI thread through ``MainThreadHandoff``, whose emits
go through ``emit()`` below. ``emit()`` gives the missing reference back only when the
bug was detected at import, so a fixed PySide6 needs no change here.
"""

from __future__ import annotations

import ctypes
import sys
from typing import Any, Callable

from PySide6.QtCore import QObject, Qt, Signal


class _Probe(QObject):
    ping = Signal()


def _emit_loses_a_reference(tries: int = 8) -> bool:
    probe = _Probe()
    before = sys.getrefcount(True)
    results = [probe.ping.emit() for _ in range(tries)]
    lost = before - sys.getrefcount(True) + results.count(True)
    del results
    leaks = lost >= tries
    if leaks:
        for _ in range(tries):      # give back what the probe itself took
            ctypes.pythonapi.Py_IncRef(ctypes.py_object(True))
    return leaks


EMIT_LEAKS_TRUE = _emit_loses_a_reference()


def emit(signal: Any, *args: Any) -> None:
    """``signal.emit(*args)``, with the PySide6 6.12.0 reference fixed when needed."""
    result = signal.emit(*args)
    if EMIT_LEAKS_TRUE and result is True:
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(True))


class MainThreadHandoff(QObject):
    """Runs callables on the thread this object lives on (the GUI thread), from any thread.

    A queued connection delivers them in order through the Qt event loop.
    """

    _call = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._call.connect(self._run, Qt.ConnectionType.QueuedConnection)

    def post(self, function: Callable[[], None]) -> None:
        emit(self._call, function)

    @staticmethod
    def _run(function: Callable[[], None]) -> None:
        function()
