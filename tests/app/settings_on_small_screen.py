"""Child process of test_wizard_and_settings_dialog: the Settings dialog in office-server
mode on a screen of the size given (QT_QPA_PLATFORM=offscreen:configfile=...), measured."""

from __future__ import annotations

import asyncio
import json
import sys

from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLabel

from app.bridge.engine_bridge import EngineBridge
from app.bridge.facade import real_backend
from app.widgets.translation import install_translator
from app.widgets.notifications import NotificationService
from app.settings.model import Settings
from app.setup.settings_dialog import SettingsDialog


def main(language: str) -> None:
    qapp = QApplication(sys.argv[:1])
    install_translator(qapp, language)
    bridge = EngineBridge(real_backend(), asyncio.new_event_loop())
    settings = Settings(first_run_done=True, engine_location="server",
                        server_url="https://ai.office.lan:8000", server_model="qwen3.6",
                        server_verify_tls=False)
    dialog = SettingsDialog(settings, bridge, NotificationService())
    dialog.show()
    for _ in range(5):
        qapp.processEvents()
    room = qapp.primaryScreen().availableGeometry()
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    ok_rect = ok.rect().translated(ok.mapToGlobal(ok.rect().topLeft()))
    squeezed = [label.text()[:40] for label in dialog.findChildren(QLabel)
                if label.isVisibleTo(dialog) and label.wordWrap()
                and label.height() < label.heightForWidth(label.width())]
    model = dialog.server_box.model
    print(json.dumps({
        "room": [room.x(), room.y(), room.width(), room.height()],
        "frame": [dialog.frameGeometry().x(), dialog.frameGeometry().y(),
                  dialog.frameGeometry().width(), dialog.frameGeometry().height()],
        "ok": [ok_rect.x(), ok_rect.y(), ok_rect.width(), ok_rect.height()],
        "ok_visible": ok.isVisible(),
        "squeezed": squeezed,
        "model_height": [model.height(), model.sizeHint().height()],
        "scrolls": dialog.page_scroll.verticalScrollBar().maximum() > 0,
    }), flush=True)
    bridge.shutdown()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "en")
