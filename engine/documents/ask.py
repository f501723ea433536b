"""Answer a question from the documents of a conversation, citing pages that are then checked.

index (FTS5/BM25, engine/documents/index.py) → the passages that fit the model's context,
counted with its own tokenizer: all of them when every document fits, else the best-ranked
and their neighbours → the model answers citing ``[p. 12]`` → every reference is checked
against its page (citations.py). A question about the whole document ("summarise", "list
every deadline") that does not fit is read whole instead, in parts (summarize.py).

The question is a chat request that carries its documents (``ChatRequest.documents``). Events:
PassagesChosen, StepRecords (the answer's words), then RequestFinished with the citations
checked (``RequestFinished.document``).
"""

from __future__ import annotations

import dataclasses
import re
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from engine.api import (ChatMessage, ChatRequest, DocumentAnswered, DocumentFinished,
                        DocumentInspected, DocumentRequest, DocumentScope, Event, PassageRef,
                        PassagesChosen, RequestFinished, ResponseStats, StopReason)
from engine.documents import citations
from engine.documents.index import IndexedDocument, Passage, PassageIndex
from engine.documents.model import SummaryModel
from engine.documents.speed import SpeedMeter
from engine.documents.summarize import DocumentSummarizer
from engine.documents.types import Document, Section
from engine.errors import DocumentError
from engine.messages import Msg, msg

MARGIN = 16                   # tokens kept free: the template's closing marks, rounding
HISTORY_SHARE = 4             # earlier messages take at most 1/4 of the context
READ_SECONDS = 60             # once reading speed is known, passages for about a minute of it
MIN_PASSAGE_TOKENS = 2048
# "summarise", "list every deadline", "요약", "모든", "总结", "所有": the whole document
WHOLE = re.compile(r"summar|overview|\bevery\b|\ball (?:the )?\w+s\b|\blist (?:all|each|every)|"
                   r"whole (?:document|file|text)|entire|요약|개요|전체|모든|전부|总结|摘要|概述|"
                   r"概括|全部|所有|每[个项条]", re.I)
ACTIONS = re.compile(r"deadline|due\b|action|to-?do|task|마감|기한|할 일|截止|期限|待办|任务", re.I)


def wants_whole(question: str) -> bool:
    return WHOLE.search(question) is not None


def whole_preset(question: str) -> str:
    if ACTIONS.search(question):
        return "actions"
    return "short" if re.search(r"summar|요약|总结|摘要|概述|概括", question, re.I) else "bullets"


def tag(passage: Passage, several: bool) -> str:
    """How a passage is labelled for the model, and how it is asked to cite it."""
    place = f"p. {passage.page}" if passage.page is not None else passage.label
    return f"{passage.name}, {place}" if several else place


@dataclass(frozen=True)
class Question:
    """A chat request with documents as this module reads it: the question is the last user
    message, the system prompt the messages with role "system", the history the others
    before the question."""

    text: str
    history: tuple[ChatMessage, ...]
    system_prompt: str
    scope: DocumentScope

    @classmethod
    def of(cls, request: ChatRequest) -> Question:
        if request.documents is None:
            raise ValueError(f"chat request {request.request_id} carries no documents")
        messages = request.messages
        last = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
        if last < 0:
            raise ValueError(f"chat request {request.request_id} has no user message")
        return cls(messages[last].content,
                   tuple(m for m in messages[:last] if m.role != "system"),
                   "\n".join(m.content for m in messages if m.role == "system"),
                   request.documents)


