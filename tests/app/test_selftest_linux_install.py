"""The per-user Linux install scripts on a stand-in bundle, in a throw-away HOME.

The real bundle is built and self-tested by installer/build_bundle.py in CI; this checks
what the scripts promise: menu entry and command in ~/.local, an upgrade in place, and
an uninstall that keeps conversations and settings unless asked.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "installer" / "linux"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("sh") is None,
                                reason="the install scripts are for Linux")


@pytest.fixture
def unpacked(tmp_path):
    """What the tarball holds, with a tiny script standing in for the bundled app."""
    folder = tmp_path / "rotary-0.1.0-linux-x86_64"
    (folder / "Rotary" / "_internal").mkdir(parents=True)
    app = folder / "Rotary" / "Rotary"
    app.write_text("#!/bin/sh\necho version-1\n")
    app.chmod(0o755)
    for script in ("install.sh", "uninstall.sh", "rotary.desktop"):
        shutil.copy(LINUX / script, folder / script)
    shutil.copytree(ROOT / "installer" / "icons", folder / "icons")
    return folder


def _run(script: Path, home: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env["HOME"] = str(home)
    result = subprocess.run(["sh", str(script), *args], env=env, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def test_install_upgrade_and_uninstall_keep_the_users_data(unpacked, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    _run(unpacked / "install.sh", home)
    command = home / ".local" / "bin" / "rotary"
    assert subprocess.run([str(command)], capture_output=True, text=True).stdout == "version-1\n"
    desktop = (home / ".local/share/applications/rotary.desktop").read_text()
    assert f"Exec={home}/.local/lib/rotary/Rotary %F" in desktop and "Icon=rotary" in desktop
    assert (home / ".local/share/icons/hicolor/256x256/apps/rotary.png").exists()

    conversations = home / ".local/share/Rotary/history.db"
    settings = home / ".config/Rotary/settings.json"
    for path in (conversations, settings):
        path.parent.mkdir(parents=True)
        path.write_text("the user's own")

    (unpacked / "Rotary" / "Rotary").write_text("#!/bin/sh\necho version-2\n")
    _run(unpacked / "install.sh", home)                      # upgrade in place
    assert subprocess.run([str(command)], capture_output=True, text=True).stdout == "version-2\n"
    assert conversations.read_text() == "the user's own"

    said = _run(home / ".local/lib/rotary/uninstall.sh", home)
    assert "kept" in said
    assert not (home / ".local/lib/rotary").exists() and not command.exists()
    assert not (home / ".local/share/applications/rotary.desktop").exists()
    assert conversations.read_text() == "the user's own" and settings.exists()

    _run(unpacked / "uninstall.sh", home, "--remove-my-data")
    assert not conversations.exists() and not settings.exists()
