"""Fit or split and map-reduce on the tiny fixture model: mechanics, never quality."""

from __future__ import annotations

import dataclasses
import queue
import threading

import pytest

from engine.api import (DocumentFinished, DocumentInspected, DocumentProgress, DocumentRequest,
                        LoadRequest, ModelLoaded, RequestFailed, StepRecord)
from engine.documents.presets import SUMMARY_PRESETS
from tests.support.document_samples import long_pdf, write_docx
from engine.documents.split import split_into_parts
from engine.documents.summarize import DocumentSummarizer
from engine.documents.types import Section
from engine.errors import DocumentError
from engine.recipe import MemoryEstimate, Recipe
from engine.runtime.loader import load_with_fallback
from engine.runtime.service import EngineService
from engine.runtime.generation.summary_model import LocalSummaryModel

N_CTX = 1536


@pytest.fixture(scope="module")
def loaded(tiny_moe_path):
    recipe = Recipe(preset="test", n_gpu_layers=0, cpu_expert_layers=(), n_ctx=N_CTX,
                    flash_attn=True, kv_type="f16", n_batch=512, n_ubatch=512, n_threads=1,
                    n_threads_batch=1, vram=MemoryEstimate(), ram=MemoryEstimate())
    model = load_with_fallback(LoadRequest(str(tiny_moe_path), recipe=recipe),
                               lambda *a: None, lambda r: None)
    yield model
    model.close()


class Spy:
    """The loaded model, with every request that reaches it written down."""

    def __init__(self, loaded):
        self.loaded, self.native, self.requests = loaded, loaded.native, []

    def start_chat(self, request, stop):
        self.requests.append(request)
        return self.loaded.start_chat(request, stop)

    def finish_chat(self, run):
        self.loaded.finish_chat(run)


def pdf(path, pages):
    return long_pdf(path, pages, paragraphs_per_page=1)     # ~450 tokens a page here


def summarize(loaded, tmp_path, path, stop=None, on_event=None, looks=None, **fields):
    events, spy = [], Spy(loaded)

    def emit(event):
        events.append(event)
        if on_event:
            on_event(event)
    request = DocumentRequest(str(path), cache_dir=str(tmp_path / "cache"), conversation_id=7,
                              **fields)
    summarizer = DocumentSummarizer(LocalSummaryModel(spy), request, emit, stop or threading.Event(),
                                    looks=looks)
    summary = summarizer.run()
    return summarizer, summary, events, spy


def test_tokens_are_counted_with_the_model_tokenizer(loaded, tmp_path):
    summarizer, _, events, _ = summarize(loaded, tmp_path, pdf(tmp_path / "a.pdf", 2),
                                         inspect_only=True)
    text = "The budget for printers and travel, 2026."
    assert summarizer.count(text) == len(loaded.native.tokenize(text, special=False))
    assert summarizer.count(text) != len(text) // 4
    overview = events[0].overview
    assert overview.tokens == sum(summarizer.count(p.text) for p in summarizer.plan.parts)


def test_inspect_only_reports_what_was_found_and_runs_nothing(loaded, tmp_path):
    _, summary, events, spy = summarize(loaded, tmp_path, pdf(tmp_path / "b.pdf", 4),
                                        inspect_only=True)
    assert summary is None and len(events) == 1 and isinstance(events[0], DocumentInspected)
    overview = events[0].overview
    assert (overview.pages, overview.kind) == (4, "pdf") and overview.parts > 1
    said = str(overview.message)
    assert said.startswith("4 pages, ") and f"read in {overview.parts} parts" in said
    assert "on this computer" in said and overview.estimated_s > 0
    assert len(spy.requests) == 1          # the one short speed measurement, nothing else


def test_a_short_document_is_read_whole_in_one_call(loaded, tmp_path):
    path = tmp_path / "memo.md"
    path.write_text("# Budget\nTravel costs rose.\n\n# Staff\nTwo hires.\n", encoding="utf-8")
    summarizer, summary, events, _ = summarize(loaded, tmp_path, path)
    assert [c.kind for c in summarizer.calls] == ["whole"]
    assert summary.parts == summary.parts_read == 1 and not summary.partial
    assert str(summary.read_note) == "Read all of it (2 sections) in one pass."
    assert summary.text.endswith(str(summary.read_note))
    assert "[section 'Budget']\nTravel costs rose." in summarizer.plan.parts[0].text


