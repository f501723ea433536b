"""The engine's public vocabulary: requests going in, events coming out.

The GUI's bridge (app/bridge/engine_bridge.py) is the only caller. Events are delivered to one
listener callable on the engine thread; the listener must hand them to its own
thread (the bridge uses ``loop.call_soon_threadsafe``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Mapping, Protocol, Union

from engine.errors import EngineError
from engine.messages import Msg, msg
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
    # The user's Advanced values in the planner's names (engine/plan/advanced.py), when recipe
    # is None: the loader plans them with the slot layout (engine/runtime/planning.py).
    advanced: Mapping[str, int] | None = None
    # Install the routing recorder (llama.cpp's cb_eval), for `engine trace` only: on a GPU
    # the scheduler computes and synchronises at every node it claims (a sync per MoE layer per
    # token, no CUDA graphs). The slot cache reads the routing from its own host record.
    record_routing: bool = False
    request_id: int = field(default_factory=next_request_id)
    # Where each conversation's model state is kept on disk between turns and restarts
    # (engine/runtime/conversation/conversation_state.py; the app's data folder/states); None: RAM only.
    state_dir: str | None = None


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
    # "Think before answering" (engine.runtime.chat.chat_format): None keeps the model's own default;
    # only templates with a switch (enable_thinking, gpt-oss's reasoning effort) are told.
    think: bool | None = None
    # True: the model's own sampling defaults (engine.runtime.generation.sampling: the GGUF's
    # general.sampling.* keys, else its family's) instead of temperature and top_p above.
    model_sampling: bool = False
    # False only for measurements that need a fixed number of tokens from a random-weight
    # fixture (speed benchmarks): the loop guard (engine.runtime.generation.loop_guard) then lets it run.
    stop_loops: bool = True
    # The conversation's documents: the engine answers the last user message from their
    # passages and checks its page references (RequestFinished.document). None: plain chat.
    documents: DocumentScope | None = None
    # What this call is, for the log (a loop's details): "chat", or a document summary's own
    # step ("summary part", "summary merge", ...: engine/documents/summarize.py).
    step: str = "chat"


@dataclass(frozen=True)
class DocumentScope:
    """The documents a chat question is answered from: their passages are searched and the
    answer's page references checked on the engine thread (engine/documents/ask.py)."""

    documents: tuple[str, ...]         # SHA-256 of each document, in the order added
    index_path: str                    # the SQLite file holding their passages
    language: str = "English"          # the interface's language, for the words the model reads


# ---- events -----------------------------------------------------------------------

# Sentences for people travel as catalogue messages (engine.messages.Msg): str(msg) is the
# English, the app says them in the interface's language (app/text/messages.py).

@dataclass(frozen=True)
class RequestStarted:
    """The engine thread took this chat or document request: until now it waited its turn
    behind another one (``EngineLike.waiting``)."""

    request_id: int
    conversation_id: int | None = None


@dataclass(frozen=True)
class PromptProgress:
    """How much of a chat request's prompt the model has read (after the part it kept from
    the last turn), a few times a second while it reads: long prompts take minutes on a
    processor. ``seconds_left`` is measured on this computer from the batches read so far
    (engine/runtime/generation/prompt_progress.py)."""

    request_id: int
    conversation_id: int | None
    read: int                  # prompt tokens read so far
    total: int                 # prompt tokens to read for this answer
    elapsed_s: float           # since reading began
    seconds_left: float        # from the batches read so far; -1 while unknown

    @property
    def fraction(self) -> float:
        return self.read / self.total if self.total else 1.0


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
class DeviceUse:
    """Bytes that the loaded model holds on one device, as llama.cpp allocated them."""

    device: str               # ggml's device name ("Vulkan0", "CUDA0"); "CPU" = main memory
    description: str = ""     # the card's name; "" for main memory
    model_bytes: int = 0      # weights
    slot_bytes: int = 0       # expert slots (the slot cache's banks)
    cache_bytes: int = 0      # the conversation's memory (KV cache, recurrent state)
    compute_bytes: int = 0    # scratch for computing

    @property
    def total_bytes(self) -> int:
        return self.model_bytes + self.slot_bytes + self.cache_bytes + self.compute_bytes

    @property
    def is_gpu(self) -> bool:
        return self.device != "CPU"


