"""Small ASGI servers that answer the way llama.cpp's llama-server and vLLM document
(``family_app``): what Rotary reads from each server family. Needs starlette and sse_starlette
(the caller skips without them)."""

from __future__ import annotations

import json

from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route

WORDS = ["Hello", " from", " the", " office", " server."]

def family_app(family: str, calls: list[str]) -> Starlette:
    async def models(request):
        calls.append("models")
        entry = {"id": f"{family}-model", "object": "model"}
        if family == "vllm":
            entry["max_model_len"] = 32768
        return JSONResponse({"object": "list", "data": [entry]})

    async def props(request):
        calls.append("props")
        if family != "llama-server":
            return JSONResponse({"detail": "Not Found"}, status_code=404)
        return JSONResponse({"default_generation_settings": {"n_ctx": 8192}, "total_slots": 4})

    async def tokenize(request):
        body = await request.json()
        calls.append("tokenize")
        if family == "vllm" and "messages" in body:      # vLLM applies the template itself
            text = " ".join(f"<s> {m['role']} {m['content']} </s>" for m in body["messages"])
        else:
            text = body["content"] if family == "llama-server" else body["prompt"]
        tokens = list(range(len(text.split())))
        return JSONResponse({"tokens": tokens} if family == "llama-server" else
                            {"count": len(tokens), "max_model_len": 32768, "tokens": tokens})

    async def chat(request):
        body = await request.json()
        calls.append("chat")
        assert body["stream"] and body["stream_options"] == {"include_usage": True}
        if family == "vllm" and body.get("max_tokens", 0) > 32768 - 17:
            return JSONResponse({"object": "error", "type": "BadRequestError", "code": 400,
                                 "message": "This model's maximum context length is 32768 "
                                            "tokens. However, you requested 40017 tokens (17 "
                                            "in the messages, 40000 in the completion)."},
                                status_code=400)

        async def chunks():
            for word in WORDS:
                yield {"data": json.dumps({"choices": [{"index": 0, "delta": {"content": word},
                                                        "finish_reason": None}]})}
            yield {"data": json.dumps({"choices": [{"index": 0, "delta": {},
                                                    "finish_reason": "stop"}]})}
            yield {"data": json.dumps({"choices": [], "usage": {
                "prompt_tokens": 17, "completion_tokens": len(WORDS), "total_tokens": 22}})}
            yield {"data": "[DONE]"}
        return EventSourceResponse(chunks())

    async def apply_template(request):
        body = await request.json()
        return JSONResponse({"prompt": " ".join(f"<s> {m['role']} {m['content']} </s>"
                                                 for m in body["messages"]) + " <s> assistant"})

    routes = [Route("/apply-template", apply_template, methods=["POST"])] \
        if family == "llama-server" else []
    return Starlette(routes=routes + [Route("/v1/models", models), Route("/props", props),
                             Route("/tokenize", tokenize, methods=["POST"]),
                             Route("/v1/chat/completions", chat, methods=["POST"])])
