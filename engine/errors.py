"""The one family of errors the engine raises towards its callers.

Every error carries a plain-language ``message`` for the user and optional
``details`` for the IT person ("Copy details"). Errors never travel inside
the token stream: the engine reports them as ``RequestFailed`` events.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base class: ``message`` is for people, ``details`` for whoever fixes it."""

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message)
        self.message = message
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


class ContextFullError(GenerationError):
    """The conversation no longer fits in the model's context window."""


class EngineStateError(EngineError):
    """A request that does not fit the engine's state (no model loaded, shut down)."""


class TraceFormatError(EngineError):
    """A routing trace file has the wrong keys, dtypes, shapes or values."""


class BudgetError(EngineError):
    """A residency budget that cannot work (e.g. fewer slots than experts per token)."""
