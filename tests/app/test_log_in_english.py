"""The log recorded notices in Korean, where docs/architecture.md says the log is in
English (for IT, whatever the interface's language). A notice shows the user's language and
goes to the log in English, by the one path notices take there (app.text.i18n.Translated)."""

from __future__ import annotations

import logging

from app.text.i18n import english, tr
from app.widgets.notifications import NotificationService
from app.widgets.translation import install_translator, uninstall_translators
from engine.errors import EngineStateError
from engine.messages import msg


def test_notices_show_korean_and_log_english(qapp, caplog):
    translators = install_translator(qapp, "ko")
    try:
        notices = NotificationService()
        with caplog.at_level(logging.INFO, logger="rotary.notices"):
            shown = [notices.info(tr("There is no conversation to export yet.")),
                     notices.warning(tr("Conversation saved to {path}.").format(path="/x/a.md"),
                                     "details"),
                     notices.engine_error(EngineStateError(msg("engine.no_model")))]
    finally:
        uninstall_translators(qapp, translators)
    assert "대화" in shown[0].message and "/x/a.md" in shown[1].message
    assert "모델" in shown[2].message
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "There is no conversation to export yet." in logged
    assert "Conversation saved to /x/a.md." in logged
    assert "No model is loaded yet. Choose a model in Settings." in logged
    assert not any("\uac00" <= c <= "\ud7a3" for c in logged), logged     # no Hangul


def test_english_text_stays_plain():
    assert english("plain") == "plain" and type(tr("Send")) is str