@dataclass(frozen=True)
class Placement:
    """Where the loaded model is: what it placed, never what was planned."""

    devices: tuple[DeviceUse, ...]      # main memory ("CPU") first
    backend: str = "CPU"                # the back-end that runs it: "Vulkan", "CUDA", "CPU"
    message: Msg | None = None          # in words, with a graphics card it cannot use
    unused_gpus: tuple[str, ...] = ()   # names of cards seen but not used (message says why)

    @property
    def gpu(self) -> DeviceUse | None:
        """The graphics card holding part of the model, or None: the processor runs it."""
        return next((d for d in self.devices if d.is_gpu and d.total_bytes > 0), None)

    @property
    def ram(self) -> DeviceUse:
        return next((d for d in self.devices if not d.is_gpu), DeviceUse("CPU"))


@dataclass(frozen=True)
class ModelLoaded:
    """A model file loaded on this computer, with the recipe it runs with."""

    request_id: int
    facts: ModelFacts
    recipe: Recipe
    message: Msg                        # what to expect: memory used, speed
    # engine.runtime.generation.sampling.SamplingDefaults: what the model itself asks for, and from where
    sampling: object | None = None
    # engine.runtime.chat.chat_format.ChatFormat: whether it thinks, and whether that can be chosen
    chat_format: object | None = None
    placement: Placement | None = None  # where llama.cpp put it (bytes per device)

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
    # The new piece of the model's thinking (a <think> section, harmony's analysis channel,
    # a server's reasoning_content); ``text`` carries only the answer. Never part of the answer.
    thinking: str = ""


class StopReason(str, Enum):
    """Why an answer ended. A ``str`` so that events, logs and stored history keep the plain
    words they always had ("eos", …): old conversations read back as the same values."""

    EOS = "eos"            # the model ended its turn
    LENGTH = "length"      # it reached the answer's length limit
    STOPPED = "stopped"    # the user pressed Stop, or it was stopped before it began
    LOOP = "loop"          # the loop guard stopped an answer that repeated itself
    # Set by the app on answers it ended itself: the model was changed, Rotary closed, an error
    RELOADED = "reloaded"
    CLOSED = "closed"
    FAILED = "failed"

    def __str__(self) -> str:      # "eos" in f-strings and %s, on every Python version
        return self.value


class Reuse(str, Enum):
    """Where the model state an answer started from came from (``ResponseStats.reuse``):
    the tokens it did not read again (engine/runtime/conversation/conversation_memory.py)."""

    NONE = "none"              # everything was read
    IN_PLACE = "in_place"      # the context still held the conversation
    CHECKPOINT = "checkpoint"  # a state kept where the last prompt ended, restored
    RAM = "ram"                # the conversation's state, kept in memory when it was left
    DISK = "disk"              # the conversation's state, kept on disk (across restarts)

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, kw_only=True)     # ten numbers: named where they are made
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
    stop_reason: StopReason
    thinking_tokens: int = 0   # of generated_tokens, those spent thinking
    # prompt_tokens are the ones actually read; these were not read again (kept state)
    reused_tokens: int = 0
    reuse: Reuse = Reuse.NONE

    @classmethod
    def never_started(cls, request_id: int, total_s: float = 0.0) -> ResponseStats:
        """An answer stopped before it began: empty, and "stopped" like any other."""
        return cls(request_id=request_id, prompt_tokens=0, generated_tokens=0, prompt_tps=0.0,
                   decode_tps=0.0, ttft_s=0.0, total_s=total_s, context_used=0, context_size=0,
                   stop_reason=StopReason.STOPPED)


@dataclass(frozen=True)
class ContextReport:
    """How an answer's conversation sat in the model's memory (engine/runtime/conversation/context_window.py)."""

    left_out: int = 0          # oldest messages sent (after the system prompt) the model did not see
    kept_tokens: int = 0       # the conversation as the next turn sends it: prompt + answer, no thinking
    context_size: int = 0
    thinking_stopped: bool = False   # thinking reached its budget; the model was steered to answer


