"""First-time setup: what this computer has, which model to use, and whether it fits.

Re-runnable from Settings. Everything slow (probing, checking the file, writing the
demo model) runs on workers through the bridge, so the wizard never freezes.
"""

from __future__ import annotations

import asyncio
import time
from typing import cast

from PySide6.QtCore import QRect, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (QLabel, QPushButton, QVBoxLayout, QWidget, QWizard,
                               QWizardPage)

from engine.errors import EngineError
from app.bridge.engine_bridge import EngineBridge
from app.bridge.facade import HardwareInfo, ModelCheck, auto_preset, preset_in_a_sentence
from app.text.i18n import tr
from app.text.korean import particles
from app.text.messages import say
from app.setup.model_check import ModelChooser
from app.widgets.notifications import NotificationService
from app.setup.model_list import attach_model_list
from app.settings.paths import AppPaths
from app.settings.policy import NO_POLICY, Policy
from app.setup.selftest import check_my_computer, step_text
from app.setup.server_settings import offer_server_button

WIDE_WIZARD = 760   # px: as wide as it grows (wider text is hard to read) before it grows taller
GB = 2**30      # shown as "GB", as Windows' Task Manager does: an 8 GB card reads 8.0


def describe_hardware(hardware: HardwareInfo) -> str:
    ram = tr("{size} GB of system memory").format(size=f"{hardware.ram_total_bytes / GB:.0f}")
    unused = [g.why_unused for g in getattr(hardware, "unused_gpus", ()) if g.why_unused]
    if not hardware.gpus and unused:     # a card this installation cannot use: why, what to do
        return tr("{why} This computer has {ram}.").format(why=say(unused[0]), ram=ram)
    if not hardware.gpus:
        return tr("No graphics card was found, so models will run on the processor. "
                  "This computer has {ram}.").format(ram=ram)
    gpu = hardware.gpus[0]
    return tr("Found the graphics card {name} with {vram} GB of graphics memory, and "
              "{ram}.").format(name=gpu.name, vram=f"{gpu.total_bytes / GB:.1f}", ram=ram)


def preset_words(preset: str) -> str:
    """How the chosen setting is named in a sentence (the engine's preset registry says
    it); never a speed claim (the check beside it gives the estimate for this computer)."""
    return preset_in_a_sentence(preset)


class HardwarePage(QWizardPage):
    check_result_shown = Signal()        # "Check my computer" wrote its verdict

    def __init__(self) -> None:
        super().__init__()
        self.setTitle(tr("Your computer"))
        self.found = QLabel(tr("Press “Check my computer” to see what this computer has."))
        self.found.setWordWrap(True)
        self.found.setAccessibleName(tr("What Rotary found on this computer"))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(tr("Rotary runs language models on this computer, without "
                                   "the internet.")))
        layout.addWidget(self.found)
        # The same checks as `--self-test`, so IT and the user see one verdict.
        self.check_button = QPushButton(tr("Check my computer"))
        self.check_button.setToolTip(tr("Writes a short test answer with the demo model, checks "
                                        "that conversations and settings can be saved, and "
                                        "that nothing went to the network."))
        self.check_result = QLabel()
        self.check_result.setWordWrap(True)
        layout.addWidget(self.check_button)
        layout.addWidget(self.check_result)


class ModelPage(QWizardPage):
    def __init__(self, chooser: ModelChooser) -> None:
        super().__init__()
        self.setTitle(tr("Choose a model"))
        self.chooser = chooser
        self.recipe = QLabel()
        self.recipe.setWordWrap(True)
        self.demo_button = QPushButton(tr("Use the small demo model"))
        self.demo_button.setAccessibleName(tr("Use the small demo model, which always writes "
                                              "the same short message and is only for trying "
                                              "Rotary"))
        demo_note = QLabel(tr("The demo model is tiny and always writes the same short "
                              "message. It only shows how Rotary works; it cannot answer "
                              "questions."))
        demo_note.setWordWrap(True)
        layout = QVBoxLayout(self)
        intro = QLabel(tr("Choose one of the models found on this computer, or another model "
                          "file (.gguf) with Other file…, or drag it onto this window."))
        intro.setWordWrap(True)          # one line is wider than an 800-pixel screen
        layout.addWidget(intro)
        self.where_from = QLabel(tr(
            "A model is one large file whose name ends in .gguf. At work, ask your IT contact "
            "for one; if you are allowed to download files, Hugging Face (huggingface.co) "
            "publishes many. Help → Where models come from says more."))
        self.where_from.setWordWrap(True)
        self.where_from.setObjectName("hint")
        layout.addWidget(self.where_from)
        for part in (chooser, self.recipe, self.demo_button, demo_note):
            layout.addWidget(part)
        chooser.check_finished.connect(self._on_check_changed)
        self.setAcceptDrops(True)
        chooser.check_started.connect(self._on_check_changed)

    # The whole page takes a dropped file, not only the path box.
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        self.chooser.dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        self.chooser.dropEvent(event)

    def _on_check_changed(self, *_args: object) -> None:
        self.completeChanged.emit()

    def isComplete(self) -> bool:
        result = self.chooser.result
        return result is not None and result.level != "red"


