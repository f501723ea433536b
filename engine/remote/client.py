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
from engine.messages import msg
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
    """A request was ended on purpose by its stop (a CancelToken): a stop, not a failure."""


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
            raise ServerProtocolError(msg("remote.bad_certificate_file"),
                                      f"{config.ca_bundle}: {error!r}") from error
        options: dict[str, Any] = dict(
            base_url=config.root, headers=headers, verify=verify, trust_env=False,
            follow_redirects=False,
            timeout=httpx.Timeout(config.read_timeout_s, connect=config.connect_timeout_s))
        self._http = httpx.Client(**options)
        # Requests a stop must end at once (answers, and what the engine thread waits for
        # before one) each get a connection of their own: its socket is known from the
        # moment it connects, so a stop can shut it even before the server has said a word.
        self._stoppable = httpx.Client(**options, limits=httpx.Limits(max_keepalive_connections=0))
        self.tokenizer: str | None = None      # None: not probed yet; "": the server has none
        self._lock = threading.Lock()

    def close(self) -> None:
        self._http.close()
        self._stoppable.close()

    @contextlib.contextmanager
    def _ended_by(self, stop: threading.Event | None
                  ) -> Iterator[tuple[httpx.Client, dict]]:
        """The client and request extensions for a request ``stop`` ends at once: its
        connection's socket is shut down from the stopping thread, which wakes the read
        the engine thread is blocked in (closing alone would not). StreamAborted if the
        request was stopped before it began."""
        if stop is None:
            yield self._http, {}
            return
        if stop.is_set():
            raise StreamAborted()
        sockets: list[socket.socket] = []

        def on_connected(event: str, info: dict) -> None:      # httpcore's trace extension
            if event in _CONNECTED and info.get("return_value") is not None:
                sockets[:] = [info["return_value"].get_extra_info("socket")]
                if stop.is_set():
                    _shut(sockets[0])

        # A plain threading.Event (the documents command line) is only read between pieces.
        on_cancel = getattr(stop, "on_cancel", lambda callback: lambda: None)

        def shut_all() -> None:
            for sock in list(sockets):
                _shut(sock)
        forget = on_cancel(shut_all)
        try:
            yield self._stoppable, {"trace": on_connected}
        except (EngineError, httpx.TransportError) as error:
            if stop.is_set():        # the shut socket's error is the stop, not a failure
                raise StreamAborted() from error
            raise
        finally:
            forget()

    # ---- plain requests ----------------------------------------------------------------

    def _request(self, method: str, path: str, stop: threading.Event | None = None,
                 **kwargs: Any) -> httpx.Response:
        with self._ended_by(stop) as (http, extensions), connection_errors(self.config.root):
            response = http.request(method, path, extensions=extensions, **kwargs)
        if not response.is_success:
            raise status_error(response.status_code, error_text(response), self.config.root,
                               self.config.model, response.headers.get("retry-after"))
        return response

    def _json(self, response: httpx.Response) -> Any:
        try:
            return response.json()
        except ValueError as error:
            raise ServerProtocolError(msg("remote.not_a_model_server", address=self.config.root),
                                      response.text[:300]) from error

    def post_json(self, path: str, body: dict) -> Any:
        return self._json(self._request("POST", path, json=body))

    def models(self) -> list[ModelEntry]:
        """The server's models, from /v1/models."""
        body = self._json(self._request("GET", "/v1/models"))
        entries = body.get("data") if isinstance(body, dict) else None
        if not isinstance(entries, list):
            raise ServerProtocolError(msg("remote.no_model_list", address=self.config.root),
                                      "/v1/models: " + str(body)[:300])
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

    def count_tokens(self, text: str, model: str, stop: threading.Event | None = None) -> int:
        """Tokens of ``text`` by the server's own tokenizer; never an estimate. With
        ``stop``, a stop ends the wait at once (StreamAborted)."""
        if self.tokenizer is None:
            self.find_tokenizer(model)
        if not self.tokenizer:
            raise no_tokenizer(self.config.root)
        return self._tokenize(self.tokenizer, text, model, stop)

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

    def _tokenize(self, path: str, text: str, model: str, stop: threading.Event | None = None
                  ) -> int:
        body_of = dict(_TOKENIZERS)[path]
        body = self._json(self._request("POST", path, stop, json=body_of(model, text)))
        tokens = body.get("tokens") if isinstance(body, dict) else None
        if not isinstance(tokens, list):
            raise ServerProtocolError(msg("remote.no_tokens"), str(body)[:300])
        return len(tokens)

    # ---- the streamed answer -----------------------------------------------------------

    def stream_chat(self, payload: dict, partial: list[str], stop: threading.Event
                    ) -> Iterator[dict]:
        """The JSON chunks of one streamed chat completion; stops at "[DONE]".

        ``partial`` is the caller's text so far: a connection lost mid-answer raises
        ServerDroppedError carrying it. ``stop`` ends the answer at once, even while the
        server is silent (a long prompt on a busy server, or a server that hangs): the
        generator then raises StreamAborted.
        """
        try:
            with self._ended_by(stop) as (http, extensions):
                yield from self._stream(http, extensions, payload, partial)
        except ServerDroppedError as error:
            if error.partial_text:
                raise
            raise self._why_silent(payload, error, stop) from error

    def _stream(self, http: httpx.Client, extensions: dict, payload: dict,
                partial: list[str]) -> Iterator[dict]:
        with contextlib.ExitStack() as stack:
            with connection_errors(self.config.root):
                event_source = stack.enter_context(connect_sse(
                    http, "POST", "/v1/chat/completions", json=payload, extensions=extensions))
            response = event_source.response
            if not response.is_success:
                response.read()
                raise status_error(response.status_code, error_text(response),
                                   self.config.root, payload.get("model", ""),
                                   response.headers.get("retry-after"))
            yield from self._chunks(event_source, payload, partial)

    def _why_silent(self, payload: dict, dropped_error: ServerDroppedError,
                    stop: threading.Event) -> EngineError:
        # llama-cpp-python reports a too-long prompt by closing an empty stream; asking
        # again without streaming (one token) gets its reason as a proper HTTP error.
        # The connection the broken stream shared may be reset: one retry on a fresh one.
        for attempt in range(2):
            try:
                self._request("POST", "/v1/chat/completions", stop,
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
            raise ServerProtocolError(msg("remote.unreadable_answer", address=self.config.root),
                                      event.data[:300]) from error
        if not isinstance(chunk, dict):
            raise ServerProtocolError(msg("remote.unreadable_answer", address=self.config.root),
                                      event.data[:300])
        return chunk


_CONNECTED = ("connection.connect_tcp.complete", "connection.start_tls.complete")


def _shut(sock: socket.socket) -> None:
    # socket.socket's own shutdown, also for an SSLSocket: it wakes a blocked read without
    # touching the TLS state the reading thread is using.
    with contextlib.suppress(OSError):
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


def _stream_error(error: Any, root: str, payload: dict) -> EngineError:
    text = str(error.get("message", error)) if isinstance(error, dict) else str(error)
    code = error.get("code", 500) if isinstance(error, dict) else 500
    return status_error(int(code) if str(code).isdigit() else 500, text, root,
                        payload.get("model", ""))


def no_tokenizer(root: str) -> ServerNoTokenizerError:
    return ServerNoTokenizerError(
        msg("remote.no_tokenizer", address=root),
        f"no tokenizer endpoint at {root} (/tokenize, /extras/tokenize); llama.cpp's "
        "llama-server and vLLM offer one")


def dropped(root: str, partial: str, details: str) -> ServerDroppedError:
    code = "remote.dropped_kept" if partial else "remote.dropped"
    return ServerDroppedError(msg(code, address=root), details, partial)


__all__ = ["ServerClient", "ModelEntry", "context_size_in", "dropped", "no_tokenizer"]
