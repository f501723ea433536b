"""llama-cpp-python's own OpenAI-compatible server on 127.0.0.1, for tests and benchmarks.

It needs llama-cpp-python's ``server`` extra (fastapi, uvicorn, sse-starlette, …), which the
``test`` extra installs. Nothing here is used by the app.
"""

from __future__ import annotations

import os
import socket
import ssl
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class FixtureServer:
    """``with FixtureServer(model) as server: server.url`` — started, then killed."""

    def __init__(self, model: str | os.PathLike, *, alias: str = "rotary-demo", n_ctx: int = 512,
                 api_key: str | None = None, extra: tuple[str, ...] = (),
                 log: str | os.PathLike | None = None, scheme: str = "http",
                 verify: str | bool = True) -> None:
        self.port = free_port()
        self.url = f"{scheme}://127.0.0.1:{self.port}"
        self.verify = verify       # for the readiness probe only (a CA file for https)
        self.alias = alias
        self.command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model),
                        "--model_alias", alias, "--host", "127.0.0.1", "--port", str(self.port),
                        "--n_ctx", str(n_ctx), "--n_threads", "1", "--n_threads_batch", "1",
                        # one request must not cut another's answer off (the default does)
                        "--interrupt_requests", "False", *extra]
        if api_key:
            self.command += ["--api_key", api_key]
        self.log_path = Path(log) if log else None
        self.process: subprocess.Popen | None = None

    def start(self, timeout_s: float = 90.0) -> "FixtureServer":
        log = open(self.log_path, "wb") if self.log_path else subprocess.DEVNULL
        self.process = subprocess.Popen(self.command, stdout=log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited with {self.process.returncode}")
            try:
                httpx.get(self.url + "/v1/models", timeout=1.0, trust_env=False,
                          verify=self._verify())
                return self
            except httpx.TransportError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"llama_cpp.server did not answer within {timeout_s:.0f} s")

    def _verify(self):
        return ssl.create_default_context(cafile=self.verify) if isinstance(self.verify, str) \
            else self.verify

    def kill(self) -> None:
        """Die at once, as a crashed or unplugged server does."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> "FixtureServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
