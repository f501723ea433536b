"""The models already on this computer, best fit first, for the wizard and Settings.

The engine finds them (LM Studio, Ollama, Jan, GPT4All, the Hugging Face cache, Downloads,
Documents and the organisation's folders) and plans each one with the same entry point as
the model check; the bridge runs that on a worker. Picking one checks it in the model row
(app/setup/model_check.py) exactly as a file chosen by hand; "Other file…" opens the file dialog.
Fit is said in words beside its colour, never by colour alone.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Mapping, Sequence

from shiboken6 import isValid as shiboken_alive
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton,
                               QVBoxLayout, QWidget)

from engine.errors import EngineError
from app.bridge.engine_bridge import EngineBridge
from app.bridge.facade import FoundChoice
from app.text.i18n import tr
from app.setup.model_check import ModelChooser, fit_words, speed_details
from app.widgets.notifications import NotificationService
from app.widgets.theme import fit_colour

GB = 2**30
PATH_ROLE = Qt.ItemDataRole.UserRole
NAME_ROLE = Qt.ItemDataRole.UserRole + 1


def source_words(source: str) -> str:
    return {"lmstudio": tr("from LM Studio"), "ollama": tr("from Ollama"), "jan": tr("from Jan"),
            "gpt4all": tr("from GPT4All"), "huggingface": tr("from Hugging Face"),
            "downloads": tr("in Downloads"), "documents": tr("in Documents"),
            "organisation": tr("from your organisation")}.get(source, "")


def places_words(sources: Sequence[str]) -> str:
    """"from Ollama and from LM Studio": every place that holds the same file."""
    words = [source_words(source) for source in sources if source_words(source)]
    said = words[0] if words else ""
    for more in words[1:]:
        said = tr("{first} and {second}").format(first=said, second=more)
    return said


def what_it_is(choice: FoundChoice) -> str:
    """The header's facts in plain words, for the Details tooltip."""
    parts = [tr("Design: {name}").format(name=choice.architecture)] if choice.architecture else []
    if choice.n_expert:
        parts.append(tr("made of {n} experts").format(n=choice.n_expert))
    if choice.thinks:
        parts.append(tr("can think before answering"))
    return ", ".join(parts)


def choice_text(choice: FoundChoice) -> str:
    size = tr("{size} GB").format(size=f"{choice.size / GB:.1f}")
    head = f"{choice.name}  ({places_words((choice.source, *choice.also))}, {size})"
    if choice.level == "unusable":
        return f"{head}\n{tr('Cannot be used:')} {choice.text}"
    if choice.level == "red":           # the planner's sentence says it does not fit, and why
        return f"{head}\n{choice.text}"
    where = {"graphics card": tr("Runs on the graphics card."),
             "processor": tr("Runs on the processor.")}.get(choice.runs_on, "")
    return f"{head}\n" + " ".join(part for part in (fit_words(choice.level), where, choice.text)
                                  if part)


