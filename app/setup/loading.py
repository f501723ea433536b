"""Loading a model: progress, the fallback ladder in plain words, failures, crash marker.

Before a load we write a small "loading" marker file and remove it once the load has
ended either way. If Rotary itself dies during a load (a native crash cannot be
caught), the marker is still there at the next start, and we propose a safer recipe
instead of crashing again in a loop.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from pathlib import Path
from typing import cast

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel, QProgressBar, QVBoxLayout, QWidget

from engine.api import ModelLoaded, ServerModelLoaded
from engine.errors import EngineError
from app.bridge.engine_bridge import EngineBridge
from app.bridge.facade import safest_preset
from app.text.i18n import tr
from app.widgets.notifications import Notice, NoticeAction, NotificationService
from app.settings.paths import AppPaths
from app.setup.server_settings import (on_server_text, server_failure_actions, server_model_name,
                                 use_server_if_chosen)
from app.setup.settings_holder import SettingsHolder

log = logging.getLogger("rotary.loading")


class LoadMarker:
    def __init__(self, path: Path) -> None:
        self.path = path

    def write(self, model_path: str, preset: str) -> None:
        self.path.write_text(json.dumps({"model_path": model_path, "preset": preset}),
                             encoding="utf-8")

    def clear(self) -> None:
        try:
            os.remove(self.path)
        except FileNotFoundError:
            pass

    def take(self) -> dict | None:
        """The marker left by a load that never ended, removed so we ask only once."""
        if not self.path.exists():
            return None
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        self.clear()
        return data if isinstance(data, dict) else {}


class ModelLoader(QObject):
    started = Signal(str, bool)          # display name, is the demo
    progress = Signal(float, str)
    fallback_explained = Signal(str)
    ready = Signal(str, bool)            # display name, is the demo
    failed = Signal()
    choose_model_requested = Signal()

    def __init__(self, bridge: EngineBridge, notices: NotificationService, paths: AppPaths,
                 settings: SettingsHolder, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bridge, self.notices, self.paths, self.settings = bridge, notices, paths, settings
        self.marker = LoadMarker(paths.loading_marker)
        # From start() until ready or failed (the demo is written first, the server asked):
        # documents attached meanwhile wait for it (app.session.document_queue.DocumentQueue.attach).
        self.loading = False
        self.failed.connect(self._not_loading)      # first: every way a load can fail
        self.starts = 0                 # a demo written for an older start is not loaded
        self.is_demo = False
        self.fallbacks: list[str] = []
        self.problem: Notice | None = None   # the notice of the last load that failed

    # ---- starting -------------------------------------------------------------------------

    def start(self) -> None:
        self.loading, self.starts = True, self.starts + 1
        if self._start_on_server():     # Settings chose "An office server"
            return
        settings = self.settings.current
        if not settings.model_path:
            asyncio.ensure_future(self._start_demo(self.starts))
            return
        if not Path(settings.model_path).is_file():
            self._report_missing(settings.model_path)
            return
        self._load(settings.model_path, is_demo=False)

    def _start_on_server(self) -> bool:
        """Load on the office server when Settings say so; False: load on this computer."""
        settings = self.settings.current
        try:
            if not use_server_if_chosen(settings, self.bridge):
                return False
        except EngineError as error:
            self.problem = self.notices.engine_error(error)
            self.failed.emit()
            return True
        self.loading, self.is_demo, self.fallbacks = True, False, []
        self.started.emit(on_server_text(settings.server_model), False)
        self.bridge.load_model(settings.server_model, settings.preset, {})
        return True

    async def _start_demo(self, start: int) -> None:
        error: EngineError | None = None
        try:
            path = await self.bridge.checks.demo_model(self.paths.demo_dir)
        except EngineError as raised:
            error = raised
        if start != self.starts:
            # The wizard's Finish can choose a model while the demo is written at first start:
            # loading the demo after it would replace the user's choice.
            log.info("demo model not loaded: a newer load was started meanwhile (%r)", error)
            return
        if error is not None:
            self.notices.engine_error(error)
            self.failed.emit()
            return
        self._load(str(path), is_demo=True)

    def _load(self, path: str, is_demo: bool) -> None:
        settings = self.settings.current
        self.loading, self.is_demo, self.fallbacks = True, is_demo, []
        self.marker.write(path, settings.preset)
        self.started.emit(self.display_name(path), is_demo)
        self.bridge.load_model(path, settings.preset, {} if is_demo else settings.overrides(),
                               state_dir=str(self.paths.states_dir))

    def _not_loading(self) -> None:
        self.loading = False

    def display_name(self, path: str) -> str:
        if self.is_demo:
            return tr("Small demo model (always writes the same short message; for trying Rotary only)")
        return Path(path).name

    def _report_missing(self, path: str) -> None:
        self.notices.warning(
            tr("The model file was moved or deleted: {path}. Please choose it again.")
            .format(path=path), "",
            NoticeAction(tr("Choose a model…"), self.ask_for_model))
        self.failed.emit()

    # ---- what the engine reports (wired in app.wiring) ----------------------------------

    def on_progress(self, fraction: float, message: str) -> None:
        self.progress.emit(fraction, message)

    def on_fallback(self, message: str) -> None:
        self.fallbacks.append(message)
        self.fallback_explained.emit(
            tr("Your computer did not have enough memory for the first plan, so Rotary "
               "chose a safer one: {what}").format(what=message))

    def on_loaded(self, event: ModelLoaded | ServerModelLoaded) -> None:
        self.loading = False
        self.marker.clear()
        self._withdraw_problem()        # e.g. the server's refusal of a key now accepted
        name = server_model_name(event)
        if name is None:                # a model on this computer
            facts = cast(ModelLoaded, event).facts
            name = self.display_name(facts.path) if self.is_demo \
                else facts.name or Path(facts.path).name
        self.ready.emit(name, self.is_demo)
        if self.fallbacks:
            self.notices.info(tr("The model is ready. It uses less graphics memory than "
                                 "planned, so answers may be a little slower."))

    def on_failed(self, error: EngineError) -> None:
        self.loading = False
        self.marker.clear()
        actions = server_failure_actions(error, self.start) or (
            NoticeAction(tr("Try the safer setting"), self.use_safer_recipe),
            NoticeAction(tr("Choose another model…"), self.ask_for_model))
        self._withdraw_problem()
        self.problem = self.notices.engine_error(error, *actions)
        self.failed.emit()

    def _withdraw_problem(self) -> None:
        """A load that failed is told until one succeeds (its cause is gone then)."""
        if self.problem is not None:
            self.notices.withdraw(self.problem)
            self.problem = None

    # ---- crash during an earlier load ---------------------------------------------------

    def check_previous_crash(self) -> bool:
        """True when the last load never ended; the user is offered a safer recipe."""
        previous = self.marker.take()
        if previous is None:
            return False
        self.notices.warning(
            tr("Rotary closed unexpectedly while loading the model last time. Loading it "
               "with the safer setting keeps the whole model in system memory and uses "
               "the processor: slower, but it should not crash."),
            json.dumps(previous),
            NoticeAction(tr("Use the safer setting"), self.use_safer_recipe),
            NoticeAction(tr("Try the same setting again"), self.start))
        return True

    def ask_for_model(self) -> None:
        self.choose_model_requested.emit()

    def use_safer_recipe(self) -> None:
        self.settings.update(preset=safest_preset(), gpu_expert_layers=None)
        self.start()


class LoadingPanel(QWidget):
    """Progress bar, the current step, and why a safer plan was chosen, if it was."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel()
        self.title.setWordWrap(True)        # a long model name must not widen the window
        self.bar = QProgressBar()
        self.bar.setRange(0, 100)
        self.bar.setAccessibleName(tr("Loading progress"))
        self.step = QLabel()
        self.step.setWordWrap(True)
        self.explanations = QLabel()
        self.explanations.setWordWrap(True)
        self.explanations.setAccessibleName(tr("Why a safer setting was chosen"))
        layout = QVBoxLayout(self)
        for part in (self.title, self.bar, self.step, self.explanations):
            layout.addWidget(part)
        self.hide()

    def on_started(self, name: str, is_demo: bool) -> None:
        self.title.setText(tr("Loading {name}…").format(name=name))
        self.bar.setValue(0)
        self.step.setText("")
        self.explanations.setText("")
        self.show()

    def on_progress(self, fraction: float, message: str) -> None:
        self.bar.setValue(int(max(0.0, min(1.0, fraction)) * 100))
        self.step.setText(message)

    def on_fallback(self, explanation: str) -> None:
        text = self.explanations.text()
        self.explanations.setText((text + "\n" if text else "") + explanation)

    def on_finished(self, *_args: object) -> None:
        self.hide()
