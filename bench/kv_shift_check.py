"""How close a KV shift comes to reading the window again (issue 43, step 6), for the benchmark
of conversation states (bench/bench_conversation_state.py prints it as information).

An attention model could slide its window without reading it again: remove the dropped
turns' range from the KV cache and shift the rest down (``llama_memory_seq_rm`` and
``llama_memory_seq_add``, where ``llama_memory_can_shift``). The kept turns' keys and values
were computed with the dropped turns before them, so the result is not what reading the
window gives. Measured here: over the next 64 tokens, how often the top-1 token agrees
with reading everything (the same tokens fed to both), and for how many tokens a free
greedy answer stays the same.
"""

from __future__ import annotations

from engine.api import ChatMessage
from engine.runtime.bindings import llama_cpp_module
from engine.runtime.generation.generate import render_chat
from engine.runtime.llama_model import NativeModel, Sampling

TOKENS = 64


def _read(model: NativeModel, tokens: list[int]) -> None:
    for start in range(0, len(tokens), model.recipe.n_batch):
        model.decode(tokens[start:start + model.recipe.n_batch])


def _conversation(turns: int) -> list[ChatMessage]:
    out = []
    for i in range(turns):
        out += [ChatMessage("user", f"question {i}: " + "the model said the answer " * 4),
                ChatMessage("assistant", f"answer {i} " + "the expert of the document " * 4)]
    return out


def _shifted(model: NativeModel, old: list[int], new: list[int]) -> None:
    """The old window read (but its last token), its dropped turns cut out and shifted."""
    llama = llama_cpp_module()
    keep = next(i for i, (a, b) in enumerate(zip(old, new)) if a != b)
    tail = len(old) - (len(new) - keep)
    if old[tail:] != new[keep:]:
        raise ValueError("the new window is not the old one less some turns")
    model.clear()
    _read(model, old[:-1])
    llama.llama_memory_seq_rm(model.ctx.memory, 0, keep, tail)
    llama.llama_memory_seq_add(model.ctx.memory, 0, tail, -1, keep - tail)
    model.tokens = new[:-1]
    model.decode(new[-1:])


def agreement(path: str, recipe, drops: tuple[int, ...] = (2, 4, 6, 8)) -> tuple[float, int]:
    """(top-1 agreement over the next 64 tokens, fed the same tokens; the fewest tokens a
    free greedy answer stayed the same), over slides that drop ``drops`` messages."""
    shifted, fresh = NativeModel(path, recipe), NativeModel(path, recipe)
    try:
        if not llama_cpp_module().llama_memory_can_shift(shifted.ctx.memory):
            return 0.0, 0
        for model in (shifted, fresh):
            model.set_sampling(Sampling(temperature=0))
        system, turns, asked = ChatMessage("system", "be brief"), _conversation(12), \
            ChatMessage("user", "next?")
        agreed, free = 0, TOKENS
        for drop in drops:
            old = shifted.tokenize(render_chat(shifted, [system, *turns, asked]))
            new = shifted.tokenize(render_chat(shifted, [system, *turns[drop:], asked]))
            _shifted(shifted, old, new)
            fresh.clear()
            _read(fresh, new)
            expected = []
            for _ in range(TOKENS):
                expected.append(fresh.sample())
                fresh.decode(expected[-1:], step=True)
            same = []
            for token in expected:            # the same tokens fed to both
                same.append(shifted.sample() == token)
                shifted.decode([token], step=True)
            agreed += sum(same)
            free = min(free, same.index(False) if False in same else TOKENS)
        return agreed / (TOKENS * len(drops)), free
    finally:
        shifted.close()
        fresh.close()
