"""``python -m engine chat --server URL``: talk to an office server from a terminal.

Runs the very RemoteEngineService the app uses, so IT checks what users get.
"""

from __future__ import annotations

import os
import queue
import sys

from engine.api import (ChatMessage, ChatRequest, LoadRequest, RequestFailed, RequestFinished,
                        ServerModelLoaded, StepRecord)
from engine.errors import EngineError
from engine.messages import msg
from engine.remote.config import ServerConfig
from engine.remote.service import RemoteEngineService


def config_from_args(args) -> ServerConfig:
    key = None
    if args.api_key_env:
        key = os.environ.get(args.api_key_env)
        if not key:
            raise EngineError(msg("remote.key_variable_unset", name=args.api_key_env))
    return ServerConfig(args.server, model=args.server_model or "", api_key=key,
                        ca_bundle=args.ca_bundle)


def _until_done(events: "queue.Queue", request_id: int, echo: bool):
    """Print streamed text of ``request_id``; return its final event or raise its error."""
    while True:
        event = events.get()
        if getattr(event, "request_id", None) != request_id:
            continue
        if isinstance(event, StepRecord) and echo:
            print(event.text, end="", flush=True)
        elif isinstance(event, RequestFailed):
            if echo and bool(getattr(event.error, "partial_text", "")):
                print("\n[answer cut off]")
            raise event.error
        elif isinstance(event, (RequestFinished, ServerModelLoaded)):
            return event


def run_chat(args) -> int:
    events: queue.Queue = queue.Queue()
    engine = RemoteEngineService(events.put, config_from_args(args))
    try:
        loaded = _until_done(events, engine.load(LoadRequest(args.server_model or "")), False)
        size = loaded.server.context_size
        context = f"{size} tokens" if size else "not stated by the server"
        print(f"{loaded.message} Context length: {context}.\n"
              "Type a message; an empty line quits.", file=sys.stderr)
        history: list[ChatMessage] = []
        for line in sys.stdin:
            if not line.strip():
                break
            history.append(ChatMessage("user", line.strip()))
            request = ChatRequest(tuple(history), max_tokens=args.max_tokens,
                                  temperature=args.temperature, seed=args.seed)
            finished = _until_done(events, engine.chat(request), True)
            print()
            history.append(ChatMessage("assistant", finished.text))
            stats = finished.stats
            print(f"[first word after {stats.ttft_s:.2f} s, writing {stats.decode_tps:.1f} "
                  f"tok/s, {stats.context_used} tokens used]", file=sys.stderr)
    finally:
        engine.shutdown()
    return 0