class DonePage(QWizardPage):
    def __init__(self) -> None:
        super().__init__()
        self.setTitle(tr("Ready"))
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        QVBoxLayout(self).addWidget(self.summary)


class FirstRunWizard(QWizard):
    hardware_found = Signal(object)      # engine HardwareInfo
    server_requested = Signal()          # "use the office's server" (offered without a GPU)
    completed = Signal(str, str)         # model path ("" = demo), preset

    def __init__(self, bridge: EngineBridge, notices: NotificationService, paths: AppPaths,
                 parent: QWidget | None = None, policy: Policy = NO_POLICY) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Set up Rotary"))
        self.bridge, self.notices, self.paths = bridge, notices, paths
        self.preset = auto_preset()
        self.hardware: HardwareInfo | None = None
        self.chooser = ModelChooser(bridge, notices)
        self.hardware_page, self.model_page = HardwarePage(), ModelPage(self.chooser)
        self.done_page = DonePage()
        # The organisation's choice of model (app/settings/policy.py) is not asked again.
        self.policy = policy
        pages = (self.hardware_page, self.done_page) if policy.decides_model else (
            self.hardware_page, self.model_page, self.done_page)
        for page in pages:
            self.addPage(page)
        if policy.decides_model:
            self.done_page.summary.setText(tr("Your organisation has chosen the model Rotary "
                                              "uses, so there is nothing more to choose."))
        else:
            self.model_list = attach_model_list(self.chooser, bridge, notices,
                                                policy.model_folders)
            cast(QVBoxLayout, self.model_page.layout()).insertWidget(1, self.model_list)
            suggested = policy.values.get("model_path")     # checked as a str (check_value)
            if isinstance(suggested, str) and suggested:   # not locked: checked, changeable
                self.chooser.check(suggested)
        self.model_page.demo_button.clicked.connect(self.use_demo)
        self.server_button = offer_server_button()
        cast(QVBoxLayout, self.hardware_page.layout()).addWidget(self.server_button)
        self.server_button.clicked.connect(self._server_instead)
        self.hardware_page.check_button.clicked.connect(self.check_computer)
        self.chooser.check_finished.connect(self._show_recipe)
        self.currentIdChanged.connect(self._on_page)
        # Text that appears on a page (the fit, the check's verdict) may need more room.
        for changed in (self.currentIdChanged, self.chooser.check_finished,
                        self.hardware_page.check_result_shown):
            changed.connect(lambda *_args: QTimer.singleShot(0, self.fit_page))
        self.accepted.connect(self._emit_completed)
        self.demo_path: str | None = None
        self.checking = False           # "Check my computer" is running
        # Its line while it runs: which check, and for how long, said again every second.
        self.check_step: tuple[int, int, str, float] | None = None   # step, steps, name, since
        self.check_timer = QTimer(self, interval=1000)
        self.check_timer.timeout.connect(self._say_check_step)
        asyncio.ensure_future(self._probe())

    async def _probe(self) -> None:
        try:
            self.hardware = await self.bridge.checks.probe_hardware()
        except EngineError as error:
            self.hardware_page.found.setText(tr("Rotary could not look at this computer's "
                                                "hardware. You can still continue."))
            self.notices.engine_error(error)
            return
        self.preset = self.bridge.checks.preset_for(self.hardware)
        self.chooser.preset = self.preset
        if self.checking:                  # findings once the user asked for them
            self.hardware_page.found.setText(describe_hardware(self.hardware))
        # Not where the organisation keeps where the model runs: it led to a greyed-out setting.
        self.server_button.setVisible(not self.hardware.gpus and self.may_choose_server)
        self.hardware_found.emit(self.hardware)

    @property
    def may_choose_server(self) -> bool:
        """May the user point Rotary at an office server (the policy's
        users_may_change_server)?"""
        return not self.policy.is_locked("engine_location") and \
            not self.policy.is_locked("server_url")

    def check_computer(self) -> None:
        asyncio.ensure_future(self._check_computer())

    async def _check_computer(self) -> None:
        # The button stays enabled (a disabled one would hand its focus to the next button,
        # the office-server offer, which a second Space would then press); a click while
        # the check runs does nothing.
        page = self.hardware_page
        if self.checking:
            return
        self.checking = True
        page.found.setText(describe_hardware(self.hardware) if self.hardware is not None
                           else tr("Looking at your computer…"))
        page.check_result.setText(tr("Checking…"))
        self.check_started = time.monotonic()
        self.check_timer.start()
        try:
            report = await check_my_computer(self.bridge, self.paths, self.preset,
                                             self._on_check_step)
        except EngineError as error:
            page.check_result.setText("")
            self.notices.engine_error(error)
            return
        finally:
            self.checking = False
            self.check_timer.stop()
            self.check_step = None
        page.check_result.setText(report.user_text())
        page.check_result_shown.emit()
        if not report.ok:
            self.notices.warning(report.user_text(), report.verdict())

    def _on_check_step(self, step: int, steps: int, name: str) -> None:
        self.check_step = (step, steps, name, time.monotonic())
        self._say_check_step()

    def _say_check_step(self) -> None:
        """"Checking 4 of 7: loading the demo model and writing a short answer… 12 s": the
        seconds count the whole check, so the line moves while a long step runs."""
        if self.check_step is not None and self.checking:
            step, steps, name, _since = self.check_step
            self.hardware_page.check_result.setText(step_text(
                step, steps, name, time.monotonic() - self.check_started))

    def _show_recipe(self, result: ModelCheck | None) -> None:
        if result is None:
            self.model_page.recipe.setText("")
            return
        self.model_page.recipe.setText(particles(tr("Rotary will use {recipe}.").format(
            recipe=self._recipe_words(result))))

    def _recipe_words(self, result: ModelCheck) -> str:
        """The setting by name; fitted to a card smaller than any setting's, it says so, as
        the check's verdict beside it does (it said the 8 GB setting after fitting to 2 GB)."""
        words = preset_words(result.preset)
        gpus = self.hardware.gpus if self.hardware is not None else ()
        if getattr(result, "fitted", "") and gpus:
            words = tr("{setting}, fitted to the {vram} GB this card has").format(
                setting=words, vram=f"{gpus[0].total_bytes / GB:.1f}")
        return words

    def _server_instead(self) -> None:
        """"My office has a model server": setup ends, and Settings open on the server."""
        self.reject()
        self.server_requested.emit()

    def use_demo(self) -> None:
        asyncio.ensure_future(self._use_demo())

    async def _use_demo(self) -> None:
        try:
            path = await self.bridge.checks.demo_model(self.paths.demo_dir)
        except EngineError as error:
            self.notices.engine_error(error)
            return
        self.demo_path = str(path)
        # Its name, not the hidden folder it lives in (~/.local/share/rotary/demo/…).
        self.chooser.check(str(path), tr("Small demo model"))

    @property
    def using_demo(self) -> bool:
        result = self.chooser.result
        return result is not None and result.path == self.demo_path

    def _on_page(self, page_id: int) -> None:
        if self.page(page_id) is self.done_page and self.chooser.result is not None:
            result = self.chooser.result
            name = tr("the small demo model") if self.using_demo else result.model_name
            self.done_page.summary.setText(
                particles(tr("Rotary will use {name} with {recipe}. You can change this later "
                             "in Settings.").format(name=name,
                                                    recipe=self._recipe_words(result))))

    def fit_page(self) -> None:
        """As tall as the page's wrapped text needs, within the main window where it fits
        there, else within the screen. QWizard sizes itself by the pages' unwrapped minimum:
        the model page's box and notes were squeezed and the fit was cut mid-sentence
        ("expect roughly 364–1805 words per"); then, at 1280×800, a chosen model made it
        grow past the bottom of the main window. It grows wider before it grows past it."""
        page, screen = self.currentPage(), self.screen()
        layout = page.layout() if page is not None else None
        if page is None or layout is None or screen is None:
            return
        if layout.totalHeightForWidth(page.width()) <= page.height():
            return
        frame = max(self.frameGeometry().height() - self.height(), 30)
        rooms = [self._window_room(screen.availableGeometry()), screen.availableGeometry()]
        for room in (r for r in rooms if r is not None):
            width = max(self.width(), min(room.width() - 16, WIDE_WIZARD))
            page_width = page.width() + width - self.width()
            height = self.height() + layout.totalHeightForWidth(page_width) - page.height()
            if height + frame <= room.height() - 8 or room == rooms[-1]:
                break
        height = min(height, room.height() - frame - 8)
        self.resize(width, height)
        left = room.left() + max(0, (room.width() - width) // 2)
        top = max(room.top(), min(self.frameGeometry().top(), room.bottom() - height - frame))
        self.move(left, top)

    def _window_room(self, screen_room: QRect) -> QRect | None:
        """The main window's frame, where it is shown on this screen."""
        parent = self.parentWidget()
        if parent is None or not parent.isVisible():
            return None
        room = parent.window().frameGeometry().intersected(screen_room)
        return room if room.height() > 200 else None

    def _emit_completed(self) -> None:
        result = self.chooser.result
        if result is not None:
            self.completed.emit("" if self.using_demo else result.path, result.preset)
