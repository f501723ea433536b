"""httpx's exceptions and HTTP statuses → the engine's typed errors, in plain words."""

from __future__ import annotations

import contextlib
import re
import ssl
from typing import Iterator

import httpx

from engine.errors import (EngineError, ServerAuthError, ServerBusyError, ServerCertificateError,
                           ServerContextFullError, ServerError, ServerModelNotFoundError,
                           ServerProtocolError, ServerUnreachableError)
from engine.messages import msg

# How vLLM, llama.cpp's server and llama-cpp-python's server word "prompt too long".
_CONTEXT_PHRASES = re.compile(
    r"context length|context window|context size|exceeds? the available context|"
    r"maximum context|too many tokens", re.IGNORECASE)
_CONTEXT_NUMBER = re.compile(
    r"(?:context window of|maximum context length is|context size \(?|n_ctx\W+)\s*(\d+)",
    re.IGNORECASE)


def _is_certificate_problem(error: BaseException) -> bool:
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY_FAILED" in str(seen):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


@contextlib.contextmanager
def connection_errors(root: str) -> Iterator[None]:
    """Around a request that has not started streaming yet."""
    try:
        yield
    except httpx.ConnectError as error:
        if _is_certificate_problem(error):
            raise ServerCertificateError(msg("remote.untrusted_certificate", address=root),
                                         repr(error)) from error
        raise ServerUnreachableError(msg("remote.no_answer", address=root),
                                     repr(error)) from error
    except httpx.TimeoutException as error:
        raise ServerUnreachableError(msg("remote.too_slow", address=root),
                                     repr(error)) from error
    except httpx.TransportError as error:
        raise ServerUnreachableError(msg("remote.connection_failed", address=root),
                                     repr(error)) from error


def error_text(response: httpx.Response) -> str:
    """The server's own error message (OpenAI's {"error": {"message"}} or FastAPI's "detail")."""
    try:
        body = response.json()
    except ValueError:
        return response.text[:500]
    if isinstance(body, dict):
        inner = body.get("error", body.get("detail", body))
        if isinstance(inner, dict):
            return str(inner.get("message", inner))
        return str(inner)
    return str(body)[:500]


def status_error(status: int, text: str, root: str, model: str,
                 retry_after: str | None = None) -> EngineError:
    """One typed error for a refused request; ``text`` is the server's own message."""
    details = f"HTTP {status}: {text}"
    if status in (401, 403):
        return ServerAuthError(msg("remote.key_refused"), details)
    if _CONTEXT_PHRASES.search(text):
        return ServerContextFullError(msg("remote.conversation_too_long"), details)
    if status == 404 and "model" in text.lower():
        return model_not_found(model, root, details)
    if status == 404:
        return ServerProtocolError(msg("remote.no_chat_service", address=root), details)
    if status in (429, 503):
        seconds = _seconds(retry_after)
        busy = msg("remote.busy_retry", seconds=seconds) if seconds else msg("remote.busy")
        return ServerBusyError(busy, details, seconds)
    return ServerError(msg("remote.refused", status=status), details)


def model_not_found(model: str, root: str, details: str = "") -> ServerModelNotFoundError:
    return ServerModelNotFoundError(msg("remote.model_not_offered", address=root, model=model),
                                    details)


def context_size_in(text: str) -> int:
    """The context length a "too long" message states, or 0."""
    match = _CONTEXT_NUMBER.search(text)
    return int(match.group(1)) if match else 0


def _seconds(retry_after: str | None) -> float | None:
    try:
        return float(retry_after) if retry_after else None
    except ValueError:       # an HTTP date: no promise we can put in plain words
        return None
