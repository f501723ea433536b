"""Help → Getting started names the buttons the user presses, in the words those buttons
show: a Korean guide said "중지" (halt) for the Stop button that reads "멈추기", so a reader
looked for a button that is not there."""

from __future__ import annotations

import pytest

from app.bridge.facade import summary_presets
from app.chat.composer import Composer
from app.documents.document_view import DocumentWidgets
from app.widgets import translation
from app.widgets.help import guide_text
from app.widgets.notification_bar import NotificationBar


@pytest.mark.parametrize("language", ["en", "ko", "zh_CN"])
def test_getting_started_names_each_button_as_it_reads(qapp, qtbot, language):
    translators = translation.install_translator(qapp, language)
    try:
        composer, documents, bar = Composer(), DocumentWidgets(summary_presets()), NotificationBar()
        for widget in (composer, documents.panel, documents.attach, bar):
            qtbot.addWidget(widget)
        guide = guide_text()
        buttons = {"Stop": composer.stop_button.text(), "Attach": documents.attach.text(),
                   "Summarise": documents.panel.summarize_button.text(),
                   "Copy details": bar.copy_button.text()}
        missing = {name: said for name, said in buttons.items() if said not in guide}
        assert not missing, (missing, guide)
    finally:
        translation.uninstall_translators(qapp, translators)
