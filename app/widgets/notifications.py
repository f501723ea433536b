"""The one place errors reach the user (napari's notification manager, Anki's errors).

Typed ``EngineError``s, unexpected exceptions from ``sys.excepthook``,
``threading.excepthook`` and qasync slots, and warnings about settings or history
all become a ``Notice``: a plain message, optional details for "Copy details",
and optional actions. Every notice also goes to the log file (logs/rotary.log), errors
with their traceback. Errors never go into a chat answer.
"""

from __future__ import annotations

import asyncio
import json
import logging
import platform
import sys
import threading
import traceback
from dataclasses import dataclass, field
from importlib import metadata
from logging.handlers import RotatingFileHandler
from pathlib import Path
from types import TracebackType
from typing import Callable, cast

from PySide6.QtCore import QObject, Signal

from engine.api import ModelLoaded, ServerModelLoaded
from engine.errors import EngineError
from engine.recipe import Recipe, recipe_to_dict
from app.text.error_text import error_text
from app.text.i18n import english, tr

log = logging.getLogger("rotary.notices")
_LOG_LEVELS = {"info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}


@dataclass(frozen=True)
class NoticeAction:
    label: str
    callback: Callable[[], None]


@dataclass(frozen=True)
class Notice:
    level: str                      # "info", "warning" or "error"
    message: str
    details: str = ""
    actions: tuple[NoticeAction, ...] = field(default=())


LOG_TAIL_LINES = 40


class DiagnosticContext:
    """What "Copy details" adds for the IT person: versions, the recipe, the log's tail."""

    def __init__(self) -> None:
        self.recipe: Recipe | None = None     # of the model in use

    def remember_model(self, loaded: ModelLoaded | ServerModelLoaded) -> None:
        """Slot for EngineBridge.model_loaded (an engine.api.ModelLoaded)."""
        self.recipe = getattr(loaded, "recipe", None)     # None: the model is on the office server

    def text(self) -> str:
        recipe = json.dumps(recipe_to_dict(self.recipe), indent=1) if self.recipe else "none loaded"
        return (f"---- versions\n{_versions()}\n---- recipe\n{recipe}\n"
                f"---- log file\n{log_file_path() or 'none'}\n"
                f"---- log (last {LOG_TAIL_LINES} lines)\n{_log_tail(LOG_TAIL_LINES)}")


def copy_details_text(notice: "Notice", context: DiagnosticContext) -> str:
    """The text "Copy details" puts on the clipboard."""
    return f"{notice.message}\n\n{notice.details}".strip() + "\n\n" + context.text()


def _versions() -> str:
    def version(name: str) -> str:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return "unknown"
    llama = sys.modules.get("llama_cpp")        # never imported here just to read it
    from PySide6 import __version__ as pyside   # noqa: PLC0415
    bundle = " (installed bundle)" if getattr(sys, "frozen", False) else ""
    return (f"Rotary {version('rotary')}{bundle}"
            f", Python {platform.python_version()}, PySide6 {pyside}, llama-cpp-python "
            f"{getattr(llama, '__version__', 'not loaded')}, {platform.platform()}")


def versions_text() -> str:
    """Rotary's version and those it runs on (Help → About says them too)."""
    return _versions()


def log_file_path() -> str:
    """The log file the app writes ("" where none is set up, as in the tests)."""
    files = [h.baseFilename for h in logging.getLogger().handlers
             if isinstance(h, RotatingFileHandler)]
    return files[0] if files else ""


def _log_tail(lines: int) -> str:
    path = Path(log_file_path()) if log_file_path() else None
    if path is None or not path.exists():
        return "no log file"
    with path.open("rb") as log:
        log.seek(max(0, path.stat().st_size - 200 * lines))
        text = log.read().decode("utf-8", errors="replace")
    return "\n".join(text.splitlines()[-lines:])


class NotificationService(QObject):
    """Lives on the GUI thread; ``post`` may be called from any thread."""

    posted = Signal(object)          # Notice
    withdrawn = Signal(object)       # Notice that no longer applies (its banner goes away)
    _posted_from_thread = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.history: list[Notice] = []
        # A signal emitted on another thread reaches this slot queued, on our thread.
        self._posted_from_thread.connect(self._deliver)

    def post(self, notice: Notice, logged: bool = False) -> Notice:
        """Show ``notice``; it also goes to the log file unless the caller logged it."""
        if not logged:        # the log is in English whatever the interface's language
            log.log(_LOG_LEVELS.get(notice.level, logging.ERROR), "%s%s",
                    english(notice.message), f"\n{english(notice.details)}"
                    if notice.details else "")
        if threading.current_thread() is threading.main_thread():
            self._deliver(notice)
        else:
            self._posted_from_thread.emit(notice)
        return notice

    def _deliver(self, notice: Notice) -> None:
        self.history.append(notice)
        self.posted.emit(notice)

    def withdraw(self, notice: Notice) -> None:
        """GUI thread only: e.g. the user cancelled the dialog the notice was about."""
        self.withdrawn.emit(notice)

    def info(self, message: str, *actions: NoticeAction) -> Notice:
        return self.post(Notice("info", message, "", actions))

    def warning(self, message: str, details: str = "", *actions: NoticeAction) -> Notice:
        return self.post(Notice("warning", message, details, actions))

    def engine_error(self, error: EngineError, *actions: NoticeAction) -> Notice:
        """Logged with its traceback when it was raised (not only constructed)."""
        message, details = error_text(error)
        notice = Notice("error", message, details or repr(error), actions)
        log.error("%s\n%s", english(notice.message), english(notice.details),
                  exc_info=error if error.__traceback__ is not None else None)
        return self.post(notice, logged=True)

    def unexpected(self, exc_type: type[BaseException], exc: BaseException,
                   tb: TracebackType | None) -> None:
        if isinstance(exc, EngineError):
            log.error("Engine error nobody caught: %s", exc.message, exc_info=(exc_type, exc, tb))
            message, details = error_text(exc)
            self.post(Notice("error", message, details or repr(exc)), logged=True)
            return
        log.error("Unexpected error", exc_info=(exc_type, exc, tb))
        details = "".join(traceback.format_exception(exc_type, exc, tb))
        self.post(Notice("error", tr("Something went wrong inside Rotary. Your conversations "
                                     "are safe. If it happens again, copy the details "
                                     "for your IT contact."), details), logged=True)


def install_exception_hooks(service: NotificationService) -> Callable[[], None]:
    """Route uncaught exceptions (main thread, other threads, qasync slots) to
    ``service``, which logs each with its traceback (logs/rotary.log) and shows it.
    Returns a function that puts the previous hooks back."""
    previous_sys, previous_thread = sys.excepthook, threading.excepthook

    def on_exception(exc_type: type[BaseException], exc: BaseException,
                     tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            previous_sys(exc_type, exc, tb)
            return
        service.unexpected(exc_type, exc, tb)      # logs the traceback, then shows it

    def on_thread_exception(args: threading.ExceptHookArgs) -> None:
        # typed optional, but an exception that ended a thread always has a value
        on_exception(args.exc_type, cast(BaseException, args.exc_value), args.exc_traceback)

    sys.excepthook, threading.excepthook = on_exception, on_thread_exception

    def uninstall() -> None:
        sys.excepthook, threading.excepthook = previous_sys, previous_thread
    return uninstall


def asyncio_exception_handler(service: NotificationService
                              ) -> Callable[[asyncio.AbstractEventLoop, dict[str, object]], None]:
    """For ``loop.set_exception_handler``: task errors nobody awaited."""
    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
        exc = context.get("exception")
        if not isinstance(exc, BaseException):    # asyncio puts an exception here, or none
            service.warning(tr("Something went wrong inside Rotary."),
                            str(context.get("message", "")))
            return
        service.unexpected(type(exc), exc, exc.__traceback__)
    return handle
