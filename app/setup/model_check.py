"""A reusable "choose a model file and check it" row, used by the wizard and settings.

Checking (inspect + plan + describe) runs on a worker through the bridge; the fit is
shown as a colour *and* words (green/yellow/red are never the only signal).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import QMimeData, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (QFileDialog, QHBoxLayout, QLabel, QLineEdit, QPushButton,
                               QVBoxLayout, QWidget)

from engine.errors import EngineError
from engine.messages import msg
from app.bridge.engine_bridge import EngineBridge
from app.bridge.facade import ModelCheck, words_per_token
from app.text.error_text import error_text
from app.text.i18n import tr
from app.text.messages import say
from app.widgets.notifications import Notice, NotificationService
from app.widgets.theme import fit_colour


TYPING_PAUSE_MS = 400


def fit_words(level: str) -> str:
    return {"green": tr("Fits well."), "yellow": tr("Fits, but only just."),
            "red": tr("Too big for this computer.")}.get(level, "")


def speed_details(expected_tps: tuple[float, float], measured: bool = False) -> str:
    """The estimate in tokens, for the tooltip beside the estimate in words."""
    try:
        low, high = expected_tps
    except (TypeError, ValueError):
        return ""
    if not high:
        return ""
    values = dict(low=f"{low:.0f}", high=f"{high:.0f}", ratio=f"{words_per_token():.2f}")
    if measured:
        return tr("Measured on this computer with this model and setting, over its last "
                  "answers: {low}–{high} tokens per second. A token is a piece of a word; "
                  "words shown are tokens × {ratio}.").format(**values)
    return tr("Estimated for this computer: {low}–{high} tokens per second. A token is a "
              "piece of a word; words shown are tokens × {ratio}. Rotary measures the real "
              "speed during the first answers, and then names one figure.").format(**values)


def is_model_drop(mime: QMimeData | None) -> str | None:
    """The local .gguf path in a drag-and-drop, if there is one."""
    for url in mime.urls() if mime is not None and mime.hasUrls() else ():
        if url.isLocalFile() and url.toLocalFile().lower().endswith(".gguf"):
            return url.toLocalFile()
    return None


class ModelChooser(QWidget):
    check_started = Signal()
    check_finished = Signal(object)        # ModelCheck, or None when the file is unusable
    cleared = Signal()                     # the path box was emptied: no file, no verdict

    def __init__(self, bridge: EngineBridge, notices: NotificationService,
                 preset: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge, self.notices, self.preset = bridge, notices, preset
        self.advanced: dict[str, int] = {}     # the Advanced values the check plans with
        self.result: ModelCheck | None = None
        self.problem: Notice | None = None   # the notice about the last unusable file
        self.path = ""                     # the file checked or being checked
        # A path typed or pasted is checked once the typing pauses (Next waited for Enter).
        self.typing_pause = QTimer(self, singleShot=True, interval=TYPING_PAUSE_MS)
        self.typing_pause.timeout.connect(self._typing_paused)
        self.shown_as = ""                 # a name the box shows instead of self.path
        self.path_edit = QLineEdit()
        self.path_edit.setAccessibleName(tr("Model file"))
        self.path_edit.setPlaceholderText(tr("Choose a model file, or drop it here"))
        self.path_edit.setToolTip(tr("GGUF: the file format of models for llama.cpp. Such "
                                     "files end in .gguf."))
        self.path_edit.editingFinished.connect(self._check_typed)
        self.path_edit.textEdited.connect(self._on_text_edited)
        self.browse = QPushButton(tr("Browse…"))
        self.browse.setAccessibleName(tr("Browse for a model file"))
        self.browse.clicked.connect(self.browse_for_model)
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.verdict.setAccessibleName(tr("Does the model fit"))
        self.setAcceptDrops(True)
        self._layout()

    def _layout(self) -> None:
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(self.browse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.verdict)

    def browse_for_model(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("Choose a model file"), str(Path.home()),
                                              tr("Language models (*.gguf)"))
        if path:
            self.check(path)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if is_model_drop(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        path = is_model_drop(event.mimeData())
        if path:
            event.acceptProposedAction()
            self.check(path)

    def check(self, path: str, shown_as: str = "") -> None:
        """Check the model file ``path``; the box shows ``shown_as`` instead where the path
        means nothing to the user (the demo model's hidden folder)."""
        path = path.strip()
        if not path or (self.result is not None and self.result.path == path):
            return
        self.typing_pause.stop()
        self.path, self.shown_as = path, shown_as
        self.path_edit.setText(shown_as or path)
        self.result = None
        self.withdraw_problem()
        self.verdict.setText(say(msg("runtime.checking_file")))
        self.check_started.emit()
        asyncio.ensure_future(self._check(path))

    async def _check(self, path: str) -> None:
        try:
            result = await self.bridge.checks.check_model(path, self.preset, self.advanced)
        except EngineError as error:
            if path != self.path:
                return          # the user has moved on to another file (or none)
            self.verdict.setText(error_text(error)[0])      # already says what is wrong, once
            self.problem = self.notices.engine_error(error)
            self.check_finished.emit(None)
            return
        if path == self.path:
            self.show_result(result)

    def _on_text_edited(self, text: str) -> None:
        """Typing or clearing the path makes the old verdict (and its notice) stale."""
        if self.result is not None and self.result.path == text.strip():
            return
        self.path, self.shown_as = text.strip(), ""
        self.typing_pause.start()
        self.result = None
        self.withdraw_problem()
        self.verdict.setText("")
        self.verdict.setAccessibleDescription("")
        if not text.strip():
            self.cleared.emit()

    def _check_typed(self) -> None:
        """Enter, or leaving the box: check what is there (unless it is the name shown)."""
        text = self.path_edit.text().strip()
        if text and text != self.shown_as:
            self.check(text)

    def _typing_paused(self) -> None:
        """A half-typed path says nothing yet; one that names a file is checked now."""
        text = self.path_edit.text().strip()
        if text and Path(text).is_file():
            self.check(text)

    def withdraw_problem(self) -> None:
        """Take back the notice about an earlier file: the user left it behind."""
        if self.problem is not None:
            self.notices.withdraw(self.problem)
            self.problem = None

    def show_result(self, result: ModelCheck) -> None:
        self.withdraw_problem()
        self.result = result
        colour = fit_colour(result.level)
        # said in the interface's language by the bridge; then why the setting named is
        # for another card than the one found, if it is
        text = " ".join(part for part in (result.text, getattr(result, "fitted", ""),
                                          getattr(result, "placed", "")) if part)
        self.verdict.setText(f'<b style="color:{colour}">{fit_words(result.level)}</b> {text}')
        self.verdict.setAccessibleDescription(f"{fit_words(result.level)} {text}")
        self.verdict.setToolTip(speed_details(result.expected_tps,
                                              getattr(result, "measured", False)))
        self.check_finished.emit(result)
