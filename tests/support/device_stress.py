"""The device stress test's two children (the CPU build and lavapipe, tests/support/stress_child.py)
and the check that their answers agree (tests/engine/test_device_stress.py)."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

from tests.support.vulkan_device import ROOT, child_env

# Two builds' top-1 may differ only where the top two logits are this close (CPU and lavapipe
# logits differ by ~1e-3 on this model): a tie, not a fault; that conversation is not compared
# after it (its history now differs).
TIE_MARGIN = 5e-3
REPLY_TIMEOUT_S = 300


class Child:
    """One back-end's child: a sequence in on stdin, one ``@@ json`` line back."""

    def __init__(self, model: Path, folder: str | None, log: Path) -> None:
        self.model, self.folder, self.log = model, folder, log
        self.proc: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        self.stderr = self.log.open("w")
        self.proc = subprocess.Popen(
            # faulthandler: a crash leaves the Python stack in the log this test shows
            [sys.executable, "-X", "faulthandler", "-m", "tests.support.stress_child",
             str(self.model)], cwd=ROOT,
            env={**child_env(self.folder), "ROTARY_SLOT_CHECK": "1"}, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self.stderr, text=True)
        self.lines: queue.Queue = queue.Queue()
        # a thread reads the replies, so that a child that hangs fails the test by a timeout
        threading.Thread(target=self._read, args=(self.proc.stdout, self.lines),
                         daemon=True).start()
        self.hello = self.reply()

    @staticmethod
    def _read(stream, lines: queue.Queue) -> None:
        for line in stream:
            if line.startswith("@@ "):
                lines.put(line[3:])
        lines.put(None)                            # the child ended

    def send(self, turns: list[dict]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(turns) + "\n")
        self.proc.stdin.flush()

    def reply(self) -> dict:
        assert self.proc is not None
        try:
            line = self.lines.get(timeout=REPLY_TIMEOUT_S)
        except queue.Empty:
            line = None
            self.proc.kill()
        if line is not None:
            return json.loads(line)
        code = self.proc.wait(timeout=30)
        self.stderr.close()
        tail = self.log.read_text(errors="replace")[-3000:]
        self.start()                             # the next sequence gets a fresh child
        raise AssertionError(f"the {'Vulkan' if self.folder else 'CPU'} child died or hung "
                             f"(exit {code}):\n{tail}")

    def close(self) -> None:
        if self.proc is not None and self.proc.stdin is not None:
            self.proc.stdin.close()
            self.proc.wait(timeout=REPLY_TIMEOUT_S)
        self.stderr.close()


def run_both(children, turns: list[dict]) -> tuple[dict, dict]:
    cpu, vulkan = children
    vulkan.send(turns)                 # both run at once
    cpu.send(turns)
    return cpu.reply(), vulkan.reply()


def compare(turns: list[dict], cpu: dict, vulkan: dict) -> int:
    """The Vulkan run equals the CPU run turn by turn; returns the ties met."""
    diverged: set[int] = set()
    for number, (spec, a, b) in enumerate(zip(turns, cpu["answers"], vulkan["answers"])):
        if spec["conv"] in diverged:
            continue
        where = f"turn {number} ({spec}): CPU {a}, Vulkan {b}"
        differ = next((i for i, (x, y) in enumerate(zip(a["tokens"], b["tokens"])) if x != y),
                      None)
        if differ is not None:
            assert min(a["margins"][differ], b["margins"][differ]) < TIE_MARGIN, where
            diverged.add(spec["conv"])
            continue
        assert a["tokens"] == b["tokens"] and a["reason"] == b["reason"], where
        assert a["context"] == b["context"], where
    for run in (cpu, vulkan):
        counters = run["counters"]
        assert counters["order_violations"] == 0 and counters["staging_violations"] == 0, counters
    return len(diverged)


def check(children, turns: list[dict]) -> dict:
    cpu, vulkan = run_both(children, turns)
    ties = compare(turns, cpu, vulkan)
    print(f"\n{len(turns)} turns, {sum(t['length'] for t in turns)} words, "
          f"{sum(bool(t.get('reload')) for t in turns)} reloads: lavapipe "
          f"{vulkan['run_s']} s (load {vulkan['load_s']} s), CPU {cpu['run_s']} s, ties {ties}")
    return vulkan