def test_every_part_reaches_the_model_and_no_prompt_exceeds_the_context(loaded, tmp_path):
    summarizer, summary, events, spy = summarize(loaded, tmp_path, pdf(tmp_path / "c.pdf", 4))
    parts = summarizer.plan.parts
    part_requests = spy.requests[1:1 + len(parts)]          # [0] is the speed measurement
    assert len(parts) >= 3 and [c.kind for c in summarizer.calls[:len(parts)]] == ["part"] * len(parts)
    for part, request in zip(parts, part_requests):
        assert part.text in request.messages[-1].content
    covered = "".join(p.text for p in parts)
    for section in summarizer.plan.document.sections:       # nothing left out, nothing cut
        for line in section.text.splitlines():
            assert line in covered
    for call in summarizer.calls:
        assert call.prompt_tokens + call.max_tokens <= N_CTX
    assert summarizer.calls[-1].kind == "final"
    assert summary.model_calls == len(summarizer.calls) == len(spy.requests) - 1
    # Each call names its step for the log (a loop's details), never "chat".
    assert [r.step for r in spy.requests] == ["summary speed"] + [
        f"summary {call.kind}" for call in summarizer.calls]
    assert summary.parts_read == summary.parts == len(parts) and not summary.partial
    assert str(summary.read_note) == f"Read all of it (4 pages) in {len(parts)} parts."


def test_one_long_section_is_counted_in_the_singular(loaded, tmp_path):
    # was "Read all 1 sections in 2 parts."
    path = tmp_path / "memo.md"
    path.write_text("# Memo\n" + "The archive answered every request within ten days. " * 150,
                    encoding="utf-8")
    _, summary, _, _ = summarize(loaded, tmp_path, path)
    assert summary.parts >= 2 and not summary.partial
    assert str(summary.read_note) == f"Read all of it (1 section) in {summary.parts} parts."
    assert summary.text == f"{summary.body}\n\n{summary.read_note}" and summary.body


def test_progress_events_arrive_in_order_with_ids(loaded, tmp_path):
    _, summary, events, _ = summarize(loaded, tmp_path, pdf(tmp_path / "d.pdf", 3))
    assert isinstance(events[0], DocumentInspected) and isinstance(events[-1], DocumentFinished)
    progress = [e for e in events if isinstance(e, DocumentProgress)]
    assert {e.request_id for e in events} == {events[0].request_id}     # steps included
    assert {e.conversation_id for e in events if not isinstance(e, StepRecord)} == {7}
    steps = [e for e in events if isinstance(e, StepRecord)]
    assert steps and steps[0].context_size == N_CTX                      # the gauge's numbers
    reading = [p for p in progress if p.phase == "reading"]
    assert [p.part for p in reading] == sorted(p.part for p in reading)
    assert sorted({p.part for p in reading}) == list(range(1, summary.parts + 1))
    assert [p.parts_done for p in progress] == sorted(p.parts_done for p in progress)
    third = next(p for p in reading if p.part == 3)
    assert str(third.message) == f"Reading part 3 of {summary.parts}…"
    assert progress[-1].phase == "combining"
    assert all(p.seconds_left >= 0 for p in progress)


def test_citations_point_at_pages_that_exist(loaded, tmp_path):
    summarizer, summary, _, _ = summarize(loaded, tmp_path, pdf(tmp_path / "e.pdf", 3),
                                          preset="bullets")
    assert len(summary.citations) == summary.parts
    for citation, part in zip(summary.citations, summarizer.plan.parts):
        assert citation.label == part.label and citation.pages
        assert set(citation.pages) <= {1, 2, 3}
    assert {p for c in summary.citations for p in c.pages} == {1, 2, 3}


def test_the_shared_instructions_come_from_the_prompt_cache(loaded, tmp_path):
    summarizer, _, _, _ = summarize(loaded, tmp_path, pdf(tmp_path / "f.pdf", 3))
    later_parts = [c for c in summarizer.calls if c.kind == "part"][1:]
    system = summarizer.count_chat(summarizer.prompts.whole("")[:1])
    assert later_parts and all(c.read_tokens <= c.prompt_tokens - system + 8 for c in later_parts)


