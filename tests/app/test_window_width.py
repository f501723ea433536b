"""No label's text widens the window: long status lines in English, Korean and Chinese
("Reading 15 passages from …" widened a 1180-px window to 1482 px)."""

from __future__ import annotations

import pytest

from engine.messages import msg
from app.text.messages import say
from app.settings.model import Settings
from tests.app.conftest import wait_idle, wait_ready

WHERE = {
    "en": "handbook.pdf, pp. 1–8, 12, 14–19, 23; facilities_report.docx, sections 2.1, 3.4, "
          "4.2, 5.1 and the appendix on the heating and ventilation of the east wing",
    "ko": "직원_안내서_2024년_최종본.pdf, 1–8쪽, 12쪽, 14–19쪽; 시설_관리_보고서_동관_난방_환기.docx, "
          "2.1절, 3.4절, 4.2절, 5.1절과 부록",
    "zh": "员工手册_2024年最终版本_修订稿.pdf，第1–8页、第12页、第14–19页；设施管理报告_东楼供暖通风.docx，"
          "第2.1节、第3.4节、第4.2节、第5.1节及附录",
}


@pytest.mark.parametrize("language", ["en", "ko", "zh"])
def test_long_status_lines_never_widen_the_window(qtbot, make_app, language):
    code = {"zh": "zh_CN"}.get(language, language)
    rotary = make_app(settings=Settings(first_run_done=True, language=code))
    wait_ready(qtbot, rotary)
    window = rotary.window
    window.resize(1180, 760)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(50)
    width = window.width()
    line = say(msg("documents.progress.reading_passages", n=15, where=WHERE[language]))
    pane = window.chat
    rotary.session.chat.send("hello")
    wait_idle(qtbot, rotary)
    pane.composer.set_phase(line)                   # what the chat says while documents are read
    rotary.notices.info(line + " " + line)
    window.set_model_text(WHERE[language] * 2)
    pane.message_widgets[-1].show_status(line)
    qtbot.wait(100)
    assert window.width() <= width, (language, window.width(), width)
    assert window.minimumSizeHint().width() <= width
