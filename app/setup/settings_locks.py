"""Settings the organisation locked (app/settings/policy.py): shown, greyed out, "Set by your
organisation", and never taken from the dialog (SettingsDialog.result_settings keeps the
original, and the settings holder enforces the policy on every change)."""

from __future__ import annotations

from typing import Mapping, cast

from PySide6.QtWidgets import QBoxLayout, QFormLayout, QLabel, QLayout, QWidget

from app.text.i18n import tr
from app.settings.policy import Policy

LOCK_NOTE = "organisation_lock_note"          # objectName of the note added under a widget


def locked_text() -> str:
    return tr("Set by your organisation")


def lock_settings(widgets: Mapping[str, QWidget], policy: Policy) -> None:
    """Grey out each locked setting (``widgets``: each setting's widget in the Settings
    dialog) and say why, once; called again after anything in the dialog re-enables widgets
    (choosing the office server enables the local fields)."""
    for name, widget in widgets.items():
        if not policy.is_locked(name):
            continue
        widget.setEnabled(False)
        widget.setToolTip(locked_text())
        widget.setAccessibleDescription(locked_text())
        # Inside the model row, under the path (its verdict line follows); at the top of the
        # office server's box; under the field elsewhere, as the dialog's other notes.
        _add_note(widget, {"model_path": 1}.get(name, 0))


def _add_note(widget: QWidget, inside_at: int) -> None:
    parent = widget.parentWidget()
    if parent is None or widget.property(LOCK_NOTE):
        return
    widget.setProperty(LOCK_NOTE, True)
    note = QLabel(locked_text())
    note.setObjectName(LOCK_NOTE)
    layout = widget.layout()            # a widget made of parts: the note goes inside
    if isinstance(layout, QBoxLayout):
        layout.insertWidget(inside_at, note)
        return
    form = _form_of(parent.layout(), widget)
    if form is not None:
        row, _role = cast("tuple[int, QFormLayout.ItemRole]", form.getWidgetPosition(widget))
        form.insertRow(row + 1, "", note)


def _form_of(layout: QLayout | None, widget: QWidget) -> QFormLayout | None:
    """The form layout (nested anywhere in ``layout``) that holds ``widget`` as a field."""
    if layout is None:
        return None
    if isinstance(layout, QFormLayout) and cast(
            "tuple[int, QFormLayout.ItemRole]", layout.getWidgetPosition(widget))[0] >= 0:
        return layout
    for index in range(layout.count()):
        item = layout.itemAt(index)
        found = _form_of(None if item is None else item.layout(), widget)
        if found is not None:
            return found
    return None
