"""``python -m app``: start Rotary (or bring the running one to the front).

Also the entry point of the installed bundle (build.spec), where a windowed build has
``sys.stdout``/``sys.stderr`` set to None: ``main`` installs fallback streams and the log
file before anything imports llama_cpp (the bridge imports the engine lazily).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import logging
import os
import sys
from logging.handlers import RotatingFileHandler
from pathlib import Path

import qasync
from PySide6.QtWidgets import QApplication

from app.bridge.facade import (BACKEND_PROBE_FLAG, CPU_CALIBRATION_FLAG, DEVICE_LIST_FLAG,
                               calibrate_cpu_child, list_devices_child, probe_backend_child,
                               real_backend)
from app.settings.paths import default_paths
from app.setup.selftest import ENGINE_CHECK_FLAG, Check, engine_check_child, run_checks
from app.widgets.single_instance import SingleInstance
from app.widgets.theme import set_taskbar_identity


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="Rotary", description="Rotary: chat with a language model on this computer.")
    parser.add_argument("--no-model", action="store_true",
                        help="start without loading a model (benchmarks, troubleshooting)")
    parser.add_argument("--no-wizard", action="store_true",
                        help="do not open first-time setup")
    parser.add_argument("--quit-after-shown", action="store_true",
                        help="print the time until the window was shown, then quit")
    parser.add_argument("--self-test", action="store_true",
                        help="check this installation offscreen (demo model, folders, no "
                             "network), print one line and exit 0 when all is well")
    return parser.parse_args(argv)


async def run(qapp: QApplication, args: argparse.Namespace, instance: SingleInstance) -> int:
    from app.application import RotaryApp      # after QApplication: widgets need it
    from app.wiring import connect_process     # with the app it connects
    loop = asyncio.get_running_loop()
    rotary = RotaryApp(qapp, loop, real_backend(), default_paths())
    closed = asyncio.Event()
    connect_process(instance, rotary.window, closed.set)
    rotary.start(autoload=not args.no_model, wizard=not args.no_wizard)
    if args.quit_after_shown:
        print("WINDOW_SHOWN", flush=True)
        loop.call_later(0.2, rotary.window.close)
    await closed.wait()
    rotary.close()
    return 0


class LogStream(io.TextIOBase):
    """Stands in for a missing sys.stdout/sys.stderr: whole lines go to the log file."""

    def __init__(self, logger: logging.Logger, level: int) -> None:
        super().__init__()
        self._logger, self._level, self._partial = logger, level, ""
        self._busy = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self._busy:          # a failing log handler reports to stderr: do not loop
            return len(text)
        self._busy = True
        try:
            *lines, self._partial = (self._partial + text).split("\n")
            for line in lines:
                if line.strip():
                    self._logger.log(self._level, "%s", line)
        finally:
            self._busy = False
        return len(text)

    def flush(self) -> None:
        if self._partial.strip():
            self._logger.log(self._level, "%s", self._partial)
        self._partial = ""


def install_fallback_streams() -> None:
    """A windowed build has no console: print() and tracebacks then reach the log file."""
    if sys.stdout is None:
        sys.stdout = LogStream(logging.getLogger("rotary.stdout"), logging.INFO)
    if sys.stderr is None:
        sys.stderr = LogStream(logging.getLogger("rotary.stderr"), logging.WARNING)


def setup_logging(log_file: Path) -> None:
    """Everything goes to a small rotating file for "Copy details" and the IT person.

    Never to stderr: a windowed build has none, and users never read a console.
    """
    log_file.parent.mkdir(parents=True, exist_ok=True)
    handler = RotatingFileHandler(log_file, maxBytes=2_000_000, backupCount=2, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    # llama.cpp's INFO lines (backends, buffer sizes) are what an IT person asks for first;
    # a load writes a few hundred, a token none.
    logging.getLogger("rotary.llama").setLevel(logging.INFO)


def widget_application() -> QApplication:
    """The process's QApplication, made here unless one exists (windows need a widget one)."""
    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(qapp, QApplication)
    return qapp


def check_window(qapp: QApplication) -> Check:
    """The main window builds and shows (Qt plugins, styles, translations are bundled)."""
    from app.text.i18n import I18N_DIR, LANGUAGES          # GUI parts only when asked
    from app.main_window import MainWindow
    from app.widgets.theme import STYLE_SHEET, apply_theme

    missing = [str(p) for p in (*(I18N_DIR / f"rotary_{code}.qm" for code in LANGUAGES
                                  if code != "en"), STYLE_SHEET) if not p.exists()]
    if missing:
        return Check("window", False, "missing resources: " + ", ".join(missing))
    try:
        apply_theme(qapp)
        window = MainWindow()
        window.show()
        qapp.processEvents()
        shown = window.isVisible()
        window.close()
        window.deleteLater()
    except Exception as exc:         # noqa: BLE001 - a broken install shows up here
        return Check("window", False, f"could not be shown: {exc!r}")
    if not shown:
        return Check("window", False, "did not become visible")
    return Check("window", True, f"Qt {qapp.platformName()}")


def self_test() -> int:
    """Offscreen: the checks of app.setup.selftest plus the window, one verdict line, exit code."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    qapp = widget_application()
    report = run_checks(default_paths(), extra=(lambda: check_window(qapp),))
    logging.getLogger("rotary.selftest").info("%s", report.verdict())
    print(report.verdict(), flush=True)
    return 0 if report.ok else 1


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == [DEVICE_LIST_FLAG]:        # the bundle as the engine's device-list child
        return list_devices_child(argv[1:])
    if argv[:1] == [BACKEND_PROBE_FLAG]:      # the bundle as the back-end probe's child
        return probe_backend_child(argv[1:])
    if argv[:1] == [CPU_CALIBRATION_FLAG]:    # the bundle as the processor calibration
        return calibrate_cpu_child(argv[1:])
    if argv[:1] == [ENGINE_CHECK_FLAG]:       # the bundle as the wizard's engine-check child
        return engine_check_child(argv[1:])
    install_fallback_streams()
    args = parse_args(argv)
    setup_logging(default_paths().log_file)
    if args.self_test:
        return self_test()
    qapp = widget_application()
    qapp.setApplicationName("Rotary")
    set_taskbar_identity(qapp)
    qapp.setQuitOnLastWindowClosed(False)      # we quit once our own cleanup has run
    instance = SingleInstance(default_paths().instance_key())
    if instance.notify_running_instance():
        return 0
    instance.listen()
    try:
        return qasync.run(run(qapp, args, instance))
    finally:
        instance.close()


if __name__ == "__main__":
    sys.exit(main())
