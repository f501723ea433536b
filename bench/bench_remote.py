"""Remote backend benchmarks against llama-cpp-python's server on 127.0.0.1 (demo model).

1. Client overhead: writing speed (tokens/s) through Rotary's remote engine — its thread,
   queue, StepRecords and listener, as the app drives it — ÷ a bare streaming httpx +
   httpx-sse client, same server, model, prompt and settings. Target ≥ 0.97; below 0.90
   the script exits 1 (between the two is noise on a shared 2-core machine).
2. Concurrency: 4 desks (4 remote engines) ask one server at once, each for an answer of a
   different length; every answer must arrive whole, in order, under its own request and
   conversation ids, with no piece of another answer in it. Any loss exits 1.

Rounds alternate the sides, order rotated each round; each side's sample is 4 answers; the
ratio is the median of per-round ratios. All figures are measured in this run; none is modelled.
Usage: python bench/bench_remote.py [--rounds 25]
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

from engine.api import (ChatMessage, ChatRequest, LoadRequest, RequestFailed,  # noqa: E402
                        RequestFinished, ServerModelLoaded, StepRecord)
from engine.fixtures.demo_model import DEMO_TEXT, write_demo_model  # noqa: E402
from engine.remote.config import ServerConfig  # noqa: E402
from engine.remote.fixture_server import FixtureServer  # noqa: E402
from engine.remote.service import RemoteEngineService  # noqa: E402
from engine.remote.stream import chat_payload  # noqa: E402
from bench.verdict import Verdicts  # noqa: E402

TARGET, FLOOR = 0.97, 0.90
PROMPT = (ChatMessage("user", "Hello, who are you?"),)


ANSWERS_PER_SAMPLE = 4     # one demo answer lasts ~70 ms: too short to outlast a busy spell


def _speeds(runs: list[tuple[list[float], float]]) -> tuple[float, float]:
    """Over several answers (token arrival times, time sent): (writing tokens/s after each
    answer's first token, tokens/s from sending to the last token)."""
    writing = sum(len(t) - 1 for t, _ in runs) / sum(t[-1] - t[0] for t, _ in runs)
    return writing, sum(len(t) for t, _ in runs) / sum(t[-1] - sent for t, sent in runs)


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
            if isinstance(event, (ServerModelLoaded, RequestFinished)) \
                    and event.request_id == request_id:
                return event

    def ask(self, max_tokens: int) -> tuple[RequestFinished, float]:
        sent = time.perf_counter()
        request = ChatRequest(PROMPT, max_tokens=max_tokens, temperature=0.0,
                              conversation_id=self.conversation_id)
        return self._wait(self.engine.chat(request)), sent

    def speeds(self, max_tokens: int) -> tuple[float, float]:
        runs = []
        for _ in range(ANSWERS_PER_SAMPLE):
            finished, sent = self.ask(max_tokens)
            runs.append((self.stamps[finished.request_id], sent))
        return _speeds(runs)

    def close(self) -> None:
        self.engine.shutdown()


class BareSide:
    """What any streaming client does: POST, read SSE, parse JSON, take the text."""

    def __init__(self, url: str, model: str) -> None:
        self.http = httpx.Client(base_url=url, trust_env=False, timeout=300)
        self.model = model

    def speeds(self, max_tokens: int) -> tuple[float, float]:
        return _speeds([self.answer(max_tokens) for _ in range(ANSWERS_PER_SAMPLE)])

    def answer(self, max_tokens: int) -> tuple[list[float], float]:
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
        return stamps, sent

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
    print(f"  the same four answers one after another: {one_by_one:.2f} s; all at once: "
          f"{wall:.2f} s [measured, info]")
    return ok, wall


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument("--tokens", type=int, default=400, help="the demo answer ends sooner")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        model = write_demo_model(pathlib.Path(folder) / "demo.gguf")
        with FixtureServer(model) as server:
            print(f"server: llama-cpp-python {server.url}, model {server.alias}, 1 thread")
            writing, end_to_end = overhead(server.url, server.alias, args.rounds, args.tokens)
            print("4 desks at once on one server:")
            whole, wall = concurrency(server.url)
    verdicts = Verdicts()
    verdicts.check("remote engine / bare httpx client, writing tokens/s", writing, TARGET, FLOOR)
    print(f"remote engine / bare httpx client, send to last token: {end_to_end:.3f} [measured] "
          "(info: includes Rotary counting the prompt with the server's tokenizer first)")
    verdicts.check("4 simultaneous conversations, answers whole and unmixed", float(whole),
                   1.0, 1.0)
    print(f"4 simultaneous conversations took {wall:.2f} s [measured]")
    return verdicts.exit_code()


if __name__ == "__main__":
    sys.exit(main())