@dataclass(frozen=True)
class RequestFinished:
    request_id: int
    text: str                  # the answer only: no thinking, turn markers or control tokens
    stats: ResponseStats
    conversation_id: int | None = None
    thinking: str = ""         # what the model thought before answering ("" if it did not)
    context: ContextReport | None = None    # None: not known (an office server's answer)
    # An answer from documents (ChatRequest.documents): its passages and citations checked;
    # ``text`` is the answer as the model wrote it. None for a plain chat answer.
    document: DocumentAnswered | None = None


@dataclass(frozen=True)
class RequestFailed:
    request_id: int
    error: EngineError
    conversation_id: int | None = None


@dataclass(frozen=True)
class ModelUnloaded:
    request_id: int


ChatEvent = Union[LoadProgress, LoadFallback, ModelLoaded, ServerModelLoaded, RequestStarted,
                  PromptProgress, StepRecord, RequestFinished, RequestFailed, ModelUnloaded]
Listener = Callable[["Event"], None]      # Event: the chat events and the documents' (below)


# ---- documents (engine.documents): read a file whole, or in parts, and summarise it -------

@dataclass(frozen=True)
class DocumentRequest:
    """Summarise a document; ``inspect_only`` stops after DocumentInspected (nothing generated).

    With ``index_path`` the document's passages are also written to that SQLite file's
    full-text index (the app's is passages.db beside its history), so that questions can
    search them."""

    path: str
    preset: str = "short"             # engine.documents.presets.SUMMARY_PRESETS
    language: str = "English"         # the interface's language, unless ``question`` asks otherwise
    question: str = ""                # what the user typed with the file, "" for a plain summary
    inspect_only: bool = False
    cache_dir: str | None = None      # None: the platform data folder
    index_path: str | None = None     # where to index the passages (None: not indexed)
    request_id: int = field(default_factory=next_request_id)
    conversation_id: int | None = None
    # Thinking in each step: off by default (a part's notes need none, and a thinking model
    # spends most of its tokens there); None: the model's own default.
    think: bool | None = False


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
    message: Msg                       # the overview sentence (engine/messages.py)
    on_server: bool = False            # read by the office server's model, timed from here
    found: Msg | None = None           # "42 pages, about 31,000 words"
    notes: tuple[Msg, ...] = ()        # pages without text; pages read by text recognition
    lines: int = 0                     # text files
    ocr_pages: tuple[int, ...] = ()    # pages that were pictures, read by text recognition
    sha256: str = ""                   # the file's, which the passage index is keyed by


@dataclass(frozen=True)
class DocumentInspected:
    request_id: int
    conversation_id: int | None
    overview: DocumentOverview


@dataclass(frozen=True)
class DocumentProgress:
    request_id: int
    conversation_id: int | None
    phase: str                         # "recognising", "reading", "combining" or "writing"
    part: int                          # 1-based part (or combining step, or page) now running
    parts: int                         # how many parts the document has (or pages to recognise)
    parts_done: int
    seconds_left: float                # measured from the calls so far; -1 while unknown
    message: Msg                       # "Reading part 3 of 9…"
    left: Msg | None = None            # "About 3 minutes left."; None while unknown


@dataclass(frozen=True)
class Citation:
    label: str                         # "pages 3–5", "section 'Budget'"
    pages: tuple[int, ...]             # PDF pages the point came from; () for other kinds
    text: str                          # that part's own summary


@dataclass(frozen=True)
class DocumentSummary:
    text: str                          # the answer, ending with what was read (English)
    partial: bool                      # stopped before the end: says what was read
    parts: int
    parts_read: int
    tokens: int
    tokens_read: int
    model_calls: int
    read_note: Msg                     # "Read all of it (42 pages, …) in 9 parts."
    citations: tuple[Citation, ...]
    preset: str
    body: str = ""                     # the summary alone: no partial notice, no read note
    notes: tuple[Msg, ...] = ()        # pages that could not be read, pages read by OCR


@dataclass(frozen=True)
class DocumentFinished:
    request_id: int
    conversation_id: int | None
    overview: DocumentOverview
    summary: DocumentSummary
    reused_look: bool = False          # started from the look's text, counts and plan


# ---- chat questions about documents (ChatRequest.documents, engine/documents/ask.py) ----

