"""Translation: one ``tr`` helper and the QTranslator install.

Every user-visible string goes through ``tr`` so that ``pyside6-lupdate`` finds it
(it extracts plain ``tr("...")`` calls with an empty context) and Qt translates it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

I18N_DIR = Path(__file__).resolve().parent.parent / "resources" / "i18n"

# Language codes we ship, with their names written in their own language.
LANGUAGES = {"en": "English", "ko": "한국어", "zh_CN": "简体中文"}


# The interface's language once install_translator has run ("en" until then).
active_language = "en"


def tr(text: str) -> str:
    return QCoreApplication.translate("", text)


def resolve_language(choice: str) -> str:
    """'system' means the OS language when we ship it, else English."""
    if choice in LANGUAGES:
        return choice
    name = QLocale.system().name()          # e.g. "ko_KR", "zh_CN"
    if name.startswith("ko"):
        return "ko"
    if name.startswith("zh"):
        return "zh_CN"
    return "en"


def install_translator(app: QCoreApplication, choice: str) -> list[QTranslator]:
    """Install our .qm for ``choice`` and Qt's own (qtbase: the wizard's Back/Next/Cancel,
    the dialogs' OK/Cancel). English needs none. Returns them to keep them alive."""
    global active_language
    code = active_language = resolve_language(choice)
    if code == "en":
        return []
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    installed = []
    for name, folder in ((f"rotary_{code}", str(I18N_DIR)), (f"qtbase_{code}", qt_dir)):
        translator = QTranslator(app)
        if translator.load(name, folder):
            app.installTranslator(translator)
            installed.append(translator)
    return installed


def uninstall_translators(app: QCoreApplication, translators: list[QTranslator]) -> None:
    """Undo install_translator: the interface speaks English again."""
    global active_language
    for translator in translators:
        app.removeTranslator(translator)
    active_language = "en"
