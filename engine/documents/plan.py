"""Fit or split, and how long it will take: the plan shown before anything runs."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

from engine.api import ChatMessage
from engine.documents.prompts import Prompts
from engine.documents.split import Part, TokenCounter, split_into_parts
from engine.documents.types import Document
from engine.errors import DocumentError
from engine.messages import msg

MARGIN = 8                 # tokens kept free: the template's closing marks, rounding
MIN_TEXT_TOKENS = 64       # below this a part holds too little to be worth a call
Render = Callable[[Sequence[ChatMessage]], int]   # messages -> prompt tokens (template applied)


@dataclass(frozen=True)
class Budget:
    """Token room per call, measured with the model's tokenizer and chat template."""

    n_ctx: int
    answer: int                # final answer
    part_answer: int           # notes on one part
    whole_text: int            # document text a single whole-document call may hold
    part_text: int             # document text one part may hold
    combine_text: int          # notes a final combining call may hold
    merge_text: int            # notes an intermediate combining call may hold
    part_overhead: int = 0     # instructions and template around one part's text
    combine_overhead: int = 0

    @classmethod
    def measure(cls, prompts: Prompts, n_ctx: int, render: Render) -> "Budget":
        answer = min(prompts.preset.answer_tokens, n_ctx // 4)
        part_answer = min(prompts.preset.part_answer_tokens, n_ctx // 6)
        whole = render(prompts.whole(""))
        part = render(prompts.part("", 999, 999, "pages 9999–9999", note_words(part_answer)))
        combine = render(prompts.combine("", final=True))
        merge = render(prompts.combine("", final=False))
        budget = cls(n_ctx, answer, part_answer, n_ctx - whole - answer - MARGIN,
                     n_ctx - part - part_answer - MARGIN, n_ctx - combine - answer - MARGIN,
                     n_ctx - merge - part_answer - MARGIN, part, max(combine, merge))
        if min(budget.part_text, budget.merge_text) < max(MIN_TEXT_TOKENS, 2 * (part_answer + 48)):
            raise DocumentError(msg("documents.context_too_small"),
                                f"n_ctx {n_ctx}, part room {budget.part_text}")
        return budget


def note_words(part_answer_tokens: int) -> int:
    # Asked for in words (models count words, not tokens); ~1.3 tokens a word in English,
    # and a margin so that a note ends by itself before its token budget cuts it.
    return max(20, int(part_answer_tokens * 0.6 / 10) * 10)


@dataclass(frozen=True)
class DocumentPlan:
    document: Document
    budget: Budget
    tokens: int                      # the whole text, tagged with its sources
    parts: tuple[Part, ...]          # one part when the document is read whole
    whole: bool
    model_calls: int
    read_tokens: int                 # prompt tokens over all calls (planned)
    write_tokens: int                # answer tokens over all calls (at most)


def plan_document(document: Document, budget: Budget, count: TokenCounter) -> DocumentPlan:
    whole_parts = split_into_parts(document.sections, max(budget.whole_text, 16), count)
    if len(whole_parts) == 1 and whole_parts[0].tokens <= budget.whole_text:
        part = whole_parts[0]
        return DocumentPlan(document, budget, part.tokens, (part,), True, 1,
                            part.tokens + budget.part_overhead, budget.answer)
    parts = tuple(split_into_parts(document.sections, budget.part_text, count))
    tokens = sum(p.tokens for p in parts)
    combines = combine_calls(len(parts), budget)
    # Prompt cache hits are not counted: hybrid models (Qwen3.5/3.6) cannot reuse a prefix.
    notes_read = (len(parts) + combines - 1) * (budget.part_answer + 8)
    instructions = len(parts) * budget.part_overhead + combines * budget.combine_overhead
    return DocumentPlan(document, budget, tokens, parts, False, len(parts) + combines,
                        tokens + notes_read + instructions,
                        len(parts) * budget.part_answer + combines * budget.answer)


def combine_calls(notes: int, budget: Budget) -> int:
    """Combining calls if every note were as long as allowed (the most there can be)."""
    per_final = max(2, budget.combine_text // (budget.part_answer + 8))
    per_merge = max(2, budget.merge_text // (budget.part_answer + 8))
    calls = 0
    while notes > per_final:
        notes = math.ceil(notes / per_merge)
        calls += notes
    return calls + 1
