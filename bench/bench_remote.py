"""Remote backend benchmarks against llama-cpp-python's server on 127.0.0.1 (demo model).

1. Client overhead: writing speed (tokens/s) through Rotary's remote engine — its thread,
   queue, StepRecords and listener, as the app drives it — ÷ a bare streaming httpx +
   httpx-sse client, same server, model, prompt and settings. Target ≥ 0.97; below 0.90
   the script exits 1 (between the two is noise on a shared 2-core machine).
2. Concurrency: 4 desks (4 remote engines) ask one server at once, each for an answer of a
   different length; every answer must arrive whole, in order, under its own request and
   conversation ids, with no piece of another answer in it. Any loss exits 1.

Rounds alternate the sides, order rotated each round; the ratio is the median of per-round
ratios. All figures are measured in this run; none is modelled.
Usage: python bench/bench_remote.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import json
import pathlib
import queue
import statistics
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402
from httpx_sse import connect_sse  # noqa: E402

from engine.api import (ChatMessage, ChatRequest, LoadRequest, ModelLoaded, RequestFailed,  # noqa: E402
                        RequestFinished, StepRecord)
from engine.fixtures.demo_model import DEMO_TEXT, write_demo_model  # noqa: E402
from engine.remote.config import ServerConfig  # noqa: E402
from engine.remote.fixture_server import FixtureServer  # noqa: E402
from engine.remote.service import RemoteEngineService  # noqa: E402
from engine.remote.stream import chat_payload  # noqa: E402

TARGET, FLOOR = 0.97, 0.90
PROMPT = (ChatMessage("user", "Hello, who are you?"),)


def _speeds(stamps: list[float], sent: float) -> tuple[float, float]:
    """(writing tokens/s after the first token, tokens/s from sending to the last token)."""
    n = len(stamps)
    writing = (n - 1) / (stamps[-1] - stamps[0]) if n > 1 else 0.0
    return writing, n / (stamps[-1] - sent) if n else 0.0


class RotarySide:
    def __init__(self, url: str, conversation_id: int = 1) -> None:
        self.events: queue.Queue = queue.Queue()
        self.stamps: dict[int, list[float]] = {}
        self.texts: dict[int, list[str]] = {}
        self.conversation_id = conversation_id
        self.engine = RemoteEngineService(self._listener, ServerConfig(url))
        self._wait(self.engine.load(LoadRequest("")))

    def _listener(self, event) -> None:      # on the engine thread, as the app's bridge
        if isinstance(event, StepRecord):
            self.stamps.setdefault(event.request_id, []).append(time.perf_counter())
            self.texts.setdefault(event.request_id, []).append(event.text)
        self.events.put(event)

    def _wait(self, request_id: int):
        while True:
            event = self.events.get(timeout=300)
            if isinstance(event, RequestFailed):
                raise SystemExit(f"remote engine failed: {event.error} ({event.error.details})")
            if isinstance(event, (ModelLoaded, RequestFinished)) and event.request_id == request_id:
                return event

    def ask(self, max_tokens: int) -> tuple[RequestFinished, float]:
        sent = time.perf_counter()
        request = ChatRequest(PROMPT, max_tokens=max_tokens, temperature=0.0,
                              conversation_id=self.conversation_id)
        return self._wait(self.engine.chat(request)), sent

    def speeds(self, max_tokens: int) -> tuple[float, float]:
        finished, sent = self.ask(max_tokens)
        return _speeds(self.stamps[finished.request_id], sent)

    def close(self) -> None:
        self.engine.shutdown()


class BareSide:
    """What any streaming client does: POST, read SSE, parse JSON, take the text."""

    def __init__(self, url: str, model: str) -> None:
        self.http = httpx.Client(base_url=url, trust_env=False, timeout=300)
        self.model = model

    def speeds(self, max_tokens: int) -> tuple[float, float]:
        payload = chat_payload(ChatRequest(PROMPT, max_tokens=max_tokens, temperature=0.0),
                               self.model)
        stamps, sent = [], time.perf_counter()
        with connect_sse(self.http, "POST", "/v1/chat/completions", json=payload) as source:
            for event in source.iter_sse():
                if event.data == "[DONE]":
                    break
                delta = json.loads(event.data)["choices"][0]["delta"]
                if delta.get("content"):
                    stamps.append(time.perf_counter())
        return _speeds(stamps, sent)

    def close(self) -> None:
        self.http.close()


def overhead(url: str, model: str, rounds: int, tokens: int) -> tuple[float, float]:
    rotary, bare = RotarySide(url), BareSide(url, model)
    results: dict[str, list[tuple[float, float]]] = {"rotary": [], "bare": []}
    sides = {"rotary": rotary, "bare": bare}
    for side in sides.values():      # warm both (connections, server caches)
        side.speeds(tokens)
    for index in range(rounds):
        order = ["rotary", "bare"] if index % 2 == 0 else ["bare", "rotary"]
        for name in order:
            results[name].append(sides[name].speeds(tokens))
    rotary.close()
    bare.close()
    for name, runs in results.items():
        print(f"{name:>8}: writing median {statistics.median(r[0] for r in runs):7.1f} tok/s, "
              f"send-to-last median {statistics.median(r[1] for r in runs):7.1f} tok/s "
              f"({len(runs)} runs)")
    pairs = list(zip(results["rotary"], results["bare"]))
    writing = statistics.median(r[0] / b[0] for r, b in pairs)
    end_to_end = statistics.median(r[1] / b[1] for r, b in pairs)
    return writing, end_to_end


def concurrency(url: str, desks: int = 4) -> tuple[bool, float]:
    """``desks`` engines at once; returns (every answer whole and unmixed, wall seconds)."""
    lengths = [12 + 17 * desk for desk in range(desks)]          # a different answer each
    sides = [RotarySide(url, conversation_id=100 + desk) for desk in range(desks)]
    one_by_one = time.perf_counter()
    reference = {n: sides[0].ask(n)[0].text for n in lengths}   # one at a time, first
    one_by_one = time.perf_counter() - one_by_one
    outcomes: list = [None] * desks

    def run(desk: int) -> None:
        outcomes[desk] = sides[desk].ask(lengths[desk])[0]

    threads = [threading.Thread(target=run, args=(desk,)) for desk in range(desks)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    wall = time.perf_counter() - started
    ok = True
    for desk, (side, finished) in enumerate(zip(sides, outcomes)):
        streamed = "".join(side.texts.get(finished.request_id, [])) if finished else ""
        whole = (finished is not None and finished.text == streamed == reference[lengths[desk]]
                 and finished.conversation_id == side.conversation_id
                 and DEMO_TEXT.startswith(finished.text))
        print(f"  desk {desk + 1}: {len(streamed.split()):3d} words, "
              f"{'whole' if whole else 'LOST OR MIXED'}")
        ok &= whole
    for side in sides:
        side.close()
    print(f"  one after another: {one_by_one:.2f} s; all at once: {wall:.2f} s "
          "(llama-cpp-python's server answers one request at a time; vLLM batches them)")
    return ok, wall


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--tokens", type=int, default=400, help="the demo answer ends sooner")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        model = write_demo_model(pathlib.Path(folder) / "demo.gguf")
        with FixtureServer(model) as server:
            print(f"server: llama-cpp-python {server.url}, model {server.alias}, 1 thread")
            writing, end_to_end = overhead(server.url, server.alias, args.rounds, args.tokens)
            print("4 desks at once on one server:")
            whole, wall = concurrency(server.url)
    verdict = "OK" if writing >= TARGET else ("BELOW TARGET" if writing >= FLOOR else "FAR BELOW")
    print(f"remote engine / bare httpx client, writing tokens/s: {writing:.3f}  "
          f"(target >= {TARGET}) {verdict}")
    print(f"remote engine / bare httpx client, send to last token: {end_to_end:.3f}  (info)")
    print(f"4 simultaneous conversations: {'all whole, none mixed' if whole else 'TEXT LOST OR MIXED'}"
          f" in {wall:.2f} s")
    return 0 if writing >= FLOOR and whole else 1


if __name__ == "__main__":
    sys.exit(main())
