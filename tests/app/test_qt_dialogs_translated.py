"""Qt's own dialogs speak Korean and Chinese (a Korean file chooser said "Look
in:" and "Files of type:"; qtbase_ko.qm lacks them; the .ts files, for the
texts of resources/i18n/qt_texts.py, supply them), and Chinese calls a summary one thing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractButton, QFileDialog, QInputDialog, QLabel, QMessageBox,
                               QWizard, QWizardPage)

from app.text.i18n import tr
from app.widgets.translation import install_translator, uninstall_translators

ROOT = Path(__file__).resolve().parents[2]
WORD = re.compile(r"[A-Za-z]{2,}")


def _english(widget) -> list[str]:
    """Every visible label, button and tooltip of ``widget`` with English words in it
    (file patterns such as "*.pdf" are the user's files, not words)."""
    texts = []
    for child in [widget, *widget.findChildren(QLabel), *widget.findChildren(QAbstractButton)]:
        if not child.isVisibleTo(widget) and child is not widget:
            continue
        shown = child.text() if isinstance(child, (QLabel, QAbstractButton)) else ""
        texts += [shown, child.toolTip()]
    left = []
    for text in texts:
        plain = re.sub(r"\*\.\w+|\(\*\)|&", "", text or "")
        if WORD.search(plain) and text not in left:
            left.append(text)
    return left


def _header_words(dialog: QFileDialog) -> list[str]:
    from PySide6.QtWidgets import QTreeView
    found = []
    for view in dialog.findChildren(QTreeView):
        model = view.model()
        for column in range(model.columnCount() if model is not None else 0):
            text = str(model.headerData(column, Qt.Orientation.Horizontal) or "")
            if WORD.search(text):
                found.append(text)
    return found


@pytest.mark.parametrize("language", ["ko", "zh_CN"])
def test_qt_dialogs_the_app_opens_have_no_english_left(qtbot, qapp, tmp_path, language):
    translators = install_translator(qapp, language)
    try:
        files = QFileDialog(None, "Rotary", str(tmp_path), "Documents (*.pdf *.docx)")
        files.setOption(QFileDialog.Option.DontUseNativeDialog)
        files.setFileMode(QFileDialog.FileMode.ExistingFiles)
        # As the conversation list asks before deleting: Qt's Cancel beside our Delete.
        question = QMessageBox(QMessageBox.Icon.Question, "Rotary", "?",
                               QMessageBox.StandardButton.Cancel)
        question.addButton(tr("Delete"), QMessageBox.ButtonRole.DestructiveRole)
        rename = QInputDialog()
        rename.setLabelText("?")
        wizard = QWizard()
        wizard.setOption(QWizard.WizardOption.NoBackButtonOnStartPage, False)
        for _ in range(2):
            wizard.addPage(QWizardPage())
        left = {}
        for name, dialog in (("file dialog", files), ("question", question),
                             ("rename", rename), ("wizard", wizard)):
            qtbot.addWidget(dialog)
            dialog.show()
            qtbot.waitExposed(dialog)
            if dialog is wizard:
                wizard.next()
            english = [t for t in _english(dialog) if t not in ("Rotary", "?")]
            if dialog is files:
                english += _header_words(files)
            if english:
                left[name] = english
            dialog.hide()
        assert not left, left
    finally:
        uninstall_translators(qapp, translators)


def test_chinese_calls_the_summary_one_thing():
    """"摘要…" on the list and "总结" on the card named the same action twice."""
    from tests.support.translations import ts_translations
    chinese = [zh for zh in ts_translations("zh_CN").values() if zh]
    assert not [text for text in chinese if "摘要" in text]
    assert any("总结" in text for text in chinese)
