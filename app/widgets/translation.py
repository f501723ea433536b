"""Qt's translators for the interface's language, plugged into app/text/i18n.py's ``tr``."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app.text import i18n


def resolve_language(choice: str) -> str:
    """'system' means the OS language when we ship it, else English."""
    if choice in i18n.LANGUAGES:
        return choice
    name = QLocale.system().name()          # e.g. "ko_KR", "zh_CN"
    if name.startswith("ko"):
        return "ko"
    if name.startswith("zh"):
        return "zh_CN"
    return "en"


def install_translator(app: QCoreApplication, choice: str) -> list[QTranslator]:
    """Install our .qm for ``choice`` and Qt's own (qtbase: the wizard's Back/Next/Cancel,
    the dialogs' OK/Cancel), and send ``tr`` through Qt. English needs no translator.
    Returns them to keep them alive."""
    code = resolve_language(choice)
    i18n.use_translation(QCoreApplication.translate, code)
    if code == "en":
        return []
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    installed = []
    for name, folder in ((f"rotary_{code}", str(i18n.I18N_DIR)), (f"qtbase_{code}", qt_dir)):
        translator = QTranslator(app)
        if translator.load(name, folder):
            app.installTranslator(translator)
            installed.append(translator)
    return installed


def uninstall_translators(app: QCoreApplication, translators: list[QTranslator]) -> None:
    """Undo install_translator: the interface speaks English again (Qt still translates, so
    a translator installed by hand keeps working)."""
    for translator in translators:
        app.removeTranslator(translator)
    i18n.use_translation(QCoreApplication.translate, "en")
