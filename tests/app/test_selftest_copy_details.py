""""Copy details" gives the IT person the error, versions, the recipe in use and the log's tail."""

from __future__ import annotations

import logging
from logging.handlers import RotatingFileHandler

from PySide6.QtGui import QGuiApplication

from app.widgets.notification_bar import NotificationBar
from app.widgets.notifications import Notice
from tests.app.fakes import fake_recipe


class _Loaded:
    recipe = fake_recipe("8gb-laptop")


def test_copy_details_holds_versions_recipe_and_log_tail(qtbot, tmp_path):
    log_file = tmp_path / "rotary.log"
    handler = RotatingFileHandler(log_file, encoding="utf-8")
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        for n in range(100):
            logging.getLogger("rotary.test").warning("log line %d", n)
        handler.flush()
        bar = NotificationBar()
        qtbot.addWidget(bar)
        bar.context.remember_model(_Loaded())
        bar.show_notice(Notice("error", "The model did not load.", "llama: bad tensor"))
        bar.copy_details()
    finally:
        root.removeHandler(handler)
        handler.close()
    text = QGuiApplication.clipboard().text()
    assert text.startswith("The model did not load.\n\nllama: bad tensor")
    assert "Rotary 0." in text and "Python 3." in text and "PySide6 6." in text
    assert '"preset": "8gb-laptop"' in text and '"n_ctx": 4096' in text
    assert "log line 99" in text and "log line 60" in text and "log line 59" not in text


def test_without_a_model_or_log_the_details_say_so(qtbot):
    bar = NotificationBar()
    qtbot.addWidget(bar)
    bar.show_notice(Notice("warning", "Something happened.", "details"))
    text = bar.details_text()
    assert "---- recipe\nnone loaded" in text


def test_the_running_app_copies_the_recipe_of_the_loaded_model(make_app, qtbot):
    from tests.app.conftest import wait_ready
    rotary = make_app(start=False)       # app.wiring.connect_engine connects "Copy details"
    rotary.start(autoload=True, wizard=False)
    wait_ready(qtbot, rotary)
    rotary.notices.warning("Something to report.", "details")
    text = rotary.window.notice_bar.details_text()
    assert "---- recipe\n{" in text and '"n_ctx": 4096' in text
