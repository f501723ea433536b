"""``python -m app``: start Rotary (or bring the running one to the front)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from logging.handlers import RotatingFileHandler
from pathlib import Path

import qasync
from PySide6.QtWidgets import QApplication

from app.bridge import real_backend
from app.paths import default_paths
from app.single_instance import SingleInstance


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m app")
    parser.add_argument("--no-model", action="store_true",
                        help="start without loading a model (benchmarks, troubleshooting)")
    parser.add_argument("--no-wizard", action="store_true",
                        help="do not open first-time setup")
    parser.add_argument("--quit-after-shown", action="store_true",
                        help="print the time until the window was shown, then quit")
    return parser.parse_args(argv)


async def run(qapp: QApplication, args: argparse.Namespace, instance: SingleInstance) -> int:
    from app.application import RotaryApp      # after QApplication: widgets need it
    loop = asyncio.get_running_loop()
    rotary = RotaryApp(qapp, loop, real_backend(), default_paths())
    instance.activation_requested.connect(rotary.window.bring_to_front)
    closed = asyncio.Event()
    rotary.window.closed.connect(closed.set)
    rotary.start(autoload=not args.no_model, wizard=not args.no_wizard)
    if args.quit_after_shown:
        print("WINDOW_SHOWN", flush=True)
        loop.call_later(0.2, rotary.window.close)
    await closed.wait()
    rotary.close()
    return 0


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
    logging.getLogger("rotary.llama").setLevel(logging.WARNING)   # llama.cpp is chatty


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    setup_logging(default_paths().log_file)
    qapp = QApplication.instance() or QApplication(sys.argv[:1])
    qapp.setApplicationName("Rotary")
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
