"""Engine errors in the interface's language.

An error with a catalogue message (``error.msg``, engine/messages.py) is said in full in
the interface's language, parameters included (app/messages.py). An error that still
carries a finished English sentence is named by its kind in that language, and the
engine's own sentence moves to the details that "Copy details" gives to IT.
"""

from __future__ import annotations

import engine.errors as e
from app import i18n
from app.i18n import tr
from app.messages import say


def _kinds() -> dict[type, str]:
    # plain tr() calls, so that lupdate finds them; looked up along the error's class order
    return {
        e.NotAGGUFError: tr("This file is not a model Rotary can use (a .gguf file)."),
        e.CorruptModelError: tr("The model file is damaged or incomplete. Copy or download "
                                "it again."),
        e.ModelFileError: tr("The model file cannot be opened. Check that it is still there "
                             "and that you may read it."),
        e.UnsupportedModelError: tr("Rotary cannot run this kind of model yet."),
        e.InsufficientMemoryError: tr("This computer does not have enough memory for this "
                                      "model, even with the smallest settings."),
        e.ModelLoadError: tr("The model could not be loaded."),
        e.ContextFullError: tr("This conversation is too long for the model. Start a new "
                               "chat to go on."),
        e.GenerationError: tr("Something went wrong while writing the answer."),
        e.EngineStateError: tr("The model is not ready for this yet."),
        e.ServerUnreachableError: tr("The office server does not answer. Check the address "
                                     "and the network, or ask your IT contact."),
        e.ServerCertificateError: tr("The office server's certificate is not trusted. Ask "
                                     "your IT contact for the certificate file."),
        e.ServerAuthError: tr("The office server refused the access key. Check it in "
                              "Settings."),
        e.ServerModelNotFoundError: tr("The office server does not offer the chosen model. "
                                       "Choose another one in Settings."),
        e.ServerBusyError: tr("The office server is busy. Try again in a moment."),
        e.ServerDroppedError: tr("The connection to the office server broke during the "
                                 "answer."),
        e.ServerNoTokenizerError: tr("The office server cannot count words, so it cannot "
                                     "summarise documents."),
        e.ServerProtocolError: tr("The office server answered in a way Rotary does not "
                                  "understand."),
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
