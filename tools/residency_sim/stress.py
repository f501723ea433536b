"""The stress suite: routing that repeats less than the tuning traces, built from them only.

The four tuning families (``*_all.npz``: four prompts, 512 greedy tokens each) flatter a
policy that waits for routing to come round again. Office chat is short, sampled and starts
with a prompt. From each source trace this module cuts (seeded, so every run is the same):

* ``first128``    the first 128 decode tokens of each conversation, in order, each marked
                  as a conversation (its prompt phase first, where the trace has one)
* ``shuffled``    those tokens in 32-token segments, shuffled into one unmarked stream
                  (topics change without warning); a trace's prompt phase stays first
* ``interleaved`` two conversations at a time, alternating every 32 tokens, each switch
                  marked (the app switching between two chats); needs two conversations

Only ``../shared/traces`` goes in: the families and the chat traces (``chat/*.route.csv``).
"""

from __future__ import annotations

import numpy as np

from engine.residency.trace import Trace, validate

FIRST = 128          # decode tokens kept of each conversation
SEGMENT = 32         # tokens per shuffled / interleaved segment
VARIANTS = ("first128", "shuffled", "interleaved")


class Piece:
    """A run of tokens of one conversation: its routing and whether it is prompt."""

    __slots__ = ("conversation", "prompt", "ids")

    def __init__(self, conversation: str, prompt: bool, ids: np.ndarray) -> None:
        self.conversation, self.prompt, self.ids = conversation, prompt, ids   # ids [tokens, layers, k]


def conversations(trace: Trace) -> list[tuple[Piece | None, Piece]]:
    """Per conversation (``meta.contexts``, or the whole trace): its prompt phase (or None)
    and its decode tokens."""
    starts = sorted(trace.context_starts().items()) or [(0, "all")]
    bounds = [s for s, _ in starts] + [trace.n_tokens]
    prompt = trace.prompt_mask()
    out = []
    for (start, name), stop in zip(starts, bounds[1:]):
        rows = np.arange(start, stop)
        asked, decode = rows[prompt[rows]], rows[~prompt[rows]]
        out.append((Piece(name, True, trace.ids[asked]) if len(asked) else None,
                    Piece(name, False, trace.ids[decode])))
    return out


def segments(piece: Piece, size: int = SEGMENT) -> list[Piece]:
    return [Piece(piece.conversation, piece.prompt, piece.ids[a:a + size])
            for a in range(0, len(piece.ids), size)]


def join(pieces: list[Piece], source: Trace, name: str, marked: bool) -> Trace:
    """One trace from pieces in order; ``marked``: a change of conversation is a context start."""
    ids = np.concatenate([p.ids for p in pieces])
    at = np.cumsum([0] + [len(p.ids) for p in pieces])
    spans, contexts, last = [], [], None
    for piece, start, stop in zip(pieces, at[:-1].tolist(), at[1:].tolist()):
        if piece.prompt:
            spans.append([start, stop])
        if marked and piece.conversation != last:
            contexts.append([start, piece.conversation])
        last = piece.conversation
    meta = {**source.meta, "name": name, "prompt_spans": spans, "contexts": contexts,
            "stress_of": source.name}
    return validate(Trace(ids, None, meta, source.path))


def first128(source: Trace) -> Trace:
    pieces = []
    for asked, decode in conversations(source):
        pieces += [asked] if asked is not None else []
        pieces.append(Piece(decode.conversation, False, decode.ids[:FIRST]))
    return join(pieces, source, f"{source.name}/first128", marked=True)


def shuffled(source: Trace, rng: np.random.Generator) -> Trace:
    talks = conversations(source)
    decoded = [s for _, d in talks for s in segments(Piece(d.conversation, False, d.ids[:FIRST]))]
    order = rng.permutation(len(decoded))
    prompt = [a for a, _ in talks[:1] if a is not None]       # the stream starts as a chat does
    pieces = prompt + [decoded[i] for i in order]
    return join([Piece("stream", p.prompt, p.ids) for p in pieces], source,
                f"{source.name}/shuffled", marked=True)


def interleaved(source: Trace) -> Trace | None:
    """Conversations 1 and 2 alternate every SEGMENT tokens, then 3 and 4, ...; None if < 2."""
    talks = conversations(source)
    if len(talks) < 2:
        return None
    pieces = []
    for pair in (talks[i:i + 2] for i in range(0, len(talks) - 1, 2)):
        parts = [([a] if a is not None else []) + segments(Piece(d.conversation, False, d.ids[:FIRST]))
                 for a, d in pair]
        for turn in range(max(len(p) for p in parts)):
            pieces += [p[turn] for p in parts if turn < len(p)]
    return join(_merge_prompts(pieces), source, f"{source.name}/interleaved", marked=True)


def _merge_prompts(pieces: list[Piece]) -> list[Piece]:
    """A prompt piece is followed by its own conversation's first decode segment."""
    out: list[Piece] = []
    waiting: dict[str, Piece] = {}
    for piece in pieces:
        if piece.prompt:
            waiting[piece.conversation] = piece
            continue
        if piece.conversation in waiting:
            out.append(waiting.pop(piece.conversation))
        out.append(piece)
    return out


def stress_suite(sources: list[Trace], seed: int = 0) -> list[Trace]:
    """Every variant that each source allows, in the order of ``sources`` then ``VARIANTS``."""
    suite = []
    for number, source in enumerate(sources):
        rng = np.random.default_rng([seed, number])
        built = [first128(source), shuffled(source, rng), interleaved(source)]
        suite += [t for t in built if t is not None]
    return suite
