"""The HTTP side: one httpx client per server, with httpx-sse for the streamed answer.

Only the configured host is ever contacted: proxies and .netrc from the environment are
ignored (``trust_env=False``) and redirects are not followed, so no conversation can be
sent elsewhere behind the user's back.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading
from dataclasses import dataclass
from typing import Any, Iterator

import httpx
from httpx_sse import connect_sse

from engine.errors import (EngineError, ServerAuthError, ServerCertificateError, ServerDroppedError,
                           ServerError, ServerNoTokenizerError, ServerProtocolError,
                           ServerUnreachableError)
from engine.remote.config import ServerConfig
from engine.remote.errors import (connection_errors, context_size_in, error_text,
                                  model_not_found, status_error)

# (path, body) per server family; the first that answers is used from then on.
_TOKENIZERS = (
    ("/tokenize", lambda model, text: {"model": model, "content": text, "prompt": text,
                                      "add_special": False, "add_special_tokens": False}),
    ("/extras/tokenize", lambda model, text: {"model": model, "input": text}),
)


class StreamAborted(Exception):
    """The answer was ended on purpose (``ServerClient.abort``): a stop, not a failure."""


@dataclass(frozen=True)
class ModelEntry:
    id: str
    context_size: int        # 0 when /v1/models does not say (only vLLM does)


def _verify(config: ServerConfig) -> ssl.SSLContext | bool:
    if not config.verify_tls:
        return False
    return ssl.create_default_context(cafile=config.ca_bundle or None)


class ServerClient:
    """Thread-safe (httpx.Client is); closes its connections in ``close``."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        headers = {"Authorization": f"Bearer {config.api_key}"} if config.api_key else {}
        try:
            verify = _verify(config)
        except (OSError, ssl.SSLError) as error:
            raise ServerProtocolError(
                "The certificate file chosen in Settings cannot be read.",
                f"{config.ca_bundle}: {error!r}") from error
        self._http = httpx.Client(
            base_url=config.root, headers=headers, verify=verify, trust_env=False,
            follow_redirects=False,
            timeout=httpx.Timeout(config.read_timeout_s, connect=config.connect_timeout_s))
        self.tokenizer: str | None = None      # None: not probed yet; "": the server has none
        self._lock = threading.Lock()
        self._current: httpx.Response | None = None    # the answer being streamed
        self._aborted = threading.Event()

    def close(self) -> None:
        self._http.close()

    # ---- plain requests ----------------------------------------------------------------

    def _request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        with connection_errors(self.config.root):
            response = self._http.request(method, path, **kwargs)
        if not response.is_success:
            raise status_error(response.status_code, error_text(response), self.config.root,
                               self.config.model, response.headers.get("retry-after"))
        return response

    def _json(self, response: httpx.Response) -> Any:
        try:
            return response.json()
        except ValueError as error:
            raise ServerProtocolError(
                f"{self.config.root} answered, but not like a model server.",
                response.text[:300]) from error

    def post_json(self, path: str, body: dict) -> Any:
        return self._json(self._request("POST", path, json=body))

    def models(self) -> list[ModelEntry]:
        """The server's models, from /v1/models."""
        body = self._json(self._request("GET", "/v1/models"))
        entries = body.get("data") if isinstance(body, dict) else None
        if not isinstance(entries, list):
            raise ServerProtocolError(f"{self.config.root} sent no model list.", str(body)[:300])
        return [ModelEntry(str(e.get("id", "")), int(e.get("max_model_len") or 0))
                for e in entries if isinstance(e, dict) and e.get("id")]

    def choose_model(self, wanted: str) -> ModelEntry:
        models = self.models()
        if not models:
            raise model_not_found(wanted or "(any)", self.config.root, "empty /v1/models")
        for entry in models:
            if entry.id == wanted or not wanted:
                return entry
        raise model_not_found(wanted, self.config.root,
                              "offered: " + ", ".join(e.id for e in models))

    def server_context_size(self) -> int:
        """llama.cpp's /props knows the context it was started with; others: 0."""
        try:
            body = self._json(self._request("GET", "/props"))
        except EngineError:
            return 0
        settings = body.get("default_generation_settings", {}) if isinstance(body, dict) else {}
        return int(settings.get("n_ctx") or body.get("n_ctx") or 0)

    # ---- token counting ----------------------------------------------------------------

    def count_tokens(self, text: str, model: str) -> int:
        """Tokens of ``text`` by the server's own tokenizer; never an estimate."""
        if self.tokenizer is None:
            self.find_tokenizer(model)
        if not self.tokenizer:
            raise no_tokenizer(self.config.root)
        return self._tokenize(self.tokenizer, text, model)

    def find_tokenizer(self, model: str) -> str:
        with self._lock:
            if self.tokenizer is None:
                self.tokenizer = next((path for path, _ in _TOKENIZERS
                                       if self._tokenizer_works(path, model)), "")
        return self.tokenizer

    def _tokenizer_works(self, path: str, model: str) -> bool:
        try:
            self._tokenize(path, "Hello", model)
            return True
        except (ServerUnreachableError, ServerCertificateError, ServerAuthError):
            raise
        except ServerError:      # 404/405/422: not this family's endpoint
            return False

    def _tokenize(self, path: str, text: str, model: str) -> int:
        body_of = dict(_TOKENIZERS)[path]
        body = self._json(self._request("POST", path, json=body_of(model, text)))
        tokens = body.get("tokens") if isinstance(body, dict) else None
        if not isinstance(tokens, list):
            raise ServerProtocolError("The server's tokenizer sent no tokens.", str(body)[:300])
        return len(tokens)

    # ---- the streamed answer -----------------------------------------------------------

    def stream_chat(self, payload: dict, partial: list[str]) -> Iterator[dict]:
        """The JSON chunks of one streamed chat completion; stops at "[DONE]".

        ``partial`` is the caller's text so far: a connection lost mid-answer raises
        ServerDroppedError carrying it.
        """
        self._aborted.clear()
        try:
            yield from self._stream(payload, partial)
        except ServerDroppedError as error:
            if self._aborted.is_set():
                raise StreamAborted() from error
            if error.partial_text:
                raise
            raise self._why_silent(payload, error) from error
        finally:
            with self._lock:
                self._current = None

    def abort(self) -> None:
        """From any thread: end the answer being read now, even while the server is silent
        (a long prompt on a busy server). Shutting the socket down wakes the blocked read."""
        self._aborted.set()
        with self._lock:
            response = self._current
        stream = response.extensions.get("network_stream") if response is not None else None
        sock = stream.get_extra_info("socket") if stream is not None else None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def _stream(self, payload: dict, partial: list[str]) -> Iterator[dict]:
        with contextlib.ExitStack() as stack:
            with connection_errors(self.config.root):
                event_source = stack.enter_context(
                    connect_sse(self._http, "POST", "/v1/chat/completions", json=payload))
            response = event_source.response
            with self._lock:
                self._current = response
            if self._aborted.is_set():
                raise StreamAborted()
            if not response.is_success:
                response.read()
                raise status_error(response.status_code, error_text(response),
                                   self.config.root, payload.get("model", ""),
                                   response.headers.get("retry-after"))
            yield from self._chunks(event_source, payload, partial)

    def _why_silent(self, payload: dict, dropped_error: ServerDroppedError) -> EngineError:
        # llama-cpp-python reports a too-long prompt by closing an empty stream; asking
        # again without streaming (one token) gets its reason as a proper HTTP error.
        # The connection the broken stream shared may be reset: one retry on a fresh one.
        for attempt in range(2):
            try:
                self._request("POST", "/v1/chat/completions",
                              json=dict(payload, stream=False, max_tokens=1, stream_options=None))
                return dropped_error
            except ServerUnreachableError as error:
                if attempt:
                    return error
            except EngineError as error:
                return error
        return dropped_error

    def _chunks(self, event_source, payload: dict, partial: list[str]) -> Iterator[dict]:
        try:
            for event in event_source.iter_sse():
                if event.data.strip() == "[DONE]":
                    return
                chunk = self._chunk(event)
                if "error" in chunk:      # llama.cpp reports some failures mid-stream
                    raise _stream_error(chunk["error"], self.config.root, payload)
                yield chunk
        except httpx.TransportError as error:
            raise dropped(self.config.root, "".join(partial), repr(error)) from error
        raise dropped(self.config.root, "".join(partial), "the stream ended without [DONE]")

    def _chunk(self, event) -> dict:
        try:
            chunk = event.json()
        except ValueError as error:
            raise ServerProtocolError(f"{self.config.root} sent an answer Rotary cannot read.",
                                      event.data[:300]) from error
        if not isinstance(chunk, dict):
            raise ServerProtocolError(f"{self.config.root} sent an answer Rotary cannot read.",
                                      event.data[:300])
        return chunk


def _stream_error(error: Any, root: str, payload: dict) -> EngineError:
    text = str(error.get("message", error)) if isinstance(error, dict) else str(error)
    code = error.get("code", 500) if isinstance(error, dict) else 500
    return status_error(int(code) if str(code).isdigit() else 500, text, root,
                        payload.get("model", ""))


def no_tokenizer(root: str) -> ServerNoTokenizerError:
    return ServerNoTokenizerError(
        f"The office server at {root} cannot count tokens (it has no /tokenize service), so "
        "Rotary cannot split documents to fit its model. Chat still works. Servers such as "
        "llama.cpp's llama-server and vLLM can count.", f"no tokenizer endpoint at {root}")


def dropped(root: str, partial: str, details: str) -> ServerDroppedError:
    kept = " The answer so far is kept." if partial else ""
    return ServerDroppedError(
        f"The connection to the office server at {root} was lost while it was "
        f"writing.{kept}", details, partial)


__all__ = ["ServerClient", "ModelEntry", "context_size_in", "dropped", "no_tokenizer"]
