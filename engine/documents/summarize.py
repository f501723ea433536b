"""Summarise a document on the engine thread: whole when it fits, else map-reduce.

Map: each part gets notes with its sources. Reduce: notes are combined, in groups when
they do not fit one call, until one answer remains. The stop flag is checked between
tokens (by the generation loop) and between calls; a stopped run keeps what it has,
labelled partial. Progress goes out as DocumentProgress events after every call.
"""

from __future__ import annotations

import dataclasses
import logging
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from engine.api import (ChatMessage, ChatRequest, Citation, DocumentFinished, DocumentInspected,
                        DocumentProgress, DocumentRequest, DocumentSummary, Event, StopReason)
from engine.documents.cache import TextCache
from engine.documents.extract import read_document
from engine.documents.index import PassageIndex
from engine.documents.looks import Look, LookCache, LookKey
from engine.documents.ocr import OcrRun
from engine.documents.model import SummaryModel
from engine.documents.plan import Budget, DocumentPlan, note_words
from engine.documents.presets import summary_preset
from engine.documents.prompts import Prompts
from engine.documents.report import overview_of, pages_note, read_note, time_left_msg
from engine.documents.speed import SpeedMeter
from engine.documents.split import span_label
from engine.documents.types import Document
from engine.errors import AnswerLoopError, DocumentError
from engine.messages import Msg, msg

log = logging.getLogger("rotary.documents")
PROGRESS_EVERY_TOKENS = 32
TEMPERATURE = 0.3          # summaries: few surprises, but not the loops greedy decoding falls into


@dataclass(frozen=True)
class CallRecord:
    """One model call, for tests and the CLI's JSON."""

    kind: str                 # "whole", "part", "merge", "final"
    label: str
    prompt_tokens: int        # the whole prompt, template included
    read_tokens: int          # what was evaluated after the prompt cache's prefix
    max_tokens: int
    generated: int
    seconds: float
    stop_reason: StopReason


@dataclass(frozen=True)
class Note:
    label: str
    pages: tuple[int, ...]
    text: str

    @property
    def tagged(self) -> str:
        return f"[{self.label}]\n{self.text.strip()}"


class Stopped(Exception):
    """The user pressed stop between two calls or during one."""

    def __init__(self, text: str = "", whole_read: bool = False) -> None:
        super().__init__(text)
        self.text, self.whole_read = text, whole_read   # whole_read: the one-pass prompt was read


