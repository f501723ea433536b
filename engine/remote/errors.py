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
            raise ServerCertificateError(
                f"The office server at {root} has a security certificate this computer does "
                "not trust. Ask IT for the office's certificate file and choose it in "
                "Settings.", repr(error)) from error
        raise ServerUnreachableError(
            f"The office server at {root} does not answer. Check the address, and that "
            "this computer is on the office network.", repr(error)) from error
    except httpx.TimeoutException as error:
        raise ServerUnreachableError(
            f"The office server at {root} took too long to answer. It may be off or "
            "overloaded; try again in a minute.", repr(error)) from error
    except httpx.TransportError as error:
        raise ServerUnreachableError(
            f"The connection to the office server at {root} failed.", repr(error)) from error


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
        return ServerAuthError(
            "The office server refused the access key. Check the key in Settings, or ask "
            "IT for a new one.", details)
    if _CONTEXT_PHRASES.search(text):
        return ServerContextFullError(
            "This conversation is too long for the server's model. Start a new chat or "
            "shorten the text.", details)
    if status == 404 and "model" in text.lower():
        return model_not_found(model, root, details)
    if status == 404:
        return ServerProtocolError(
            f"{root} is not a model server Rotary can use (no chat service found there).",
            details)
    if status in (429, 503):
        seconds = _seconds(retry_after)
        wait = f" It suggests trying again in {seconds:.0f} seconds." if seconds else ""
        return ServerBusyError(f"The office server is busy right now.{wait}", details, seconds)
    return ServerError(f"The office server could not answer (error {status}).", details)


def model_not_found(model: str, root: str, details: str = "") -> ServerModelNotFoundError:
    return ServerModelNotFoundError(
        f"The office server at {root} does not offer the model \"{model}\". Choose one of "
        "its models in Settings.", details)


def context_size_in(text: str) -> int:
    """The context length a "too long" message states, or 0."""
    match = _CONTEXT_NUMBER.search(text)
    return int(match.group(1)) if match else 0


def _seconds(retry_after: str | None) -> float | None:
    try:
        return float(retry_after) if retry_after else None
    except ValueError:       # an HTTP date: no promise we can put in plain words
        return None
