"""Settings → "Where the model runs": this computer, or an office server.

``ServerSettingsBox`` is the group in the Settings dialog; ``use_server_if_chosen`` is the
model loader's hook; ``offer_server_button`` is the wizard's offer on a computer without a GPU.
Everything slow (asking the server for its models) runs on a worker through the bridge.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from pathlib import Path
from typing import Callable, Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QButtonGroup, QCheckBox, QComboBox, QFileDialog, QFormLayout,
                               QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton,
                               QRadioButton, QVBoxLayout, QWidget)

from engine.errors import EngineError, ServerError
from app.bridge.engine_bridge import EngineBridge
from app.widgets.accessibility import announce
from app.text.error_text import error_text
from app.text.i18n import english, tr
from app.widgets.notifications import NoticeAction, NotificationService
from app.settings.server import (KeyringUnavailable, KeyStore, ServerConnection,
                                       connection_for, receiver_words, uses_server)
from app.settings.model import Settings
from app.widgets.theme import fit_colour

log = logging.getLogger("rotary.server")

class ServerSettingsBox(QGroupBox):
    """The "Where the model runs" group; ``apply`` gives the new Settings."""

    validity_changed = Signal(bool)

    def __init__(self, settings: Settings, bridge: EngineBridge, notices: NotificationService,
                 keys: KeyStore | None = None, parent: QWidget | None = None) -> None:
        super().__init__(tr("Where the model runs"), parent)
        self.bridge, self.notices, self.keys = bridge, notices, keys or KeyStore()
        self.local = QRadioButton(tr("This computer"))
        self.server = QRadioButton(tr("An office server"))
        group = QButtonGroup(self)
        group.addButton(self.local)
        group.addButton(self.server)
        (self.server if settings.engine_location == "server" else self.local).setChecked(True)
        self.details = self._server_fields(settings)
        self.receiver = QLabel()
        self.receiver.setWordWrap(True)
        self.receiver.setAccessibleName(tr("Where your conversations are sent"))
        layout = QVBoxLayout(self)
        for part in (self.local, self.server, self.details, self.receiver):
            layout.addWidget(part)
        self.server.toggled.connect(self._refresh)
        self.address.textChanged.connect(self._refresh)
        for field in (self.address, self.key):        # what the server said no longer holds
            field.textEdited.connect(lambda _text: self.show_problem(""))
        self.model.currentTextChanged.connect(self._refresh)
        self._refresh()

    # ---- building ---------------------------------------------------------------------------

    def _server_fields(self, settings: Settings) -> QWidget:
        box = QWidget()
        self.address = QLineEdit(settings.server_url)
        self.address.setPlaceholderText("https://ai.office.lan:8000")
        self.address.setAccessibleName(tr("Office server address"))
        self.model = QComboBox()
        self.model.setEditable(True)
        self.model.setAccessibleName(tr("Model on the office server"))
        editor = self.model.lineEdit()           # there is one: the box is editable
        assert editor is not None
        editor.setAccessibleName(tr("Model on the office server"))
        if settings.server_model:
            self.model.addItem(settings.server_model)
        self.find_models = QPushButton(tr("Ask the server for its models"))
        self.find_models.clicked.connect(lambda: asyncio.ensure_future(self.fetch_models()))
        # Its answer is said here, where the user asked (in the main window it would be
        # hidden behind this dialog); it goes when the fields change.
        self.models_problem = _problem_label(tr("What the server said"))
        self.key = QLineEdit(self._stored_key(settings.server_url))
        self.key_at_open = self.key.text()
        self.key.setEchoMode(QLineEdit.EchoMode.Password)
        self.key.setAccessibleName(tr("Access key (leave empty if the server needs none)"))
        # Said before the key is typed: whether it will still be there after a restart.
        self.key_note = QLabel(tr("The key is kept in this computer's password store, "
                                  "not in Rotary's files.") if self.keys.keeps_keys() else
                               tr("This computer has no password store, so Rotary keeps the "
                                  "key only until it closes: type it again after a restart. "
                                  "It is never written to Rotary's files."))
        self.key_note.setWordWrap(True)
        self.verify = QCheckBox(tr("Check the server's security certificate (recommended)"))
        self.verify.setChecked(settings.server_verify_tls)
        self.tls_warning = QLabel(tr("Without this check, someone on the network could "
                                     "pretend to be the server and read your conversations."))
        self.tls_warning.setWordWrap(True)
        self.verify.toggled.connect(lambda checked: self.tls_warning.setVisible(not checked))
        self.tls_warning.setVisible(not settings.server_verify_tls)
        self.ca_bundle = QLineEdit(settings.server_ca_bundle)
        self.ca_bundle.setAccessibleName(tr("The office's certificate file (optional)"))
        browse = QPushButton(tr("Browse…"))
        browse.clicked.connect(self._browse_ca)
        ca_row = QHBoxLayout()
        ca_row.addWidget(self.ca_bundle, 1)
        ca_row.addWidget(browse)
        model_row = QHBoxLayout()
        model_row.addWidget(self.model, 1)
        model_row.addWidget(self.find_models)
        form = QFormLayout(box)
        form.addRow(tr("Address:"), self.address)
        form.addRow(tr("Model:"), model_row)
        form.addRow("", self.models_problem)
        form.addRow(tr("Access key:"), self.key)
        form.addRow("", self.key_note)
        form.addRow("", self.verify)
        form.addRow("", self.tls_warning)
        form.addRow(tr("Office certificate:"), ca_row)
        return box

    def _stored_key(self, url: str) -> str:
        return (self.keys.get(url.strip()) or "") if url else ""

    def _browse_ca(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("The office's certificate file"),
                                              str(Path.home()),
                                              tr("Certificates (*.pem *.crt *.cer);;All files (*)"))
        if path:
            self.ca_bundle.setText(path)

    # ---- state ------------------------------------------------------------------------------

    def _refresh(self, *_args: object) -> None:
        on_server = self.server.isChecked()
        self.details.setVisible(on_server)
        address = None
        if on_server:
            try:
                address = self.bridge.server_address(self.address.text().strip())
            except EngineError:
                self.receiver.setText(tr("Type the server's address, for example "
                                         "https://ai.office.lan:8000."))
                self.validity_changed.emit(False)
                return
        self.receiver.setText(receiver_words(address))
        self.validity_changed.emit(self.is_valid())

    def bind_local_fields(self, widgets: Sequence[QWidget]) -> None:
        """This computer's model settings mean nothing while the office server is used."""
        def follow(on_server: bool) -> None:
            for widget in widgets:
                widget.setEnabled(not on_server)
        self.server.toggled.connect(follow)
        follow(self.server.isChecked())

    def is_valid(self) -> bool:
        if not self.server.isChecked():
            return True
        try:
            self.bridge.server_address(self.address.text().strip())
        except EngineError:
            return False
        return bool(self.model.currentText().strip())

    def key_changed(self) -> bool:
        """A new access key was typed (it lives outside the settings, in the key store)."""
        return self.server.isChecked() and self.key.text() != self.key_at_open

    def connection(self) -> ServerConnection:
        return ServerConnection(self.address.text().strip(), self.model.currentText().strip(),
                                self.key.text() or None, self.verify.isChecked(),
                                self.ca_bundle.text().strip() or None)

    async def fetch_models(self) -> list[str]:
        """Fill the model list from the server's /v1/models."""
        self.show_problem("")
        try:
            models = await self.bridge.server_models(self.connection())
        except EngineError as error:
            message, details = error_text(error)
            log.warning("asking the server for its models: %s\n%s", english(message),
                        english(details))
            self.show_problem(message)
            return []
        current = self.model.currentText()
        self.model.clear()
        self.model.addItems(models)
        if current in models:
            self.model.setCurrentText(current)
        return models

    def show_problem(self, message: str) -> None:
        self.models_problem.setText(message)
        self.models_problem.setVisible(bool(message))
        if message:
            announce(self.models_problem, message)

    def apply(self, settings: Settings) -> Settings:
        """The new settings; stores the key in the keyring (a plain notice if there is none)."""
        chosen = replace(settings, engine_location="server" if self.server.isChecked() else "local",
                         server_url=self.address.text().strip(),
                         server_model=self.model.currentText().strip(),
                         server_verify_tls=self.verify.isChecked(),
                         server_ca_bundle=self.ca_bundle.text().strip())
        if self.server.isChecked() and chosen.server_url:
            try:
                self.keys.set(chosen.server_url, self.key.text())
            except KeyringUnavailable as error:
                if self.key.text():
                    self.notices.warning(error.message, error.details)
        return chosen


