"""The one family of errors the engine raises towards its callers.

Every error carries a plain-language message for the user and optional ``details`` for
the IT person ("Copy details"). The message is a catalogue code with parameters
(``engine.messages.Msg``): ``msg`` keeps it so that the app can say it in the
interface's language, and ``message`` is its English sentence (command line, log).
Errors never travel inside the token stream: the engine reports them as ``RequestFailed``.
"""

from __future__ import annotations

from engine.messages import Msg, render


class EngineError(Exception):
    """Base class: ``message`` is for people, ``details`` for whoever fixes it.

    ``message`` may still be a finished English sentence (``msg`` is then None): the
    app shows such an error by its kind only, in the interface's language."""

    def __init__(self, message: str | Msg, details: str = "") -> None:
        self.msg: Msg | None = message if isinstance(message, Msg) else None
        self.message = render(message) if isinstance(message, Msg) else message
        super().__init__(self.message)
        self.details = details

    def __str__(self) -> str:
        return self.message if not self.details else f"{self.message} ({self.details})"


class ModelFileError(EngineError):
    """The model file is missing, a folder, or cannot be read."""


class NotAGGUFError(ModelFileError):
    """The file exists but is not a GGUF model."""


class CorruptModelError(ModelFileError):
    """A GGUF whose header is truncated or has impossible values."""


class UnsupportedModelError(EngineError):
    """A GGUF version or architecture the engine cannot run."""


class InsufficientMemoryError(EngineError):
    """Not enough GPU or system memory, even after every fallback step."""


class ModelLoadError(EngineError):
    """llama.cpp refused to load the model for another reason."""


class GenerationError(EngineError):
    """Something went wrong while reading the prompt or writing the answer."""


class AnswerLoopError(GenerationError):
    """A document step began repeating itself (engine.runtime.generation.loop_guard): the document
    fails. A chat answer that loops is no error: it ends with StopReason.LOOP, keeping the
    repeated block once."""


class ContextFullError(GenerationError):
    """The conversation no longer fits in the model's context window."""


class MessageTooLongError(ContextFullError):
    """The newest message alone does not fit in the model's memory (older turns slide out,
    engine/runtime/conversation/context_window.py; only this one is an error)."""


class EngineStateError(EngineError):
    """A request that does not fit the engine's state (no model loaded, shut down)."""


class TraceFormatError(EngineError):
    """A routing trace file has the wrong keys, dtypes, shapes or values."""


class BudgetError(EngineError):
    """A residency budget that cannot work (e.g. fewer slots than experts per token)."""


# ---- the office server (engine.remote) ---------------------------------------------------

class ServerError(EngineError):
    """Something between this computer and the office's model server went wrong."""


class ServerUnreachableError(ServerError):
    """Nothing answers at the configured address (wrong address, server off, no network)."""


class ServerCertificateError(ServerError):
    """The server's TLS certificate is not trusted (self-signed, expired, wrong name)."""


class ServerAuthError(ServerError):
    """The server refused the API key (missing or wrong)."""


class ServerModelNotFoundError(ServerError):
    """The server does not serve the chosen model."""


class ServerBusyError(ServerError):
    """The server is overloaded; ``retry_after_s`` is its own hint, or None."""

    def __init__(self, message: str | Msg, details: str = "", retry_after_s: float | None = None) -> None:
        super().__init__(message, details)
        self.retry_after_s = retry_after_s


class ServerContextFullError(ContextFullError, ServerError):
    """The conversation is longer than the server's context window."""


class ServerDroppedError(ServerError):
    """The connection broke mid-answer; ``partial_text`` is what arrived before it did."""

    def __init__(self, message: str | Msg, details: str = "", partial_text: str = "") -> None:
        super().__init__(message, details)
        self.partial_text = partial_text


class ServerProtocolError(ServerError):
    """The server answered, but not like an OpenAI-compatible server (or without a tokenizer)."""


class ServerNoTokenizerError(ServerProtocolError):
    """The server cannot count tokens (no /tokenize), so documents cannot be split for it."""


class DocumentError(EngineError):
    """A document that cannot be read or summarised; ``message`` says why in plain words."""


class UnsupportedDocumentError(DocumentError):
    """A file type Rotary does not read (it reads PDF, Word .docx, text and Markdown)."""


class DocumentTooLargeError(DocumentError):
    """Over the size or page limit; refused before the whole file is read."""


class PasswordProtectedError(DocumentError):
    """An encrypted PDF or Word file that opens only with a password."""


class NoTextLayerError(DocumentError):
    """A PDF whose pages are images (a scan): there is no text to read without OCR."""


class CorruptDocumentError(DocumentError):
    """The file's contents do not match its type or are damaged."""


class EmptyDocumentError(DocumentError):
    """The file holds no readable text at all."""


class ReadingStoppedError(DocumentError):
    """The user stopped the document before its text was read (during text recognition, or
    while it waited its turn): not a fault, so the app says so quietly and logs no error."""
