"""Engine errors in the interface's language.

The engine raises its errors with a catalogue message (``error.msg``, engine/messages.py),
said here in full in the interface's language, parameters included (app/text/messages.py).
What still carries a finished English sentence (errors from parts not converted yet, or a
future one written without a code) is named by its kind in that language, and the
engine's own sentence moves to the details that "Copy details" gives to IT. Errors the app
writes itself with tr() are already in the interface's language.
"""

from __future__ import annotations

import engine.errors as e
from app.text import i18n
from app.text.i18n import tr
from app.text.messages import say


def _kinds() -> dict[type, str]:
    # plain tr() calls, so that lupdate finds them; looked up along the error's class order.
    # Memory and load errors from llama_model.py and the document errors still carry
    # English; the families below them are the safety net for anything else.
    return {
        e.InsufficientMemoryError: tr("This computer does not have enough memory for this "
                                      "model, even with the smallest settings."),
        e.ModelLoadError: tr("The model could not be loaded."),
        e.ModelFileError: tr("The model file cannot be opened. Check that it is still there "
                             "and that you may read it."),
        e.UnsupportedModelError: tr("Rotary cannot run this kind of model yet."),
        e.GenerationError: tr("Something went wrong while writing the answer."),
        e.ServerError: tr("Something went wrong between this computer and the office server."),
        e.UnsupportedDocumentError: tr("Rotary reads PDF, Word (.docx), text and Markdown "
                                       "files."),
        e.DocumentTooLargeError: tr("This document is too large for Rotary."),
        e.PasswordProtectedError: tr("This document is protected by a password. Save a copy "
                                     "without the password and try again."),
        e.NoTextLayerError: tr("This PDF holds only pictures of its pages (a scan), so there "
                               "is no text to read."),
        e.CorruptDocumentError: tr("This document is damaged, or is not what its name says."),
        e.EmptyDocumentError: tr("This document has no text to read."),
        e.DocumentError: tr("This document cannot be summarised."),
    }


def error_text(error: e.EngineError) -> tuple[str, str]:
    """(message, details) to show. English, or an error the app wrote itself with tr(), or a
    kind with no sentence here (the command line's): as the engine wrote it."""
    if i18n.active_language == "en":
        return error.message, error.details
    # The engine's exact English goes to IT with the details.
    english = f"{error.message}\n{error.details}" if error.details else error.message
    if error.msg is not None:
        return say(error.msg), english
    kinds = _kinds()
    for kind in type(error).__mro__:
        if kind in kinds:
            return kinds[kind], english
    return error.message, error.details