class ModelList(QWidget):
    chosen = Signal(str, str)          # path, the name the user knows it by
    other_requested = Signal()         # "Other file…"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choices: list[FoundChoice] = []
        self.search = "running"            # then "done" or "failed"
        self.chosen_path = self.chosen_name = ""     # the model the chooser holds now
        self.status = QLabel(tr("Looking for models on this computer…"))
        self.status.setWordWrap(True)
        self.items = QListWidget()
        self.items.setAccessibleName(tr("Models found on this computer, best fit first"))
        self.items.setWordWrap(True)
        self.items.setSpacing(2)
        self.items.setAlternatingRowColors(True)
        self.items.setMinimumHeight(130)      # two models and a half: it says there are more
        self.items.setMaximumHeight(200)
        self.items.itemActivated.connect(self._activated)
        self.items.itemClicked.connect(self._activated)
        self.other = QPushButton(tr("Other file…"))
        self.other.setAccessibleName(tr("Choose another model file"))
        self.other.clicked.connect(self.other_requested)
        row = QHBoxLayout()
        row.addWidget(self.status, 1)
        row.addWidget(self.other)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.items)

    def show_choices(self, choices: list) -> None:
        self.choices, self.search = list(choices), "done"
        self.items.clear()
        for choice in self.choices:
            item = QListWidgetItem(choice_text(choice))
            item.setData(PATH_ROLE, choice.path)
            item.setData(NAME_ROLE, choice.name)
            if choice.level != "unusable":
                item.setForeground(QColor(fit_colour(choice.level)))
            item.setToolTip("\n".join(part for part in (
                what_it_is(choice), speed_details(choice.expected_tps), choice.path) if part))
            if choice.level in ("red", "unusable"):
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsSelectable)
            self.items.addItem(item)
        self.items.setVisible(bool(self.choices))
        self._say_chosen()

    def show_failure(self) -> None:
        self.search = "failed"
        self.items.setVisible(False)
        self._say_chosen()

    def show_chosen(self, path: str, name: str = "") -> None:
        """The model the user chose (found here, with "Other file…", typed, or saved before);
        "" when the box was emptied. The list's answer may come before or after it."""
        self.chosen_path = path.strip()
        self.chosen_name = (name or Path(self.chosen_path).name) if self.chosen_path else ""
        self._say_chosen()

    def _say_chosen(self) -> None:
        """A chosen model that was found is the selected line; one from elsewhere is named
        above the list, so "no models were found" never stands beside a chosen file."""
        found = [row for row in range(self.items.count())
                 if self.chosen_path and self.items.item(row).data(PATH_ROLE) == self.chosen_path]
        self.items.setCurrentRow(found[0] if found else -1)
        elsewhere = bool(self.chosen_path) and not found
        if self.search == "running":
            said = tr("Looking for models on this computer…")
        elif self.search == "failed":
            said = (tr("Rotary could not look for other models on this computer.") if elsewhere
                    else tr("Rotary could not look for models. Choose a model file with "
                            "Other file…"))
        elif self.choices:
            said = tr("Models found on this computer, best fit first:")
        else:
            said = (tr("No other models were found on this computer.") if elsewhere else
                    tr("No models were found on this computer. Choose a model file with "
                       "Other file…"))
        chosen = tr("Chosen: {name}").format(name=self.chosen_name) if elsewhere else ""
        self.status.setText("\n".join(part for part in (chosen, said) if part))

    def _activated(self, item: QListWidgetItem) -> None:
        self.items.setCurrentItem(item)
        if item.flags() & Qt.ItemFlag.ItemIsSelectable:
            self.chosen.emit(item.data(PATH_ROLE), item.data(NAME_ROLE))


def attach_model_list(chooser: ModelChooser, bridge: EngineBridge, notices: NotificationService,
                      folders: Sequence[str] = (), advanced: Mapping[str, int] | None = None,
                      *, show_names: bool = True) -> ModelList:
    """A model list that feeds ``chooser`` (app/setup/model_check.py): picking a model checks it
    (the box shows its name where ``show_names``, else its path), "Other file…" opens the
    chooser's file dialog, whose own Browse button it replaces. The search starts now, on a
    worker."""
    models = ModelList()
    models.chosen.connect(lambda path, name: chooser.check(path, name if show_names else ""))
    models.other_requested.connect(chooser.browse_for_model)
    # Settings fills the box with the saved path before it is checked.
    models.show_chosen(chooser.path or chooser.path_edit.text(), chooser.shown_as)
    chooser.check_started.connect(lambda: models.show_chosen(chooser.path, chooser.shown_as))
    chooser.cleared.connect(lambda: models.show_chosen(""))
    chooser.browse.setVisible(False)
    asyncio.ensure_future(_fill(models, bridge, notices, list(folders), chooser.preset, advanced))
    return models


async def _fill(models: ModelList, bridge: EngineBridge, notices: NotificationService,
                folders: list[str], preset: str | None,
                advanced: Mapping[str, int] | None) -> None:
    try:
        choices = await bridge.checks.find_models(folders, preset, advanced)
    except EngineError as error:
        if shiboken_alive(models):
            models.show_failure()
        notices.engine_error(error)
        return
    if shiboken_alive(models):      # the dialog may have closed while the search ran
        models.show_choices(choices)
