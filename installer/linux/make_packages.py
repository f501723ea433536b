"""Package dist/Rotary for Linux: a per-user tarball and, where dpkg-deb exists, a .deb.

    python installer/linux/make_packages.py [--bundle dist/Rotary] [--out dist]

The tarball holds Rotary/ with install.sh and uninstall.sh (per user, into ~/.local, no
administrator rights). The .deb installs the same bundle system-wide under /opt/rotary;
removing it never touches anyone's home folder, so conversations and settings stay. Both ask
nothing while installing, and carry an example of the organisation's settings file
(installer/policy/policy.toml.example; the .deb puts it in /etc/rotary).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
ICONS = ROOT / "installer" / "icons"
POLICY_EXAMPLE = ROOT / "installer" / "policy" / "policy.toml.example"
# Qt finds these on the system: PyInstaller leaves the GL drivers out of every bundle.
DEB_DEPENDS = "libc6 (>= 2.31), libgl1, libegl1, libfontconfig1, libxkbcommon0"


def project_version() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return re.search(r'^version\s*=\s*"([^"]+)"', text, re.M).group(1)


def make_tarball(bundle: Path, out: Path, version: str) -> Path:
    name = f"rotary-{version}-linux-x86_64"
    target = out / f"{name}.tar.gz"
    # Level 6: nearly the size of 9 at a fraction of the time (CI builds this every run).
    with tarfile.open(target, "w:gz", compresslevel=6) as tar:
        tar.add(bundle, arcname=f"{name}/Rotary")            # keeps the library symlinks
        for script in ("install.sh", "uninstall.sh", "rotary.desktop"):
            tar.add(HERE / script, arcname=f"{name}/{script}")
        tar.add(POLICY_EXAMPLE, arcname=f"{name}/policy.toml.example")
        for icon in ("rotary.png", "rotary.svg"):
            tar.add(ICONS / icon, arcname=f"{name}/icons/{icon}")
    return target


def make_deb(bundle: Path, out: Path, version: str) -> Path | None:
    if shutil.which("dpkg-deb") is None:
        print("dpkg-deb not found: no .deb made")
        return None
    with tempfile.TemporaryDirectory(prefix="rotary-deb-") as scratch:
        tree = Path(scratch) / "rotary"
        shutil.copytree(bundle, tree / "opt" / "rotary", symlinks=True)
        (tree / "usr" / "bin").mkdir(parents=True)
        (tree / "usr" / "bin" / "rotary").symlink_to("/opt/rotary/Rotary")
        _put(tree / "usr/share/applications/rotary.desktop",
             (HERE / "rotary.desktop").read_text().replace("@EXEC@", "/opt/rotary/Rotary"))
        for icon, folder in (("rotary.png", "256x256"), ("rotary.svg", "scalable")):
            destination = tree / f"usr/share/icons/hicolor/{folder}/apps/{icon}"
            destination.parent.mkdir(parents=True)
            shutil.copy(ICONS / icon, destination)
        # An example only: the real /etc/rotary/policy.toml is IT's, never the package's.
        _put(tree / "etc/rotary/policy.toml.example", POLICY_EXAMPLE.read_text(encoding="utf-8"))
        size_kib = sum(p.stat().st_size for p in tree.rglob("*")
                       if p.is_file() and not p.is_symlink()) // 1024
        _put(tree / "DEBIAN" / "control", _control(version, size_kib))
        target = out / f"rotary_{version}_amd64.deb"
        subprocess.run(["dpkg-deb", "--root-owner-group", "-Zgzip", "-z6", "--build", str(tree),
                        str(target)],
                       check=True, stdout=subprocess.DEVNULL)
    return target


def _control(version: str, size_kib: int) -> str:
    return (f"Package: rotary\nVersion: {version}\nArchitecture: amd64\nSection: utils\n"
            f"Priority: optional\nInstalled-Size: {size_kib}\nDepends: {DEB_DEPENDS}\n"
            "Maintainer: Rotary team <rotary@localhost>\n"
            "Description: Offline chat with large Mixture-of-Experts language models\n"
            " Rotary runs large language models on this computer, without the internet,\n"
            " fitting them to a small graphics card.\n")


def _put(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--bundle", type=Path, default=ROOT / "dist" / "Rotary")
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    if not (args.bundle / "Rotary").exists():
        print(f"no bundle at {args.bundle}: run installer/build_bundle.py first")
        return 1
    version = project_version()
    for made in (make_tarball(args.bundle, args.out, version),
                 make_deb(args.bundle, args.out, version)):
        if made is not None:
            print(f"made {made} ({made.stat().st_size / 2**20:.0f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