@dataclass(frozen=True)
class PassageRef:
    """One passage given to the model: where it is, and how it was chosen."""

    document: str                      # the file's name
    sha256: str
    label: str                         # "page 12", "section 'Budget'", "lines 61–120"
    page: int | None
    tokens: int                        # counted with the model's tokenizer
    score: float                       # BM25 (lower is better, SQLite's sign); 0: not matched


@dataclass(frozen=True)
class CitationCheck:
    """One ``[p. 12]`` in an answer, checked against the text of the page it names."""

    marker: str                        # as written, "[p. 12]"
    start: int                         # its place in the answer text
    end: int
    document: str                      # the file it names or was resolved to ("" if none)
    where: Msg                         # "p. 12", "report.pdf, p. 12"
    status: str                        # "found", "not_found", "no_page" (the document has no
    # such page), "unchecked" (nothing to check)
    terms: tuple[str, ...] = ()        # the sentence's key terms (numbers, names, dates)
    missing: tuple[str, ...] = ()      # those not on the cited page

    @property
    def failed(self) -> bool:
        return self.status in ("not_found", "no_page")


@dataclass(frozen=True)
class PassagesChosen:
    """Before the answer: which passages the model reads (the user sees the pages)."""

    request_id: int
    conversation_id: int | None
    passages: tuple[PassageRef, ...]
    whole: bool                        # every passage of every document fits: all are read
    read: Msg                          # "Read for this answer: report.pdf, pp. 3, 4, 12."


@dataclass(frozen=True)
class DocumentAnswered:
    """An answer from documents with its citations checked (``RequestFinished.document``)."""

    request_id: int
    conversation_id: int | None
    text: str                          # the answer as the model wrote it
    passages: tuple[PassageRef, ...]
    checks: tuple[CitationCheck, ...]
    read: Msg                          # what was read for the answer
    mode: str                          # "passages" or "whole" (map-reduce over the documents)

    def marked(self, say: Callable[[Msg], str] = str) -> str:
        """The answer with every failed citation marked after it: "[p. 12] (not found on
        p. 12)"; never dropped. ``say`` renders the note in the interface's language."""
        pieces, last = [], 0
        for check in sorted(self.checks, key=lambda c: c.start):
            if check.failed:
                code = "documents.citation_no_page" if check.status == "no_page" \
                    else "documents.citation_not_found"
                note = say(msg(code, where=check.where))
                pieces += [self.text[last:check.end], f" *({note})*"]
                last = check.end
        return "".join(pieces) + self.text[last:]


DocumentEvent = Union[DocumentInspected, DocumentProgress, DocumentFinished, PassagesChosen]
Event = Union[ChatEvent, DocumentEvent]


class EngineLike(Protocol):
    """What the bridge may call. ``engine.runtime.service.EngineService`` is the real one.

    Construction: ``EngineService(listener)``; every method returns at once and the
    work happens on the engine thread, which reports through ``listener(event)``.
    Requests run one after another; a chat or document request reports ``RequestStarted``
    when its turn comes, and ends with RequestFinished, DocumentFinished (DocumentInspected
    for ``inspect_only``) or RequestFailed. One stopped while it waits ends without starting.
    A local chat request reports PromptProgress while a prompt of several micro-batches is
    read, a few times a second. A chat request with ``documents`` reports PassagesChosen (DocumentProgress while it reads
    them whole) before its words; its RequestFinished carries the citations checked.
    """

    def load(self, request: LoadRequest) -> int: ...        # returns request_id
    def chat(self, request: ChatRequest) -> int: ...        # returns request_id
    def document(self, request: DocumentRequest) -> int: ...  # returns request_id
    def stop(self, request_id: int | None = None) -> None: ...  # None: the running one
    def stop_conversation(self, conversation_id: int) -> None: ...  # all it runs and queued
    # Drop every state the engine keeps for it (window start, checkpoint, RAM and disk)
    def forget_conversation(self, conversation_id: int) -> None: ...
    def waiting(self, request_id: int) -> bool: ...         # queued behind another request?
    def unload(self) -> None: ...
    def shutdown(self, timeout: float = 10.0) -> None: ...  # joins the engine thread
