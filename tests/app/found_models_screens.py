"""Rotary as a new user meets it, with the real engine: the first-time setup's model step and
Settings, photographed. Run under Xvfb with a fresh HOME and ROTARY_HOME:

    HOME=$(mktemp -d) ROTARY_HOME=$HOME/rotary xvfb-run -a python -m tests.app.found_models_screens OUT_DIR [--policy FILE]

It fills HOME with an LM Studio folder (header-only GGUFs of real models: they plan like the
real files but cannot load) and saves OUT_DIR/wizard.png and OUT_DIR/settings.png, plus
OUT_DIR/seen.json: what the list said, for the report.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path

import qasync
from PySide6.QtWidgets import QApplication

from app.bridge.facade import real_backend
from app.settings.paths import default_paths
from tests.support.fake_homes import _shape_as

LMSTUDIO = Path(".lmstudio/models/lmstudio-community")


def fill_home(home: Path) -> None:
    _shape_as("qwen3.6-35b-a3b-q4_k_m", home / LMSTUDIO / "Qwen3.6-35B-A3B-GGUF"
              / "Qwen3.6-35B-A3B-Q4_K_M.gguf")
    _shape_as("gpt-oss-20b", home / LMSTUDIO / "gpt-oss-20b-GGUF" / "gpt-oss-20b-MXFP4.gguf")
    _shape_as("qwen3-30b-a3b-q4_k_m", home / "Downloads" / "Qwen3-30B-A3B-Q4_K_M.gguf")
    _shape_as("mixtral-8x7b-q4_k_m", home / "Downloads" / "mixtral-8x7b-instruct-v0.1.Q4_K_M.gguf")


async def until(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.1)
    return True


def _list_lines(model_list) -> list[str]:
    if model_list is None:
        return []
    return [model_list.status.text()] + [model_list.items.item(i).text()
                                         for i in range(model_list.items.count())]


async def capture(out: Path) -> int:
    from app.application import RotaryApp
    rotary = RotaryApp(QApplication.instance(), asyncio.get_running_loop(), real_backend(),
                       default_paths())
    rotary.start(autoload=False, wizard=True)
    wizard, seen = rotary.dialogs.wizard, {}
    await until(lambda: wizard.hardware is not None, 60)
    wizard.next()
    model_list = getattr(wizard, "model_list", None)
    if model_list is not None:
        await until(lambda: "Looking" not in model_list.status.text(), 120)
        if model_list.items.count():
            model_list.items.itemClicked.emit(model_list.items.item(0))
            await until(lambda: wizard.chooser.result is not None, 60)
    await asyncio.sleep(0.5)
    wizard.grab().save(str(out / "wizard.png"))
    seen["wizard_page"] = wizard.currentPage().title()
    seen["wizard_text"] = wizard.done_page.summary.text()
    seen["wizard_list"] = _list_lines(model_list)
    seen["wizard_verdict"] = wizard.chooser.verdict.text()
    wizard.reject()
    dialog = rotary.dialogs.open_settings()
    if dialog.model_list is not None:
        await until(lambda: "Looking" not in dialog.model_list.status.text(), 120)
    await asyncio.sleep(0.5)
    dialog.resize(dialog.width(), max(dialog.height(), 760))
    await asyncio.sleep(0.3)
    dialog.grab().save(str(out / "settings.png"))
    seen["settings_list"] = _list_lines(dialog.model_list)
    seen["notices"] = [n.message for n in rotary.notices.history]
    seen["locked"] = sorted(rotary.policy.locked)
    (out / "seen.json").write_text(json.dumps(seen, indent=2, ensure_ascii=False))
    dialog.reject()
    rotary.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--policy", type=Path)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    fill_home(Path(os.environ["HOME"]))
    if args.policy:
        os.environ["ROTARY_POLICY_FILE"] = str(args.policy)
    else:
        os.environ.setdefault("ROTARY_POLICY_FILE", str(args.out / "no-policy.toml"))
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    return qasync.run(capture(args.out))


if __name__ == "__main__":
    sys.exit(main())
