"""``python -m engine chat --server URL``: IT checks a server from a terminal."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

pytest.importorskip("llama_cpp.server.app", reason="llama-cpp-python's server extra")

from engine.demo.demo_model import DEMO_TEXT, write_demo_model
from tests.support.fixture_server import FixtureServer, free_port

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _chat(*args: str, stdin: str = "Hello\n\n", env: dict | None = None):
    return subprocess.run([sys.executable, "-m", "engine", "chat", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


@pytest.fixture(scope="module")
def keyed_server(tmp_path_factory):
    model = write_demo_model(tmp_path_factory.mktemp("cli") / "demo.gguf")
    with FixtureServer(model, api_key="office-secret") as server:
        yield server


def test_chat_with_a_server_and_its_key(keyed_server):
    result = _chat("--server", keyed_server.url, "--model", keyed_server.alias,
                   "--api-key-env", "ROTARY_TEST_KEY", "--temperature", "0",
                   env={"ROTARY_TEST_KEY": "office-secret"})
    assert result.returncode == 0, result.stderr
    assert DEMO_TEXT in result.stdout
    assert f"on the office server at {keyed_server.url}/v1/chat/completions" in result.stderr


def test_a_wrong_key_is_one_plain_sentence(keyed_server):
    result = _chat("--server", keyed_server.url, "--api-key-env", "ROTARY_TEST_KEY",
                   env={"ROTARY_TEST_KEY": "wrong"})
    assert result.returncode == 2
    assert "refused the access key" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_server_that_is_not_there_exits_2():
    url = f"http://127.0.0.1:{free_port()}"
    result = _chat("--server", url)
    assert result.returncode == 2
    assert f"The office server at {url} does not answer" in result.stderr


def test_chat_needs_a_model_file_or_a_server():
    result = _chat(stdin="")
    assert result.returncode == 2 and "--server" in result.stderr
