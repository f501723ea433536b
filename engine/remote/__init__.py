"""The office server as a second engine: any OpenAI-compatible server (vLLM, llama.cpp's
``llama-server``, llama-cpp-python's server) behind the same requests and events as the
local engine (``engine.api``). No Qt here, and nothing is imported until it is used.

    config = ServerConfig("https://ai.office.lan:8000", model="qwen3.6-35b")
    engine = RemoteEngineService(listener, config)    # an EngineService with a server behind it
"""

from engine.remote.config import ServerConfig

__all__ = ["ServerConfig"]