def test_the_cache_is_used_on_the_second_run(loaded, tmp_path):
    path = pdf(tmp_path / "g.pdf", 2)
    first = summarize(loaded, tmp_path, path, inspect_only=True)[2][0].overview
    second = summarize(loaded, tmp_path, path, inspect_only=True)[2][0].overview
    assert not first.from_cache and second.from_cache
    assert dataclasses.replace(second, from_cache=False, estimated_s=0) == \
        dataclasses.replace(first, estimated_s=0)


def test_stop_mid_way_keeps_the_partial_result(loaded, tmp_path):
    stop = threading.Event()
    stop_at_part_3 = lambda e: isinstance(e, DocumentProgress) and e.part == 3 and stop.set()  # noqa: E731
    summarizer, summary, events, _ = summarize(loaded, tmp_path, pdf(tmp_path / "h.pdf", 4),
                                               stop=stop, on_event=stop_at_part_3)
    assert isinstance(events[-1], DocumentFinished) and events[-1].summary is summary
    assert summary.partial and summary.parts_read == 2 < summary.parts
    assert summary.text.startswith("Partial summary: stopped before the end.")
    note = str(summary.read_note)
    assert note.startswith("Partial: read p") and f"(2 of {summary.parts} parts)" in note
    assert [c.label for c in summary.citations] == [p.label for p in summarizer.plan.parts[:2]]
    assert summary.tokens_read == sum(p.tokens for p in summarizer.plan.parts[:2])
    assert "final" not in [c.kind for c in summarizer.calls]


def test_stop_while_writing_a_one_pass_answer(loaded, tmp_path):
    path = tmp_path / "memo.md"
    path.write_text("# Budget\nTravel costs rose.\n\n# Staff\nTwo hires.\n", encoding="utf-8")
    stop = threading.Event()
    stop_at_token_3 = lambda e: isinstance(e, StepRecord) and e.generated_tokens == 3 and stop.set()  # noqa: E731
    _, summary, _, _ = summarize(loaded, tmp_path, path, stop=stop, on_event=stop_at_token_3)
    assert summary.partial and summary.parts_read == 1
    assert str(summary.read_note) == ("Read all of it (2 sections) in one pass, but stopped "
                                      "before the summary was finished.")
    assert summary.text.startswith("Partial summary: stopped before the end.")


def test_stop_before_anything_was_read(loaded, tmp_path):
    stop = threading.Event()
    stop_on_plan = lambda e: isinstance(e, DocumentInspected) and stop.set()  # noqa: E731
    summarizer, summary, _, _ = summarize(loaded, tmp_path, pdf(tmp_path / "z.pdf", 3), stop=stop,
                                          on_event=stop_on_plan)
    assert summary.partial and summary.parts_read == 0 and summarizer.calls == []
    assert summary.text == str(summary.read_note) == "Stopped before any of it (3 pages) was read."


def test_language_and_question_reach_the_instructions(loaded, tmp_path):
    path = tmp_path / "note.txt"
    path.write_text("Der Drucker ist kaputt. Bitte neuen bestellen.", encoding="utf-8")
    _, _, _, spy = summarize(loaded, tmp_path, path, language="Deutsch",
                             question="Only the costs, please")
    system = spy.requests[-1].messages[0]
    assert system.role == "system" and "Write in Deutsch" in system.content
    assert "Only the costs, please" in system.content


def test_docx_sections_are_the_sources(loaded, tmp_path):
    sections = [(f"Topic {n}", [f"Paragraph {n}.{k} " * 12 for k in range(3)]) for n in range(4)]
    summarizer, summary, _, _ = summarize(loaded, tmp_path, write_docx(tmp_path / "t.docx", sections))
    labels = {s.label for s in summarizer.plan.document.sections}
    for citation in summary.citations:
        for label in citation.label.split(" to "):
            assert label in labels


