"""Child process of test_selftest_beside_engine.py: the first start's two loads at once.

The window's engine starts loading the demo model through the real bridge (as the app does
on its first start), and at once the wizard's "Check my computer" runs its checks through
the same bridge, as a click does while that load runs. It prints one JSON line with the
report; a crash in native code kills this process instead of pytest.
Usage: python tests/app/selftest_beside_engine_child.py   (ROTARY_HOME: a fresh folder)
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import qasync  # noqa: E402
from PySide6.QtCore import QCoreApplication  # noqa: E402

from app.bridge.engine_bridge import EngineBridge  # noqa: E402
from app.bridge.facade import auto_preset, real_backend  # noqa: E402
from app.settings.paths import default_paths  # noqa: E402
from app.setup.selftest import check_my_computer  # noqa: E402


async def both_at_once() -> dict:
    paths = default_paths()
    bridge = EngineBridge(real_backend(), asyncio.get_running_loop())
    loaded: asyncio.Future = asyncio.get_running_loop().create_future()
    bridge.model_loaded.connect(lambda event: loaded.done() or loaded.set_result(event))
    bridge.load_failed.connect(lambda error: loaded.done() or loaded.set_result(error))
    demo = await bridge.checks.demo_model(paths.demo_dir)
    bridge.load_model(str(demo), auto_preset(), {})
    report = await check_my_computer(bridge, paths)
    window_load = await asyncio.wait_for(loaded, 300)
    bridge.shutdown()
    return {"ok": report.ok, "verdict": report.verdict(),
            "engine": next(c.detail for c in report.checks if c.name == "engine"),
            "window_load": type(window_load).__name__}


if __name__ == "__main__":
    app = QCoreApplication(sys.argv[:1])
    print(json.dumps(qasync.run(both_at_once())), flush=True)
