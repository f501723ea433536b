"""Regenerate the .ts and .qm files: ``python resources/i18n/build_translations.py``.

1. ``pyside6-lupdate`` collects every ``tr("...")`` from app/ into rotary_<lang>.ts;
2. translations from ``translations.py`` are written into the .ts files;
3. ``pyside6-lrelease`` (ships with PySide6-Essentials) compiles them to .qm.
Exits non-zero and lists the texts that have no translation yet.
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
from translations import TRANSLATIONS  # noqa: E402

LANGUAGES = {"ko": 0, "zh_CN": 1}      # column in TRANSLATIONS


def tool(name: str) -> str:
    return str(Path(sys.executable).parent / name)


def fill(ts_path: Path, column: int) -> list[str]:
    tree = ET.parse(ts_path)
    missing = []
    for message in tree.getroot().iter("message"):
        source = message.findtext("source")
        translation = message.find("translation")
        if message.get("type") == "vanished" or translation.get("type") in ("vanished",
                                                                             "obsolete"):
            continue
        if source in TRANSLATIONS:
            translation.text = TRANSLATIONS[source][column]
            translation.attrib.pop("type", None)
        else:
            missing.append(source)
    tree.write(ts_path, encoding="utf-8", xml_declaration=True)
    return missing


def main() -> int:
    sources = sorted(str(p) for p in (ROOT / "app").glob("*.py"))
    ts_files = [HERE / f"rotary_{code}.ts" for code in LANGUAGES]
    subprocess.run([tool("pyside6-lupdate"), *sources, "-no-obsolete", "-ts",
                    *map(str, ts_files)], check=True)
    missing = set()
    for ts_path, column in zip(ts_files, LANGUAGES.values()):
        missing.update(fill(ts_path, column))
        subprocess.run([tool("pyside6-lrelease"), str(ts_path), "-qm",
                        str(ts_path.with_suffix(".qm"))], check=True)
    for text in sorted(missing):
        print(f"missing translation: {text!r}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
