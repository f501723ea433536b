"""Regenerate the .ts and .qm files: ``python resources/i18n/build_translations.py``.

1. ``pyside6-lupdate`` collects every ``tr("...")`` from app/ into rotary_<lang>.ts;
2. the engine's message catalogue (engine/messages.py) is added under the context ``engine``
   (lupdate cannot see it: the app translates those templates by variable);
3. Qt's own dialogs' texts that Qt's catalogue lacks are added under their Qt classes'
   contexts (``qt_translations.py``: QFileDialog's "Look in:", ...);
4. translations from ``translations.py``, ``engine_translations.py`` and
   ``qt_translations.py`` are written in;
5. ``pyside6-lrelease`` (ships with PySide6-Essentials) compiles them to .qm.
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
sys.path.insert(0, str(ROOT))
from engine.messages import CATALOGUE  # noqa: E402
from engine_translations import ENGINE_TRANSLATIONS  # noqa: E402
from qt_translations import QT_TRANSLATIONS  # noqa: E402
from translations import TRANSLATIONS  # noqa: E402

ENGINE_CONTEXT = "engine"    # app/text/messages.py translates in this context

LANGUAGES = {"ko": 0, "zh_CN": 1}      # column in TRANSLATIONS


def tool(name: str) -> str:
    return str(Path(sys.executable).parent / name)


def add_engine_context(root: ET.Element) -> None:
    """One <context> holding every catalogue template, in catalogue order; then one per Qt
    class whose texts Qt's own catalogue (qtbase_<lang>.qm) lacks (qt_translations.py)."""
    for name, sources in ((ENGINE_CONTEXT, CATALOGUE.values()),
                          *((name, table) for name, table in QT_TRANSLATIONS.items())):
        for old in [c for c in root.iter("context") if c.findtext("name") == name]:
            root.remove(old)
        context = ET.SubElement(root, "context")
        ET.SubElement(context, "name").text = name
        for template in dict.fromkeys(sources):
            message = ET.SubElement(context, "message")
            ET.SubElement(message, "source").text = template
            ET.SubElement(message, "translation", type="unfinished")
    _indent_like_lupdate(root)


def _indent_like_lupdate(root: ET.Element) -> None:
    # lupdate writes <context> at column 0 and indents by 4 below it; keep that layout
    root.text = "\n"
    for context in root:
        ET.indent(context, space="    ", level=0)
        for child in context:
            child.tail = "\n    "
        context[-1].tail = "\n"
        context.text = "\n    "
        context.tail = "\n"


def fill(ts_path: Path, column: int) -> list[str]:
    tree = ET.parse(ts_path)
    add_engine_context(tree.getroot())
    missing = []
    for context in tree.getroot().iter("context"):
        name = context.findtext("name")
        table = ENGINE_TRANSLATIONS if name == ENGINE_CONTEXT else \
            QT_TRANSLATIONS.get(name, TRANSLATIONS)
        for message in context.iter("message"):
            source = message.findtext("source")
            translation = message.find("translation")
            if message.get("type") == "vanished" or translation.get("type") in ("vanished",
                                                                                 "obsolete"):
                continue
            if source in table:
                translation.text = table[source][column]
                translation.attrib.pop("type", None)
            else:
                missing.append(source)
    tree.write(ts_path, encoding="utf-8", xml_declaration=True)
    return missing


def main() -> int:
    sources = sorted(str(p) for p in (ROOT / "app").rglob("*.py"))
    ts_files = [HERE / f"rotary_{code}.ts" for code in LANGUAGES]
    subprocess.run([tool("pyside6-lupdate"), *sources, "-no-obsolete", "-locations", "none", "-ts",
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
