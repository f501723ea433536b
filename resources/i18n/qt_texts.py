"""Texts of Qt's own dialogs that Qt's catalogues (qtbase_ko.qm, qtbase_zh_CN.qm, installed
by app/text/i18n.py) lack or leave unfinished; their Korean and Chinese are in rotary_<lang>.ts.

Found by tests/app/test_qt_dialogs_translated.py, which opens the dialogs Rotary uses (the file
chooser, questions, the rename box) non-native under each language and lists any English left.
Keyed by Qt's context (the class), each the exact English source text, mnemonics ("&") included;
build_translations.py writes them into the .ts files under those contexts (lupdate cannot see
them), so our translator answers where Qt's own has nothing.
"""

QT_TEXTS: dict[str, tuple[str, ...]] = {
    "QFileDialog": (
        'Look in:',
        '&Look in:',
        'File &name:',
        'Files of type:',
        'Files of &type:',
        'Back',
        'Go back',
        'Forward',
        'Go forward',
        'Parent Directory',
        'Go to the parent directory',
        'Create New Folder',
        'Create a New Folder',
        'List View',
        'Change to list view mode',
        'Detail View',
        'Change to detail view mode',
        'Sidebar',
        'List of places and bookmarks',
        'Files',
        '&Open',
        '&Choose',
        '&Save',
        'Open',
        'Cancel',
        'All Files (*)',
        '&Rename',
        '&Delete',
        'Show &hidden files',
        '&New Folder',
        'New Folder',
        'Recent Places',
        'My Computer',
        'Computer',
        'Directory:',
        'File',
        'File Folder',
        'Folder',
        'Alias',
        'Shortcut',
        'Unknown',
    ),
    "QFileSystemModel": (
        'Name',
        'Size',
        'Type',
        'Kind',
        'Date Modified',
        'My Computer',
        'Computer',
    ),
}
