"""A listener for the engine thread's events that also records the thread each arrived on."""

from __future__ import annotations

import queue
import threading


class Collector:
    """Listener that records events and the thread each arrived on."""

    def __init__(self):
        self.events: queue.Queue = queue.Queue()
        self.threads: set[str] = set()

    def __call__(self, event):
        self.threads.add(threading.current_thread().name)
        self.events.put(event)

    def until(self, kind, timeout=60.0):
        seen = []
        while True:
            event = self.events.get(timeout=timeout)
            seen.append(event)
            if isinstance(event, kind):
                return seen


def on_request_events(bridge, kinds, receiver):
    """The bridge's request events (its one ``request_event`` signal) of these engine.api
    types, each to ``receiver``."""
    bridge.request_event.connect(lambda event: receiver(event) if isinstance(event, kinds)
                                 else None)