# ---- the model loader's hook (app/setup/loading.py) ----------------------------------------------

def use_server_if_chosen(settings: Settings, bridge: EngineBridge) -> bool:
    """Connect the bridge to the office server when Settings say so (True), else to this
    computer (False); EngineError when the server's connection cannot be made."""
    if not uses_server(settings):
        bridge.use_server(None)
        return False
    bridge.use_server(connection_for(settings, KeyStore()))
    return True


def on_server_text(model: str) -> str:
    return tr("{model} on the office server").format(model=readable_model_name(model))


def readable_model_name(model: str) -> str:
    """A server's model id as a person reads it: llama-cpp-python's server names a model
    by its file path ("/srv/models/gemma-3-270m-it-Q8_0.gguf" → "gemma-3-270m-it-Q8_0")."""
    name = model.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
    return name[:-5] if name.lower().endswith(".gguf") and len(name) > 5 else name or model


def server_model_name(loaded: object) -> str | None:
    """The name to show once a model on the office server is ready (None: a local model)."""
    server = getattr(loaded, "server", None)
    return on_server_text(server.model) if server is not None else None


def server_failure_actions(error: EngineError, try_again: Callable[[], None]
                           ) -> tuple[NoticeAction, ...]:
    """What the user can do when the office server fails to connect: try again (a local
    model's "safer setting" means nothing there). Empty for a local model's failure."""
    if not isinstance(error, ServerError):
        return ()
    return (NoticeAction(tr("Try again"), try_again),)


# ---- the wizard's offer (app/setup/wizard.py) ------------------------------------------------------

def offer_server_button() -> QPushButton:
    """Shown on the wizard's first page only when this computer has no graphics card."""
    button = QPushButton(tr("My office has a model server: use it instead…"))
    button.setAccessibleName(tr("Use the office's model server instead of this computer"))
    button.setVisible(False)
    return button


def _problem_label(name: str) -> QLabel:
    """A red, wrapped line under a field, hidden until there is something to say."""
    label = QLabel()
    label.setObjectName("fieldProblem")
    label.setWordWrap(True)
    label.setStyleSheet(f"color: {fit_colour('red')};")
    label.setAccessibleName(name)
    label.hide()
    return label