@dataclass
class QuestionAnswerer:
    model: SummaryModel
    request: ChatRequest               # with its documents (ChatRequest.documents)
    emit: Callable[[Event], None]
    stop: threading.Event
    speed: SpeedMeter = field(default_factory=SpeedMeter)

    def __post_init__(self) -> None:
        self.question = Question.of(self.request)
        self.scope = self.question.scope
        self.scores: dict[tuple[str, int], float] = {}     # BM25 of the passages matched

    def run(self) -> DocumentAnswered:
        with PassageIndex(self.scope.index_path) as index:
            self.documents = self._documents(index)
            self.several = len(self.documents) > 1
            passages = index.passages([d.sha256 for d in self.documents])
            budget = self._passage_budget()
            sized = [(p, self.model.count(self._block(p)) + 2) for p in passages]
            everything = sum(tokens for _, tokens in sized)
            if wants_whole(self.question.text) and everything > budget:
                return self._read_whole(passages)
            chosen = sized if everything <= budget else self._choose(index, sized, budget)
            return self._answer(index, chosen, whole=everything <= budget)

    # ---- what to read --------------------------------------------------------------------

    def _documents(self, index: PassageIndex) -> list[IndexedDocument]:
        if not self.scope.documents:
            raise DocumentError(msg("documents.nothing_to_search"))
        found = index.documents(self.scope.documents)
        known = {d.sha256 for d in found}
        for sha in self.scope.documents:
            if sha not in known:
                raise DocumentError(msg("documents.not_indexed", name=sha[:12]),
                                    f"{sha} is not in {self.scope.index_path}")
        return found

    def _block(self, passage: Passage) -> str:
        return f"[{tag(passage, self.several)}]\n{passage.text}"

    def _passage_budget(self) -> int:
        """Tokens the passages may take: the context less instructions, history and answer,
        and once reading speed is known, no more than about a minute of reading."""
        self.answer_tokens = min(self.request.max_tokens, self.model.context_size // 4)
        self.history = self._history()
        bare = self.model.count_chat(self._messages(""))
        room = self.model.context_size - bare - self.answer_tokens - MARGIN
        if room < MIN_PASSAGE_TOKENS // 8:
            raise DocumentError(msg("documents.context_too_small"),
                                f"n_ctx {self.model.context_size}, room {room}")
        if self.speed.model_key == self.model.speed_key and self.speed.prompt_tps > 0:
            room = min(room, max(MIN_PASSAGE_TOKENS, int(self.speed.prompt_tps * READ_SECONDS)))
        return room

    def _history(self) -> tuple[ChatMessage, ...]:
        """The latest messages that fit in a quarter of the context, oldest first."""
        kept, used = [], 0
        for message in reversed(self.question.history):
            tokens = self.model.count(message.content) + 8
            if used + tokens > self.model.context_size // HISTORY_SHARE:
                break
            kept.append(message)
            used += tokens
        return tuple(reversed(kept))

    def _choose(self, index: PassageIndex, sized: list[tuple[Passage, int]],
                budget: int) -> list[tuple[Passage, int]]:
        """Best-ranked passages first, then the passages beside them, while they fit."""
        size = {(p.sha256, p.position): (p, tokens) for p, tokens in sized}
        found = index.search(self.question.text, [d.sha256 for d in self.documents])
        self.scores = {(p.sha256, p.position): score for p, score in found}
        ranked = list(self.scores)
        if not ranked:          # nothing matched: the beginning of each document
            ranked = [key for key in size if key[1] == 0]
        neighbours = [(sha, pos + step) for sha, pos in ranked for step in (1, -1)]
        chosen, used = {}, 0
        for key in [*ranked, *neighbours, *size]:
            if key in chosen or key not in size:
                continue
            passage, tokens = size[key]
            if used + tokens <= budget:
                chosen[key] = (passage, tokens)
                used += tokens
        if not chosen:
            raise DocumentError(msg("documents.context_too_small"),
                                f"no passage fits {budget} tokens")
        order = {d.sha256: i for i, d in enumerate(self.documents)}
        return sorted(chosen.values(), key=lambda item: (order[item[0].sha256], item[0].position))

    # ---- the prompt ----------------------------------------------------------------------

    def _system(self) -> str:
        example = f"[{self.documents[0].name}, p. 12]" if self.several else "[p. 12]"
        own = self.question.system_prompt.strip()
        own = f"\n\n{own}" if own else ""
        return (
            "You answer questions about documents for office staff. Each passage below starts "
            "with its source in square brackets. Answer from the passages only. After each "
            f"statement, give its source exactly as it is labelled, such as {example}. If the "
            "passages do not hold the answer, say so plainly. Write in "
            f"{self.scope.language} unless the user asks for another language.{own}")

    def _messages(self, passages: str) -> tuple[ChatMessage, ...]:
        names = ", ".join(d.name for d in self.documents)
        question = self.question.text.strip()
        user = f"Passages from {names}:\n\n{passages}\n\nQuestion: {question}"
        return (ChatMessage("system", self._system()), *self.history, ChatMessage("user", user))

    # ---- answering -----------------------------------------------------------------------

    def _answer(self, index: PassageIndex, chosen: list[tuple[Passage, int]],
                whole: bool) -> DocumentAnswered:
        refs = tuple(PassageRef(p.name, p.sha256, p.label, p.page, tokens,
                                self.scores.get((p.sha256, p.position), 0.0))
                     for p, tokens in chosen)
        read = read_msg(refs, whole, self.documents)
        self.emit(PassagesChosen(self.request.request_id, self.request.conversation_id, refs,
                                 whole, read))
        messages = self._messages("\n\n".join(self._block(p) for p, _ in chosen))
        text, stats = self._generate(messages)
        checks = self._check(index, text)
        return self._finish(text, stats, refs, checks, read, "passages")

    def _generate(self, messages: tuple[ChatMessage, ...]) -> tuple[str, ResponseStats]:
        # The user's request (its sampling, thinking and ids) with the passages in its prompt
        request = dataclasses.replace(self.request, messages=messages, documents=None,
                                      max_tokens=self.answer_tokens, record_routing=False)
        run = self.model.start_chat(request, self.stop)
        for record in run.records():
            self.emit(record)
        self.model.finish_chat(run)
        self.speed.add(run.stats)
        return run.text, run.stats

    def _check(self, index: PassageIndex, text: str):
        by_name = {d.name: d for d in self.documents}

        def page_text(name: str, ref: citations.Ref) -> str | None:
            document = by_name.get(name)
            if document is None:
                return None
            if ref.pages:
                if any(page < 1 or page > document.pages > 0 for page in ref.pages):
                    return None        # a page the document does not have
                texts = [index.page_text(document.sha256, page) for page in ref.pages]
                return None if all(t is None for t in texts) else "\n".join(t or "" for t in texts)
            return index.label_text(document.sha256, ref.label)

        return citations.check_answer(text, [d.name for d in self.documents], page_text)

    def _finish(self, text: str, stats: ResponseStats, refs, checks, read: Msg,
                mode: str) -> DocumentAnswered:
        answered = DocumentAnswered(self.request.request_id, self.request.conversation_id, text,
                                    refs, checks, read, mode)
        self.emit(RequestFinished(self.request.request_id, text, stats,
                                  self.request.conversation_id, document=answered))
        return answered

    # ---- a question about the whole document that does not fit: read it in parts ------------

    def _read_whole(self, passages: list[Passage]) -> DocumentAnswered:
        document = merged_document(passages, self.documents, self.several)
        request = DocumentRequest("", preset=whole_preset(self.question.text),
                                  language=self.scope.language, question=self.question.text,
                                  request_id=self.request.request_id,
                                  conversation_id=self.request.conversation_id)
        started = time.perf_counter()
        summarizer = DocumentSummarizer(self.model, request, self._pass_on, self.stop, self.speed,
                                        document=document, quiet_kinds=frozenset({"part", "merge"}))
        summary = summarizer.run()
        assert summary is not None                # not inspect_only: run() ends in a summary
        how = msg("documents.in_one_pass") if summary.parts == 1 else \
            msg("documents.in_parts", n=summary.parts)
        names = ", ".join(d.name for d in self.documents)
        read = msg("documents.read_whole_for_answer", where=names, how=how)
        places = dict.fromkeys((p.sha256, p.name, p.label, p.page) for p in passages)
        refs = tuple(PassageRef(name, sha, label, page, 0, 0.0)
                     for sha, name, label, page in places)
        with PassageIndex(self.scope.index_path) as index:
            checks = self._check(index, summary.body)
        stats = _stats(self.request.request_id, summarizer, summary, time.perf_counter() - started)
        return self._finish(summary.body, stats, refs, checks, read, "whole")

    def _pass_on(self, event: Event) -> None:
        """The summariser's progress and the answer's words go out; its own ending does not
        (this request ends with a RequestFinished that carries the citations checked)."""
        if not isinstance(event, (DocumentInspected, DocumentFinished)):
            self.emit(event)


def merged_document(passages: Sequence[Passage], documents: Sequence[IndexedDocument],
                    several: bool) -> Document:
    """The conversation's documents as one, each passage labelled as the model should cite it."""
    sections = tuple(Section(f"{p.name}, page {p.page}" if several and p.page is not None
                             else f"{p.name}, {p.label}" if several else p.label,
                             p.text, page=p.page) for p in passages)
    first = documents[0]
    return Document(path="", name=", ".join(d.name for d in documents), kind=first.kind
                    if not several else "text", sha256=first.sha256, sections=sections,
                    page_count=first.pages if not several else 0)


def read_msg(refs: Sequence[PassageRef], whole: bool,
             documents: Sequence[IndexedDocument]) -> Msg:
    """"Read for this answer: report.pdf, pp. 3, 4, 12; plan.docx, section “Budget”."."""
    several = len(documents) > 1
    places = []
    for document in documents:
        mine = [r for r in refs if r.sha256 == document.sha256]
        if mine:
            places.append(msg("documents.whole_document", name=document.name) if whole
                          else _places(document.name, mine, several))
    return msg("documents.read_for_answer", where=_listed(places))


def _places(name: str, refs: Sequence[PassageRef], several: bool) -> Msg:
    pages = sorted({r.page for r in refs if r.page is not None})
    if pages:
        where = msg("documents.page_ref", page=pages[0]) if len(pages) == 1 else \
            msg("documents.pages_ref", pages=page_runs(pages))
    else:
        where = _listed([_label_msg(label) for label in dict.fromkeys(r.label for r in refs)])
    return msg("documents.in_document", name=name, where=where) if several else where


def _label_msg(label: str) -> Msg:
    ref = citations.parse_ref(label)
    return citations.where_msg(ref, "", False) if ref else msg("documents.beginning_ref")


def _listed(items: Sequence[Msg]) -> Msg:
    """Messages joined by "; " (each part still renders in the interface's language)."""
    combined = items[0]
    for item in items[1:]:
        combined = msg("documents.list_pair", first=combined, second=item)
    return combined


def page_runs(pages: Sequence[int]) -> str:
    """"3, 4, 9–14": runs of three pages or more as a range."""
    pages, runs, start = sorted(pages), [], 0
    for i in range(1, len(pages) + 1):
        if i == len(pages) or pages[i] != pages[i - 1] + 1:
            run = pages[start:i]
            runs.append(f"{run[0]}–{run[-1]}" if len(run) > 2 else ", ".join(map(str, run)))
            start = i
    return ", ".join(runs)


def _stats(request_id: int, summarizer, summary, seconds: float) -> ResponseStats:
    calls = summarizer.calls
    return ResponseStats(
        request_id=request_id, prompt_tokens=sum(c.prompt_tokens for c in calls),
        generated_tokens=sum(c.generated for c in calls),
        prompt_tps=summarizer.speed.prompt_tps, decode_tps=summarizer.speed.decode_tps,
        ttft_s=0.0, total_s=seconds, context_used=0, context_size=summarizer.model.context_size,
        stop_reason=StopReason.STOPPED if summary.partial
        else (calls[-1].stop_reason if calls else StopReason.EOS))


_SPEED = SpeedMeter()     # only the engine thread touches it


def answer_on_engine_thread(model: SummaryModel, request: ChatRequest,
                            emit: Callable[[Event], None],
                            stop: threading.Event) -> DocumentAnswered:
    """Answer a chat request that carries documents. ``model``: the office server's or this
    computer's, as engine/documents sees it (engine.runtime.generation.summary_model)."""
    return QuestionAnswerer(model, request, emit, stop, _SPEED).run()