def test_presets_are_a_registry_of_frozen_data(loaded, tmp_path):
    assert set(SUMMARY_PRESETS) == {"short", "detailed", "bullets", "actions"}
    with pytest.raises(dataclasses.FrozenInstanceError):
        SUMMARY_PRESETS["short"].answer_tokens = 1
    with pytest.raises(DocumentError, match="no summary style"):
        summarize(loaded, tmp_path, pdf(tmp_path / "i.pdf", 1), preset="poem")


# ---- splitting without a model: a word counter stands in for the tokenizer -------------

def words(text: str) -> int:
    return len(text.split())


def test_split_keeps_order_labels_and_budget():
    sections = [Section(f"page {n}", "\n".join(f"line {n}.{k} " + "w " * 20 for k in range(10)),
                        page=n) for n in range(1, 8)]
    parts = split_into_parts(sections, 120, words)
    assert all(p.tokens <= 120 for p in parts)
    assert [p.index for p in parts] == list(range(1, len(parts) + 1))
    pages = [p.pages for p in parts]
    assert [page for group in pages for page in group] == sorted(
        page for group in pages for page in group)
    joined = "\n".join(p.text for p in parts)
    assert all(f"line {n}.{k} " in joined for n in range(1, 8) for k in range(10))


def test_split_cuts_a_single_giant_word():
    parts = split_into_parts([Section("lines 1–1", "x" * 5000)], 40, lambda t: len(t) // 10)
    assert len(parts) > 1 and all(p.tokens <= 40 for p in parts)
    assert "".join(piece.text for p in parts for piece in p.pieces) == "x" * 5000


# ---- through the engine thread ----------------------------------------------------------

def test_service_runs_documents_and_reports_failures(tiny_moe_path, tmp_path, cpu_recipe):
    events: queue.Queue = queue.Queue()
    service = EngineService(events.put)
    try:
        service.document(DocumentRequest(str(tmp_path / "missing.pdf")))
        assert isinstance(_until(events, RequestFailed)[-1].error, Exception)   # no model yet
        service.load(LoadRequest(str(tiny_moe_path), recipe=cpu_recipe(n_ctx=N_CTX, n_batch=512)))
        assert isinstance(_until(events, (ModelLoaded, RequestFailed))[-1], ModelLoaded)
        (tmp_path / "empty.txt").write_bytes(b"")
        request = DocumentRequest(str(tmp_path / "empty.txt"), cache_dir=str(tmp_path / "c"))
        service.document(request)
        failed = _until(events, RequestFailed)[-1]
        assert failed.request_id == request.request_id and "empty" in failed.error.message
        path = pdf(tmp_path / "s.pdf", 2)
        service.document(DocumentRequest(str(path), cache_dir=str(tmp_path / "c"),
                                         inspect_only=True))
        assert isinstance(_until(events, (DocumentInspected, RequestFailed))[-1], DocumentInspected)
        service.document(DocumentRequest(str(path), cache_dir=str(tmp_path / "c"), preset="bullets"))
        finished = _until(events, (DocumentFinished, RequestFailed))[-1]
        assert isinstance(finished, DocumentFinished) and not finished.summary.partial
        assert finished.reused_look                 # the look's text, counts and plan
    finally:
        service.shutdown()


def _until(events, kind, timeout=120):
    seen = []
    while not seen or not isinstance(seen[-1], kind):
        seen.append(events.get(timeout=timeout))
    return seen


def test_pages_without_text_are_named_before_and_after(loaded, tmp_path):
    from tests.support.document_samples import write_pdf
    path = write_pdf(tmp_path / "scan-mix.pdf", [["Budget 2026 rose."], [""], ["Staff grew."]],
                     blank=(2,))
    _, summary, events, _ = summarize(loaded, tmp_path, path)
    inspected = next(e for e in events if isinstance(e, DocumentInspected))
    assert [str(n) for n in inspected.overview.notes] == [
        "Page 2 has no text (probably a picture) and will be skipped."]
    assert summary.text.endswith("Read all of it (3 pages) in one pass. Page 2 has no text and "
                                 "could not be read.")


def test_a_300_page_pdf_is_planned_quickly_and_completely(loaded, tmp_path):
    import time
    path = long_pdf(tmp_path / "long.pdf", 300, paragraphs_per_page=1)
    started = time.perf_counter()
    summarizer, _, events, _ = summarize(loaded, tmp_path, path, inspect_only=True)
    elapsed = time.perf_counter() - started
    plan, overview = summarizer.plan, events[0].overview
    assert overview.pages == 300 and overview.parts == len(plan.parts) > 1
    pages = [page for part in plan.parts for page in part.pages]
    assert pages == sorted(pages) and set(pages) == set(range(1, 301))   # a page may span two parts
    assert all(part.tokens <= plan.budget.part_text for part in plan.parts)
    assert overview.model_calls > overview.parts               # combining steps planned too
    assert elapsed < 30, f"planning took {elapsed:.1f} s"


def test_a_partial_note_says_which_pages_were_read():
    """Not "Partial: read 1 of 2 parts of it (35 pages)", which reads as if all 35 were."""
    from types import SimpleNamespace
    from engine.documents.report import read_note
    document = SimpleNamespace(kind="pdf", page_count=35, sections=tuple(range(35)), lines=0)
    parts = [SimpleNamespace(pages=tuple(range(1, 19))), SimpleNamespace(pages=tuple(range(19, 36)))]
    plan = SimpleNamespace(document=document, parts=parts, whole=False)
    assert str(read_note(plan, 1, True)) == \
        "Partial: read pp. 1–18 of 35 pages (1 of 2 parts); the rest was not read."
    words = SimpleNamespace(kind="docx", page_count=0, sections=("a", "b"), lines=0)
    plan = SimpleNamespace(document=words, parts=[SimpleNamespace(pages=())] * 2, whole=False)
    assert str(read_note(plan, 1, True)).startswith("Partial: read 1 of 2 parts of it")


# ---- a summary starts from its look (engine/documents/looks.py) ---------------------------

class Counted:
    """Calls to the document reader, the planner and the tokenizer while a request reads and
    plans (DocumentSummarizer.inspect; notes counted while combining are not the look's)."""

    def __init__(self, monkeypatch):
        import engine.documents.looks as looks_module
        import engine.documents.summarize as summarize_module
        self.reads = self.plans = self.counts = 0
        self.inspecting = False
        read, plan = summarize_module.read_document, looks_module.plan_document
        count, inspect = LocalSummaryModel.count, DocumentSummarizer.inspect

        def counted_inspect(summarizer):
            self.inspecting = True
            try:
                return inspect(summarizer)
            finally:
                self.inspecting = False

        def counted_read(*args, **kwargs):
            self.reads += 1
            return read(*args, **kwargs)

        def counted_plan(*args, **kwargs):
            self.plans += 1
            return plan(*args, **kwargs)

        def counted_count(model, text):
            self.counts += self.inspecting
            return count(model, text)
        monkeypatch.setattr(summarize_module, "read_document", counted_read)
        monkeypatch.setattr(looks_module, "plan_document", counted_plan)
        monkeypatch.setattr(LocalSummaryModel, "count", counted_count)
        monkeypatch.setattr(DocumentSummarizer, "inspect", counted_inspect)

    @property
    def seen(self) -> tuple[int, int, int]:
        return self.reads, self.plans, self.counts


def look_then_summarize(loaded, tmp_path, path, looks, **fields):
    """The app's two requests: the look (default style), then the summary in the picked one.
    Returns both summarizers, the summary's requests to the model and its DocumentFinished."""
    look, _, _, _ = summarize(loaded, tmp_path, path, looks=looks, inspect_only=True)
    summary, _, events, spy = summarize(loaded, tmp_path, path, looks=looks, **fields)
    return look, summary, spy.requests, events[-1]


@pytest.mark.parametrize("fields", [{}, {"preset": "bullets", "language": "Deutsch"}])
def test_a_summary_reads_counts_and_plans_what_its_look_did_not(loaded, tmp_path, monkeypatch,
                                                                fields):
    from engine.documents.looks import LookCache
    path = pdf(tmp_path / "look.pdf", 4)
    counted = Counted(monkeypatch)
    _, plain, plain_requests, plain_end = look_then_summarize(loaded, tmp_path, path, None,
                                                              **fields)
    before = counted.seen
    looks = LookCache()
    _, reused, reused_requests, reused_end = look_then_summarize(loaded, tmp_path, path, looks,
                                                                 **fields)
    after = tuple(a - b for a, b in zip(counted.seen, before))
    same_style = not fields
    assert before[:2] == (2, 2) and after[:2] == (1, 1 if same_style else 2)
    print(f"look + summary{fields or ''}: reads, plans, tokenizer calls {before} -> {after}")
    assert after[2] <= before[2] / 2            # the look's counts serve the summary's plan
    assert (looks.hits, looks.misses) == (1, 1) and len(looks) == 1
    assert reused_end.reused_look and not plain_end.reused_look
    timeless = lambda end: dataclasses.replace(end.overview, estimated_s=0, from_cache=False)  # noqa: E731
    assert reused.plan == plain.plan and timeless(reused_end) == timeless(plain_end)
    parts = len(plain.plan.parts)                 # [0]: the speed measurement, then the parts
    assert parts > 1 and [r.messages for r in reused_requests[1:1 + parts]] == \
        [r.messages for r in plain_requests[1:1 + parts]]
    assert reused_end.summary.parts_read == plain_end.summary.parts_read == parts


def test_a_file_changed_after_its_look_is_read_again(loaded, tmp_path, monkeypatch):
    from engine.documents.looks import LookCache
    path = tmp_path / "memo.md"
    path.write_text("# Budget\nTravel costs rose.\n", encoding="utf-8")
    looks, counted = LookCache(), Counted(monkeypatch)
    summarize(loaded, tmp_path, path, looks=looks, inspect_only=True)
    path.write_text("# Budget\nTravel costs fell by half.\n", encoding="utf-8")
    summarizer, summary, events, _ = summarize(loaded, tmp_path, path, looks=looks)
    assert counted.reads == 2 and not events[-1].reused_look
    assert "fell by half" in summarizer.plan.parts[0].text and "rose" not in summarizer.plan.parts[0].text
    assert len(looks) == 1                   # the old file's look is gone, the new one kept
    again, _, events, _ = summarize(loaded, tmp_path, path, looks=looks, inspect_only=True)
    assert counted.reads == 2 and again.reused_look and again.plan.document.sections == \
        summarizer.plan.document.sections


def test_a_stopped_look_leaves_nothing_to_reuse(loaded, tmp_path, monkeypatch):
    from engine.documents.looks import LookCache
    path = pdf(tmp_path / "stopped.pdf", 2)
    looks, counted, stop = LookCache(), Counted(monkeypatch), threading.Event()
    stop.set()                                   # stopped while it was being read and planned
    summarize(loaded, tmp_path, path, stop=stop, looks=looks, inspect_only=True)
    assert len(looks) == 0
    _, _, events, _ = summarize(loaded, tmp_path, path, looks=looks)
    assert counted.reads == 2 and not events[-1].reused_look and len(looks) == 1


def test_the_look_cache_keeps_the_latest_few():
    from engine.documents.looks import Look, LookCache, LookKey
    from engine.documents.types import Document
    def look(text):
        return Look(Document("x", "x", "text", "0", (Section("lines 1–1", text),)))
    looks = LookCache(max_looks=2, max_chars=10)
    keys = [LookKey(f"/f{n}", 1, 1, None, ("m",), 512) for n in range(3)]
    looks.put(keys[0], look("abc"))
    looks.put(keys[1], look("abc"))
    assert looks.get(keys[0]) is not None           # used: the newest now
    looks.put(keys[2], look("abc"))
    assert looks.get(keys[1]) is None and looks.get(keys[0]) is not None and len(looks) == 2
    looks.put(keys[1], look("x" * 20))              # bigger than the bound: not kept
    assert looks.get(keys[1]) is None and len(looks) == 2
    counted = look("abc")
    counted.counts["abcdefg"] = 3                   # what was counted is held too: 3 + 7
    looks.put(keys[1], counted)
    assert len(looks) == 1 and looks.get(keys[1]) is counted
    changed = dataclasses.replace(keys[1], mtime_ns=2)
    looks.put(changed, look("abc"))
    assert looks.get(keys[1]) is None and looks.get(changed) is not None
    assert LookKey.of("/no/such/file.pdf", None, ("m",), 512) is None
