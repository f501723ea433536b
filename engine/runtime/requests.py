"""The engine thread's queue: requests waiting their turn and the one running, each with its
own stop.

GPT4All stops with one atomic flag; here a stop names what it ends (a request, or what a
conversation has asked for), so "stop, then send at once" never un-stops the answer still
running, and a request stopped while it waits never starts. A request's ``CancelToken`` is
made when the engine thread takes it; a stop that comes while it waits is remembered on its
queue entry until then.
"""

from __future__ import annotations

import collections
import logging
import threading
from dataclasses import dataclass
from typing import Any, Callable

log = logging.getLogger("rotary.engine")


class CancelToken(threading.Event):
    """One request's stop: ``set()`` from any thread; the engine thread reads ``is_set()``
    between tokens (a ``threading.Event``, so code that takes an Event takes it too).
    ``on_cancel`` callbacks run at once on the stopping thread: they end what cannot be
    checked between tokens, such as a read from a server that says nothing."""

    def __init__(self) -> None:
        super().__init__()
        self._callbacks_lock = threading.Lock()
        self._callbacks: list[Callable[[], None]] = []

    def set(self) -> None:
        with self._callbacks_lock:
            if self.is_set():
                return
            super().set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            try:
                callback()
            except Exception:  # a stop must reach every callback, and the stopping thread lives on
                log.exception("a stop callback failed")

    cancel = set

    def clear(self) -> None:
        raise RuntimeError("a request's stop cannot be taken back; the next request has its own")

    def on_cancel(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Run ``callback`` when the request is stopped (at once if it already is); returns
        the function that unregisters it."""
        with self._callbacks_lock:
            if not self.is_set():
                self._callbacks.append(callback)
                return lambda: self._forget(callback)
        callback()
        return lambda: None

    def _forget(self, callback: Callable[[], None]) -> None:
        with self._callbacks_lock:
            if callback in self._callbacks:
                self._callbacks.remove(callback)


@dataclass
class _Waiting:
    request: Any
    stopped: bool = False


def _request_id(request: Any) -> int | None:
    return getattr(request, "request_id", None)


def _conversation_id(request: Any) -> int | None:
    return getattr(request, "conversation_id", None)


class RequestQueue:
    """Thread-safe: ``put``, ``stop``, ``waiting`` from any thread; ``take``/``done`` on the
    engine thread only."""

    def __init__(self) -> None:
        self._lock = threading.Condition()
        self._waiting: collections.deque[_Waiting] = collections.deque()
        self._running: tuple[Any, CancelToken] | None = None
        # Set while the engine thread waits with nothing to do, reading ahead included.
        self.quiet = threading.Event()

    def put(self, request: Any, *, first: bool = False) -> None:
        with self._lock:
            if first:
                self._waiting.appendleft(_Waiting(request))
            else:
                self._waiting.append(_Waiting(request))
            self.quiet.clear()
            self._lock.notify()

    def take(self) -> tuple[Any, CancelToken]:
        """The next request and its new stop token (already set if it was stopped while it
        waited); it is the running one until ``done``."""
        with self._lock:
            while not self._waiting:
                self.quiet.set()
                self._lock.wait()
            self.quiet.clear()
            entry = self._waiting.popleft()
            token = CancelToken()
            if entry.stopped:
                token.set()
            self._running = (entry.request, token)
            return entry.request, token

    def pending(self) -> bool:
        """Does a request wait? (The engine thread reads ahead only while none does.)"""
        with self._lock:
            return bool(self._waiting)

    def done(self) -> None:
        with self._lock:
            self._running = None

    def stop(self, request_id: int | None = None) -> None:
        """Stop one request, waiting or running; None: the running one. Unknown or finished
        ids are ignored (a stop may cross the end of its answer)."""
        self._stop(lambda request: request_id is None or _request_id(request) == request_id,
                   waiting_too=request_id is not None)

    def stop_conversation(self, conversation_id: int) -> None:
        """Stop everything this conversation asked for: the running request and waiting ones."""
        self._stop(lambda request: _conversation_id(request) == conversation_id)

    def stop_all(self) -> None:
        self._stop(lambda request: True)

    def _stop(self, matches: Callable[[Any], bool], waiting_too: bool = True) -> None:
        with self._lock:
            if waiting_too:
                for entry in self._waiting:
                    if _request_id(entry.request) is not None and matches(entry.request):
                        entry.stopped = True
            running = self._running
        if running is not None and matches(running[0]):
            running[1].set()            # outside the lock: its callbacks may take a while

    def waiting(self, request_id: int) -> bool:
        """Is this request queued behind another one (running, or waiting ahead of it)?"""
        with self._lock:
            for position, entry in enumerate(self._waiting):
                if _request_id(entry.request) == request_id:
                    return position > 0 or self._running is not None
            return False