@dataclass
class DocumentSummarizer:
    model: SummaryModel
    request: DocumentRequest
    emit: Callable[[Event], None]
    stop: threading.Event
    speed: SpeedMeter = field(default_factory=SpeedMeter)
    calls: list[CallRecord] = field(default_factory=list)
    document: Document | None = None             # already read (several files as one)
    quiet_kinds: frozenset[str] = frozenset()    # calls whose words are not shown (notes)
    looks: LookCache | None = None               # the latest looks; None: read every time
    reused_look: bool = False                    # read, counted and planned by an earlier look

    def __post_init__(self) -> None:
        self.preset = summary_preset(self.request.preset)

    # ---- counting with the model's own tokenizer -------------------------------------

    def count(self, text: str) -> int:
        return self.model.count(text)

    def count_chat(self, messages: Sequence[ChatMessage]) -> int:
        return self.model.count_chat(messages)

    # ---- the run ---------------------------------------------------------------------

    def read(self) -> Document:
        """The document's text; pages that are pictures are recognised, with progress."""
        if self.document is not None:
            return self.document
        cache = TextCache(self.request.cache_dir) if self.request.cache_dir else None
        document = read_document(self.request.path, cache=cache,
                                 ocr_run=OcrRun(self.stop, self._ocr_progress))
        self._index(document)
        return document

    def _index(self, document: Document) -> None:
        if self.request.index_path:      # a document indexed before is left as it is
            with PassageIndex(self.request.index_path) as index:
                index.add(document)

    def _ocr_progress(self, page: int, pages: int, seconds_left: float) -> None:
        self.emit(DocumentProgress(self.request.request_id, self.request.conversation_id,
                                   "recognising", page, pages, page - 1, seconds_left,
                                   msg("documents.progress.ocr", page=page, pages=pages),
                                   time_left_msg(seconds_left)))

    def inspect(self) -> DocumentPlan:
        key = self._look_key()
        look = self.looks.get(key) if self.looks is not None and key is not None else None
        self.reused_look = look is not None
        if look is None:
            look = Look(self.read())
        else:
            self._index(look.document)
            log.info("%s: the summary reuses its look (read, counted and planned once)",
                     look.document.name)
        self.prompts = Prompts(look.document.name, self.preset, self.request.language,
                               self.request.question)
        budget = Budget.measure(self.prompts, self.model.context_size, self.count_chat)
        self.plan = look.plan(budget, self.count)
        self.speed.ensure_measured(self.model, self.plan.parts[0].text)
        self.overview = overview_of(self.plan, self.speed.seconds(self.plan.read_tokens,
                                                                 self.plan.write_tokens),
                                    self.model.on_server)
        if self.looks is not None and key is not None and not self.stop.is_set():
            self.looks.put(key, look)        # a stopped look keeps nothing
        self.emit(DocumentInspected(self.request.request_id, self.request.conversation_id,
                                    self.overview))
        return self.plan

    def _look_key(self) -> LookKey | None:
        if self.document is not None:        # several files read as one: nothing to look up
            return None
        return LookKey.of(self.request.path, self.request.cache_dir, self.model.speed_key,
                          self.model.context_size)

    def run(self) -> DocumentSummary | None:
        plan = self.inspect()
        if self.request.inspect_only:
            return None
        self.started = time.perf_counter()
        self.notes: list[Note] = []
        try:
            answer = self._whole() if plan.whole else self._map_reduce()
            summary = self._summary(answer, partial=False)
        except Stopped as stopped:
            summary = self._summary(stopped.text, partial=True, whole_read=stopped.whole_read)
        self.emit(DocumentFinished(self.request.request_id, self.request.conversation_id,
                                   self.overview, summary, reused_look=self.reused_look))
        return summary

    def _whole(self) -> str:
        part = self.plan.parts[0]
        self._progress("writing", 1, 0, msg("documents.progress.whole"))
        return self._call("whole", part.label, self.prompts.whole(part.text), self.plan.budget.answer)

    def _map_reduce(self) -> str:
        parts = self.plan.parts
        for part in parts:
            self._check_stop()
            self._progress("reading", part.index, part.index - 1,
                           msg("documents.progress.part", part=part.index, parts=len(parts)))
            answer = self.plan.budget.part_answer
            text = self._call("part", part.label, self.prompts.part(
                part.text, part.index, len(parts), part.label, note_words(answer)), answer)
            self.notes.append(Note(part.label, part.pages, text))
        return self._reduce(list(self.notes))

    def _reduce(self, notes: list[Note]) -> str:
        budget, step = self.plan.budget, 0
        while True:
            self._check_stop()
            if self.count("\n\n".join(n.tagged for n in notes)) <= budget.combine_text:
                self._progress("combining", len(self.plan.parts), len(self.plan.parts),
                               msg("documents.progress.combining", parts=len(self.plan.parts)))
                joined = "\n\n".join(n.tagged for n in notes)
                return self._call("final", "all parts", self.prompts.combine(joined, True),
                                  budget.answer)
            # Notes may retokenize longer than they were written; clip so two always fit.
            notes = [self._clip(n, budget.merge_text // 2 - 4) for n in notes]
            groups = group_notes(notes, budget.merge_text, self.count)
            merged = []
            for group in groups:
                if len(group) == 1:          # nothing to combine it with in this round
                    merged.append(group[0])
                    continue
                step += 1
                merged.append(self._merge(group, step))
            notes = merged

    def _merge(self, group: list[Note], step: int) -> Note:
        self._check_stop()
        self._progress("combining", len(self.plan.parts), len(self.plan.parts),
                       msg("documents.progress.combining", parts=len(self.plan.parts)))
        pages = tuple(p for n in group for p in n.pages)
        label = span_label([n.label for n in group], pages)
        text = self._call("merge", label, self.prompts.combine(
            "\n\n".join(n.tagged for n in group), False), self.plan.budget.part_answer)
        return Note(label, tuple(dict.fromkeys(pages)), text)

    def _clip(self, note: Note, max_tokens: int) -> Note:
        tag = self.count(f"[{note.label}]\n")
        text = note.text.strip()
        if tag + self.count(text) <= max_tokens:
            return note
        return Note(note.label, note.pages, self.model.clip(text, max(1, max_tokens - tag - 2)))

    def _check_stop(self) -> None:
        if self.stop.is_set():
            raise Stopped()

    # ---- one model call ----------------------------------------------------------------

    def _call(self, kind: str, label: str, messages: tuple[ChatMessage, ...], max_tokens: int) -> str:
        prompt_tokens = self.count_chat(messages)
        room = self.model.context_size - prompt_tokens
        if room < max_tokens:   # the planner sized every call; this would be our bug
            raise DocumentError(msg("documents.split_failed"),
                                f"{kind} {label}: prompt {prompt_tokens} + answer {max_tokens} "
                                f"> context {self.model.context_size}")
        request = ChatRequest(messages=messages, max_tokens=max_tokens, temperature=TEMPERATURE,
                              record_routing=False, request_id=self.request.request_id,
                              conversation_id=self.request.conversation_id,
                              think=self.request.think, step=f"summary {kind}")
        started = time.perf_counter()
        run = self.model.start_chat(request, self.stop)
        quiet = kind in self.quiet_kinds
        for record in run.records():
            # the gauge shows reading and writing speed as in chat; notes are not the
            # answer, and thinking is never shown as either
            self.emit(dataclasses.replace(record, text="", thinking="") if quiet
                      else dataclasses.replace(record, thinking=""))
            if record.generated_tokens % PROGRESS_EVERY_TOKENS == 0:
                self._progress_again()
        self.model.finish_chat(run)
        stats = run.stats
        if stats.stop_reason == StopReason.LOOP:      # one looping part spoils the summary
            raise AnswerLoopError(msg("runtime.document_step_loops"),
                                  f"{kind} step {label}: {getattr(run, 'loop_details', '')}")
        seconds = time.perf_counter() - started
        self.calls.append(CallRecord(kind, label, prompt_tokens, stats.prompt_tokens, max_tokens,
                                     stats.generated_tokens, seconds, stats.stop_reason))
        self.speed.add(stats)
        if stats.stop_reason == StopReason.STOPPED:
            whole = kind == "whole"
            raise Stopped(run.text if whole else "", whole and stats.generated_tokens > 0)
        return run.text.strip()

    # ---- progress and the result ---------------------------------------------------------

    def _progress(self, phase: str, part: int, done: int, message: Msg) -> None:
        self._last = (phase, part, done, message)
        left = self._seconds_left()
        self.emit(DocumentProgress(self.request.request_id, self.request.conversation_id, phase,
                                   part, len(self.plan.parts), done, left, message,
                                   time_left_msg(left)))

    def _progress_again(self) -> None:
        self._progress(*self._last)

    def _seconds_left(self) -> float:
        """Planned time of what is left, scaled by how fast the calls so far really went."""
        plan, speed = self.plan, self.speed
        planned_total = speed.seconds(plan.read_tokens, plan.write_tokens)
        elapsed = time.perf_counter() - self.started
        done_share = self._done_share()
        if done_share <= 0:
            return planned_total
        return max(0.0, elapsed / done_share - elapsed)

    def _done_share(self) -> float:
        plan = self.plan
        done_read = sum(c.prompt_tokens for c in self.calls)
        done_write = sum(c.generated for c in self.calls)
        total = self.speed.seconds(plan.read_tokens, plan.write_tokens)
        return min(0.99, self.speed.seconds(done_read, done_write) / total) if total > 0 else 0.0

    def _summary(self, answer: str, partial: bool, whole_read: bool = False) -> DocumentSummary:
        plan = self.plan
        parts_read = len(self.notes) if not plan.whole else int(not partial or whole_read)
        note = read_note(plan, parts_read, partial)
        unread = tuple(pages_note(plan.document, skipped="documents.unread"))
        body = answer or "\n\n".join(n.tagged for n in self.notes)
        text = f"{msg('documents.partial_notice')}\n\n{body}" if partial and body else body
        said = " ".join(str(m) for m in (note, *unread))
        citations = tuple(Citation(n.label, n.pages, n.text) for n in self.notes) \
            or cited_sections(answer, plan)
        tokens_read = sum(p.tokens for p in plan.parts[:parts_read])
        return DocumentSummary(text=f"{text}\n\n{said}" if text else said, partial=partial,
                               parts=len(plan.parts), parts_read=parts_read, tokens=plan.tokens,
                               tokens_read=tokens_read, model_calls=len(self.calls),
                               read_note=note, citations=citations, preset=self.preset.name,
                               body=body, notes=unread)


def group_notes(notes: list[Note], budget: int, count: Callable[[str], int]) -> list[list[Note]]:
    """Consecutive notes in groups that fit ``budget`` (notes are clipped to half of it)."""
    groups: list[list[Note]] = []
    current: list[Note] = []
    size = 0
    for note in notes:
        tokens = count(note.tagged) + 2
        if current and size + tokens > budget:
            groups.append(current)
            current, size = [], 0
        current.append(note)
        size += tokens
    if current:
        groups.append(current)
    return groups


SOURCE = re.compile(r"\[((?:page|pages|section|lines) [^\]]{1,120})\]")


def cited_sections(answer: str, plan: DocumentPlan) -> tuple[Citation, ...]:
    """Sources the answer names that exist in the document (unknown ones are dropped)."""
    known = {s.label: s for s in plan.document.sections}
    found = dict.fromkeys(m.group(1) for m in SOURCE.finditer(answer))
    return tuple(Citation(label, _pages(known[label].page), "") for label in found if label in known)


def _pages(page: int | None) -> tuple[int, ...]:
    return (page,) if page else ()


_SPEED = SpeedMeter()   # only the engine thread touches it; re-measures when the model changes
_LOOKS = LookCache()    # only the engine thread touches it too (engine/documents/looks.py)


def summarize_on_engine_thread(model: SummaryModel, request: DocumentRequest,
                               emit: Callable[[Event], None],
                               stop: threading.Event) -> DocumentSummary | None:
    """``model``: the office server's or this computer's (engine.runtime.generation.summary_model)."""
    return DocumentSummarizer(model, request, emit, stop, _SPEED, looks=_LOOKS).run()
