"""Help (F1): a short guide, where models come from, the log folder, and About.

The texts open in a window that does not block the chat (``QMessageBox.open``), so the
user can read them beside the conversation. About names the versions and where the model
runs now (the back-end in use, from the loaded model's measured placement).
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from engine.api import ModelLoaded
from app.text.i18n import tr
from app.text.messages import say
from app.widgets.notifications import log_file_path, versions_text

log = logging.getLogger("rotary.help")


def guide_text() -> str:
    return "<br><br>".join((
        "<b>" + tr("Getting started") + "</b>",
        tr("Type a question in the box at the bottom and press Enter. The answer is written "
           "on this computer; nothing is sent to the internet."),
        tr("To ask about a document, press Attach… (or drop the file on the window), then "
           "ask your question or press Summarise."),
        tr("Stop ends an answer at once and keeps what was written. Your conversations are "
           "listed on the left and kept when Rotary closes."),
        tr("The panel on the right shows how fast the answer is written and how much memory "
           "the model uses. Settings (Ctrl+,) changes the model and how much it remembers."),
        tr("Where something goes wrong, the notice at the top says what to do; its \"Copy "
           "details\" button copies what your IT contact needs."),
    ))


def models_text() -> str:
    return "<br><br>".join((
        "<b>" + tr("Where models come from") + "</b>",
        tr("A model is one large file whose name ends in .gguf (often several gigabytes). "
           "Rotary does not include one, apart from a very small demo model for trying it "
           "out."),
        tr("At work, ask your IT contact for a model file approved by your organisation."),
        tr("If you are allowed to download files, models are published on Hugging Face "
           "(huggingface.co): look for a model in GGUF format whose name contains "
           "\"Instruct\" or \"Chat\", in a size that fits your computer."),
        tr("Then choose the file in Settings (Ctrl+,) or in First-time setup."),
    ))


def about_text(loaded: ModelLoaded | None, on_server: bool = False) -> str:
    """``loaded``: the engine's ModelLoaded of the model on this computer (None: none, or
    the office server's, ``on_server``)."""
    placement = None if loaded is None else loaded.placement
    if on_server:
        running = tr("The model runs on the office server.")
    elif placement is not None and placement.message is not None:
        running = say(placement.message) + " " + tr("Back-end: {backend}.").format(
            backend=placement.backend)
    elif loaded is not None:
        running = tr("The model runs on this computer.")
    else:
        running = tr("No model is loaded.")
    return "<br><br>".join((
        "<b>Rotary</b>",
        tr("Rotary runs language models on this computer, without the internet."),
        versions_text().replace(", ", "<br>"),
        running,
        tr("Log file: {path}").format(path=log_file_path() or tr("none")),
    ))


def log_folder(fallback: Path) -> Path:
    """Where the log is written (the handler's file), else where it would be."""
    path = log_file_path()
    return Path(path).parent if path else fallback.parent


def open_log_folder(fallback: Path, parent: QWidget | None = None) -> QMessageBox | None:
    """Open the log folder in the file manager; where none is registered (openUrl says
    False: nothing visible happened), say where it is and offer to copy the path."""
    folder = log_folder(fallback)
    folder.mkdir(parents=True, exist_ok=True)
    if QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder))):
        return None
    log.warning("no file manager opened the log folder %s: its path is shown instead", folder)
    return show_log_path(parent, folder)


def show_log_path(parent: QWidget | None, folder: Path) -> QMessageBox:
    box = QMessageBox(QMessageBox.Icon.Information, tr("The log folder"),
                      tr("Rotary could not open a file manager on this computer. The log "
                         "folder is:") + f"\n\n{folder}", QMessageBox.StandardButton.Close,
                      parent)
    box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    copy = box.addButton(tr("Copy the path"), QMessageBox.ButtonRole.ActionRole)
    copy.setAccessibleName(tr("Copy the log folder's path"))
    # An action button would close the box: the path is copied and the box stays.
    copy.clicked.disconnect()
    copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(str(folder)))
    box.setAccessibleName(tr("The log folder"))
    box.open()
    return box


def show_text(parent: QWidget, title: str, text: str) -> QMessageBox:
    """Non-blocking: the box stays open beside the chat until closed."""
    box = QMessageBox(QMessageBox.Icon.Information, title, text, QMessageBox.StandardButton.Close,
                      parent)
    box.setTextFormat(Qt.TextFormat.RichText)
    box.setAccessibleName(title)
    box.open()
    return box
