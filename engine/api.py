"""The engine's public vocabulary: requests going in, events coming out.

The GUI's bridge (app/bridge.py) is the only caller. Events are delivered to one
listener callable on the engine thread; the listener must hand them to its own
thread (the bridge uses ``loop.call_soon_threadsafe``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable, Union

from engine.errors import EngineError
from engine.messages import Msg
from engine.model.facts import ModelFacts
from engine.recipe import Recipe

_ids = itertools.count(1)


def next_request_id() -> int:
    return next(_ids)


# ---- requests -------------------------------------------------------------------

@dataclass(frozen=True)
class ChatMessage:
    role: str     # "system", "user" or "assistant"
    content: str


@dataclass(frozen=True)
class LoadRequest:
    model_path: str
    recipe: Recipe | None = None       # None: plan automatically from the hardware
    preset: str | None = None          # planner preset name, when recipe is None
    # Install the routing recorder (llama.cpp's cb_eval), for `engine trace` only: on a GPU
    # the scheduler computes and synchronises at every node it claims (a sync per MoE layer per
    # token, no CUDA graphs). The slot cache reads the routing from its own host record.
    record_routing: bool = False
    request_id: int = field(default_factory=next_request_id)


@dataclass(frozen=True)
class ChatRequest:
    messages: tuple[ChatMessage, ...]
    max_tokens: int = 1024
    temperature: float = 0.7
    top_p: float = 0.95
    seed: int = -1
    record_routing: bool = True
    request_id: int = field(default_factory=next_request_id)
    conversation_id: int | None = None     # copied onto every event of this request;
    # the expert slot cache keeps each conversation's experts and brings them back on return


# ---- events -----------------------------------------------------------------------

# Sentences for people travel as catalogue messages (engine.messages.Msg): str(msg) is the
# English, the app says them in the interface's language (app/messages.py).

@dataclass(frozen=True)
class RequestStarted:
    """The engine thread took this chat or document request: until now it waited its turn
    behind another one (``EngineLike.waiting``)."""

    request_id: int
    conversation_id: int | None = None


@dataclass(frozen=True)
class LoadProgress:
    request_id: int
    fraction: float      # 0..1
    message: Msg         # "Checking the model file…"


@dataclass(frozen=True)
class LoadFallback:
    """The load failed for lack of memory and the engine stepped down its ladder."""

    request_id: int
    message: Msg         # why, and what the lighter recipe gives up (the recipe's note)
    recipe: Recipe


@dataclass(frozen=True)
class ServerInfo:
    """The office server a remote engine talks to (engine.remote)."""

    address: str          # the exact base URL that receives every conversation
    model: str            # the model id as the server names it
    context_size: int     # tokens; 0 while the server has not said
    tokenizer: str        # the server's token-counting endpoint path, "" when it has none


@dataclass(frozen=True)
class ModelLoaded:
    """A model file loaded on this computer, with the recipe it runs with."""

    request_id: int
    facts: ModelFacts
    recipe: Recipe
    message: Msg                        # what to expect: memory used, speed

    @property
    def context_size(self) -> int:
        return self.recipe.n_ctx


@dataclass(frozen=True)
class ServerModelLoaded:
    """Connected to a model on the office server: nothing of it is on this computer."""

    request_id: int
    server: ServerInfo
    message: Msg

    @property
    def context_size(self) -> int:
        return self.server.context_size      # 0 while the server has not said


@dataclass(frozen=True)
class StepRecord:
    """One streamed token with the numbers the gauge shows (mlx-lm's GenerationResponse)."""

    request_id: int
    text: str                  # the new piece of text (may be "" mid-UTF-8 sequence)
    token: int
    generated_tokens: int
    prompt_tokens: int
    prompt_tps: float          # reading speed, tokens/s
    decode_tps: float          # writing speed, tokens/s
    ttft_s: float              # time to first token
    context_used: int
    context_size: int
    expert_hit_rate: float | None = None   # slot cache: hits / (hits + misses) over this answer
    conversation_id: int | None = None
    # The model runs on an office server: VRAM is "on the server", and ``token`` is -1
    # (servers stream text, not token ids).
    on_server: bool = False
    # Expert slot cache (None without one): this token's forward pass, summed over cached layers.
    expert_hits: int | None = None           # routed experts read from slots on the graphics card
    expert_misses: int | None = None         # routed experts computed from system memory
    expert_uploaded_bytes: int | None = None # copied into slots after this token
    resident_experts: tuple[tuple[int, ...], ...] | None = None  # [cached layer] experts in slots
    expert_layer_hits: tuple[int, ...] | None = None  # [cached layer] hits of this token, of k
    # Times the host waited for the device during this token beyond reading its logits: the
    # routing recorder's claimed nodes plus the slot cache's waits (0 on the GPU path).
    syncs: int = 0


@dataclass(frozen=True)
class ResponseStats:
    request_id: int
    prompt_tokens: int
    generated_tokens: int
    prompt_tps: float
    decode_tps: float
    ttft_s: float
    total_s: float
    context_used: int
    context_size: int
    stop_reason: str           # "eos", "length" or "stopped"


@dataclass(frozen=True)
class RequestFinished:
    request_id: int
    text: str
    stats: ResponseStats
    conversation_id: int | None = None


@dataclass(frozen=True)
class RequestFailed:
    request_id: int
    error: EngineError
    conversation_id: int | None = None


@dataclass(frozen=True)
class ModelUnloaded:
    request_id: int


Event = Union[LoadProgress, LoadFallback, ModelLoaded, ServerModelLoaded, RequestStarted,
              StepRecord, RequestFinished, RequestFailed, ModelUnloaded]
Listener = Callable[[Event], None]


# ---- documents (engine.documents): read a file whole, or in parts, and summarise it -------

@dataclass(frozen=True)
class DocumentRequest:
    """Summarise a document; ``inspect_only`` stops after DocumentInspected (nothing generated)."""

    path: str
    preset: str = "short"             # engine.documents.presets.SUMMARY_PRESETS
    language: str = "English"         # the interface's language, unless ``question`` asks otherwise
    question: str = ""                # what the user typed with the file, "" for a plain summary
    inspect_only: bool = False
    cache_dir: str | None = None      # None: the platform data folder
    request_id: int = field(default_factory=next_request_id)
    conversation_id: int | None = None


@dataclass(frozen=True)
class DocumentOverview:
    """What was found, before anything runs: "42 pages, about 31,000 words, read in 9 parts"."""

    name: str
    kind: str                          # "pdf", "docx", "text", "markdown"
    pages: int                         # PDFs; 0 otherwise
    sections: int
    words: int
    tokens: int                        # counted with the loaded model's tokenizer
    parts: int                         # 1 when the document is read whole
    model_calls: int                   # parts + combining steps, planned
    estimated_s: float                 # from speeds measured on this computer
    unreadable_pages: tuple[int, ...]
    from_cache: bool
    message: str                       # the plain sentence the app shows
    on_server: bool = False            # read by the office server's model, timed from here


@dataclass(frozen=True)
class DocumentInspected:
    request_id: int
    conversation_id: int | None
    overview: DocumentOverview


@dataclass(frozen=True)
class DocumentProgress:
    request_id: int
    conversation_id: int | None
    phase: str                         # "reading", "combining" or "writing"
    part: int                          # 1-based part (or combining step) now running
    parts: int                         # how many parts the document has
    parts_done: int
    seconds_left: float                # measured from the calls so far; -1 while unknown
    message: str                       # "Reading part 3 of 9 (pages 9–12)…"


@dataclass(frozen=True)
class Citation:
    label: str                         # "pages 3–5", "section 'Budget'"
    pages: tuple[int, ...]             # PDF pages the point came from; () for other kinds
    text: str                          # that part's own summary


@dataclass(frozen=True)
class DocumentSummary:
    text: str                          # the answer, ending with what was read
    partial: bool                      # stopped before the end: says what was read
    parts: int
    parts_read: int
    tokens: int
    tokens_read: int
    model_calls: int
    read_note: str                     # "Read all of it (42 pages) in 9 parts."
    citations: tuple[Citation, ...]
    preset: str
    body: str = ""                     # the summary alone: no partial notice, no read note


@dataclass(frozen=True)
class DocumentFinished:
    request_id: int
    conversation_id: int | None
    overview: DocumentOverview
    summary: DocumentSummary


DocumentEvent = Union[DocumentInspected, DocumentProgress, DocumentFinished]
Event = Union[Event, DocumentEvent]  # noqa: F811 - the chat events above, plus these


class EngineLike:
    """What the bridge may call. ``engine.runtime.service.EngineService`` is the real one.

    Construction: ``EngineService(listener)``; every method returns at once and the
    work happens on the engine thread, which reports through ``listener(event)``.
    Requests run one after another; a chat or document request reports ``RequestStarted``
    when its turn comes, and ends with RequestFinished, DocumentFinished (DocumentInspected
    for ``inspect_only``) or RequestFailed. One stopped while it waits ends without starting.
    """

    def load(self, request: LoadRequest) -> int: ...        # returns request_id
    def chat(self, request: ChatRequest) -> int: ...        # returns request_id
    def document(self, request: DocumentRequest) -> int: ...  # returns request_id
    def stop(self, request_id: int | None = None) -> None: ...  # None: the running one
    def stop_conversation(self, conversation_id: int) -> None: ...  # all it runs and queued
    def waiting(self, request_id: int) -> bool: ...         # queued behind another request?
    def unload(self) -> None: ...
    def shutdown(self, timeout: float = 10.0) -> None: ...  # joins the engine thread
