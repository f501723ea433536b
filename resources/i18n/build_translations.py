"""Rotary's translations: ``rotary_<lang>.ts`` (Qt Linguist) are the only source; this writes
the .qm files the app loads from them: ``python resources/i18n/build_translations.py``.

1. ``pyside6-lupdate`` adds every new ``tr("...")`` of app/ to each .ts, keeping what is
   translated (``-no-obsolete`` drops what app/ no longer says);
2. the contexts lupdate cannot see are written back, each text keeping its translation: the
   engine's message catalogue (engine/messages.py) under ``engine`` (app/text/messages.py
   translates those templates by variable), and the texts of Qt's own dialogs that Qt's
   catalogue lacks (``qt_texts.py``) under their Qt classes;
3. ``pyside6-lrelease`` (ships with PySide6-Essentials) compiles each .ts to .qm.

A new text is left ``unfinished`` in the .ts, for Qt Linguist (or any .ts editor) to translate;
the build lists every such text and exits non-zero. ``--check`` writes nothing and says the
same. ``--take-tables <git revision>`` brings in the Korean and Chinese of the Python tables
(translations.py, engine_translations.py) as a branch made before this build still has them.
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))
from engine.messages import CATALOGUE  # noqa: E402
from qt_texts import QT_TEXTS  # noqa: E402

ENGINE_CONTEXT = "engine"    # app/text/messages.py translates in this context
LANGUAGES = ("ko", "zh_CN")
Key = tuple[str, str]        # (context, English source text)


def ts_path(language: str) -> Path:
    return HERE / f"rotary_{language}.ts"


def read_ts(path: Path) -> dict[Key, str | None]:
    """Every text of a .ts file and its translation (None: not translated yet)."""
    found: dict[Key, str | None] = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            kind = translation.get("type") if translation is not None else "unfinished"
            if message.get("type") == "vanished" or kind in ("vanished", "obsolete"):
                continue
            text = translation.text if translation is not None else None
            found[(name, message.findtext("source") or "")] = \
                text if text and kind != "unfinished" else None
    return found


def unseen_contexts() -> dict[str, tuple[str, ...]]:
    """The texts lupdate cannot find in app/: the engine's catalogue, Qt dialogs' gaps."""
    return {ENGINE_CONTEXT: tuple(dict.fromkeys(CATALOGUE.values())),
            **{name: tuple(texts) for name, texts in QT_TEXTS.items()}}


def add_unseen(root: ET.Element, known: dict[Key, str | None]) -> None:
    """One <context> per unseen context, in catalogue order, each text with its translation."""
    for name, sources in unseen_contexts().items():
        for old in [c for c in root.iter("context") if c.findtext("name") == name]:
            root.remove(old)
        context = ET.SubElement(root, "context")
        ET.SubElement(context, "name").text = name
        for source in sources:
            message = ET.SubElement(context, "message")
            ET.SubElement(message, "source").text = source
            _set(ET.SubElement(message, "translation"), known.get((name, source)))
    _indent_like_lupdate(root)


def _set(translation: ET.Element, text: str | None) -> None:
    translation.text = text
    if text:
        translation.attrib.pop("type", None)
    else:
        translation.set("type", "unfinished")


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


def update(path: Path, taken: dict[str, dict[str, str]]) -> list[str]:
    """lupdate into ``path``, the unseen contexts written back, ``taken`` translations put
    in (tables_at); returns the texts still without a translation."""
    known = read_ts(path)
    app_sources = sorted(str(p) for p in (ROOT / "app").rglob("*.py"))
    subprocess.run([tool("pyside6-lupdate"), *app_sources, "-no-obsolete", "-locations", "none",
                    "-ts", str(path)], check=True)
    tree = ET.parse(path)
    add_unseen(tree.getroot(), known)
    missing = []
    for context in tree.getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source, translation = message.findtext("source") or "", message.find("translation")
            if translation is None or message.get("type") == "vanished":
                continue
            table = taken.get(ENGINE_CONTEXT if name == ENGINE_CONTEXT else "", {})
            if source in table and name not in QT_TEXTS:
                _set(translation, table[source])
            if not translation.text or translation.get("type") == "unfinished":
                missing.append(source)
    tree.write(path, encoding="utf-8", xml_declaration=True)
    return missing


def tool(name: str) -> str:
    return str(Path(sys.executable).parent / name)


def tables_at(revision: str, language: str) -> dict[str, dict[str, str]]:
    """The translations the Python tables held at ``revision`` (a branch made before the
    .ts files became the source): the engine's table for the ``engine`` context (key
    ``engine``), the app's for every other (key ``""``)."""
    column = LANGUAGES.index(language)
    tables = {}
    for kind, file, variable in (("", "translations.py", "TRANSLATIONS"),
                                 (ENGINE_CONTEXT, "engine_translations.py", "ENGINE_TRANSLATIONS")):
        text = subprocess.run(["git", "-C", str(ROOT), "show",
                               f"{revision}:resources/i18n/{file}"],
                              check=True, capture_output=True, text=True).stdout
        tables[kind] = {source: both[column] for source, both in _literal(text, variable).items()}
    return tables


def _literal(text: str, variable: str) -> dict[str, tuple[str, str]]:
    """The dictionary assigned to ``variable`` in a Python file, read without running it."""
    for node in ast.parse(text).body:
        target: ast.expr
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        elif isinstance(node, ast.Assign):
            target, value = node.targets[0], node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == variable:
            return ast.literal_eval(value)
    raise SystemExit(f"no {variable} in that file")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; list the texts without a translation")
    parser.add_argument("--take-tables", metavar="REVISION",
                        help="put in the translations of the Python tables at this revision")
    args = parser.parse_args(argv)
    missing: set[str] = set()
    with tempfile.TemporaryDirectory() as scratch:
        for language in LANGUAGES:
            path = ts_path(language)
            if args.check:      # the same build, on a copy
                path = Path(scratch) / path.name
                path.write_bytes(ts_path(language).read_bytes())
            taken = tables_at(args.take_tables, language) if args.take_tables else {}
            missing.update(update(path, taken))
            if not args.check:
                subprocess.run([tool("pyside6-lrelease"), str(path), "-qm",
                                str(path.with_suffix(".qm"))], check=True)
    for text in sorted(missing):
        print(f"missing translation: {text!r}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
