"""Rolling Rotary out to many desks (docs/deployment.md): the installers ask nothing and
place the organisation's settings file; the example file IT starts from is read cleanly."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.settings.policy import load_policy

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "installer" / "policy" / "policy.toml.example"
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux") or shutil.which("sh") is None,
                                reason="the install scripts are for Linux")


def test_the_example_policy_is_read_without_a_problem() -> None:
    policy = load_policy(EXAMPLE)
    assert policy.problems == ()
    assert policy.locked == {"model_path", "preset"} and policy.model_folders == ("/srv/models",)
    assert policy.decides_model


@pytest.fixture
def stand_in_bundle(tmp_path) -> Path:
    folder = tmp_path / "unpacked"
    (folder / "Rotary" / "_internal").mkdir(parents=True)
    app = folder / "Rotary" / "Rotary"
    app.write_text("#!/bin/sh\necho rotary\n")
    app.chmod(0o755)
    for script in ("install.sh", "uninstall.sh", "rotary.desktop"):
        shutil.copy(ROOT / "installer" / "linux" / script, folder / script)
    shutil.copytree(ROOT / "installer" / "icons", folder / "icons")
    return folder


def _install(folder: Path, home: Path, policy_dir: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(home), ROTARY_POLICY_DIR=str(policy_dir))
    # No terminal and nothing on standard input: a script that asked would fail here.
    return subprocess.run(["sh", str(folder / "install.sh"), *args], env=env, text=True,
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=60)


@linux_only
def test_install_sh_places_the_policy_file_and_asks_nothing(stand_in_bundle, tmp_path) -> None:
    home, policy_dir = tmp_path / "home", tmp_path / "etc-rotary"
    home.mkdir()
    done = _install(stand_in_bundle, home, policy_dir, "--policy", str(EXAMPLE))
    assert done.returncode == 0, done.stderr
    placed = policy_dir / "policy.toml"
    assert placed.read_text() == EXAMPLE.read_text() and placed.stat().st_mode & 0o777 == 0o644
    assert load_policy(placed).locked == {"model_path", "preset"}
    assert (home / ".local" / "lib" / "rotary" / "Rotary").exists()
    missing = _install(stand_in_bundle, home, policy_dir, "--policy", str(tmp_path / "none.toml"))
    assert missing.returncode == 1 and "does not exist" in missing.stderr


@pytest.mark.skipif(shutil.which("dpkg-deb") is None, reason="no dpkg-deb here")
def test_the_deb_carries_the_example_and_no_questions(stand_in_bundle, tmp_path) -> None:
    sys.path.insert(0, str(ROOT / "installer" / "linux"))
    try:
        import make_packages
    finally:
        sys.path.pop(0)
    deb = make_packages.make_deb(stand_in_bundle / "Rotary", tmp_path, "0.0.1")
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True,
                             check=True).stdout
    assert "./etc/rotary/policy.toml.example" in listing
    assert "./etc/rotary/policy.toml\n" not in listing        # IT's file, never the package's
    control = subprocess.run(["dpkg-deb", "--ctrl-tarfile", str(deb)], capture_output=True,
                             check=True).stdout
    names = subprocess.run(["tar", "-t"], input=control, capture_output=True, check=True).stdout
    assert b"templates" not in names and b"config" not in names   # no debconf questions


def test_the_windows_script_takes_silent_switches_and_the_policy() -> None:
    """Not compiled here (no Inno Setup on Linux): the lines that make it unattended."""
    script = (ROOT / "installer" / "windows" / "rotary.iss").read_text(encoding="utf-8")
    assert "PrivilegesRequiredOverridesAllowed=commandline" in script
    assert 'Source: "{param:POLICY|}"; DestDir: "{commonappdata}\\Rotary"; DestName: "policy.toml"' \
        in script
    assert "uninsneveruninstall; Check: ShouldPlacePolicy" in script
