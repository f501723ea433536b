"""Document benchmarks, measured in one run on this machine.

1. Text extraction of a generated 300-page text PDF with pypdfium2 (the reader the app uses),
   and pypdf beside it for the ratio. Target: < 10 s.
2. Map-reduce overhead: total model time of a map-reduce summary of a document longer than
   the context, over the time to read the same document in one pass (a second context big
   enough to hold it) and write one answer. Target: <= 1.3. Measured on a fixture model;
   a modelled figure for the reference setup (Qwen3.6-35B-A3B on an 8 GB laptop, published
   74.2 tokens/s reading, 21.06 writing) is printed from this run's token counts, labelled.

3. Questions (engine/documents/ask.py) over the fixture set of bench/document_questions.py:
   recall@passages, the share of the 30 questions whose answer page is among the passages
   given to the model (the demo model's tokenizer, context 4,096; target >= 90%); the share of
   page references on the demo model's answers that pass the check (the demo writes one fixed
   message, so it is reported, not judged); hand-written answers with wrong references
   (the same check as tests/engine/test_documents_ask.py) must be flagged.
4. Time to the first answer word for a 40-page PDF: retrieval on a model whose context holds
   a fifth of the document, against one pass over the whole document in a context that holds
   it (target: retrieval >= 5x faster).
5. OCR: characters right on a rendered page of known text in English, Korean and Chinese
   (target >= 95% English; Korean and Chinese need their Tesseract data and a CJK font to draw
   the page, else they are reported as not measured), seconds per page.

Usage: python bench/bench_documents.py [--pages 300] [--doc-pages 4] [--spec test] [--rounds 3]
Verdicts follow bench/verdict.py: a measured figure beyond its margin exits 1; the modelled
figure is printed for the record and is not a CI gate.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.verdict import Verdicts  # noqa: E402
from engine.api import ChatRequest, DocumentRequest, LoadRequest  # noqa: E402
from engine.documents.cache import TextCache  # noqa: E402
from engine.documents.extract import read_document  # noqa: E402
from tests.support.document_samples import long_pdf  # noqa: E402
from engine.documents.summarize import DocumentSummarizer  # noqa: E402
from engine.demo.tiny_moe import write_tiny_moe  # noqa: E402
from engine.recipe import MemoryEstimate, Recipe  # noqa: E402
from engine.runtime.loader import load_with_fallback  # noqa: E402
from engine.runtime.generation.summary_model import LocalSummaryModel  # noqa: E402

EXTRACT_TARGET_S = 10.0           # information: the reference machine's budget
# The gate (issue 27: a ratio of one run): our extraction ÷ pypdf's on the same file; slower
# than the pure-Python reader would be a regression.
EXTRACT_RATIO_TARGET, EXTRACT_RATIO_FAIL = 0.5, 1.0
OVERHEAD_TARGET, OVERHEAD_FAIL = 1.3, 1.5     # ±15% is noise on a shared 2-core machine
REFERENCE_READ_TPS, REFERENCE_WRITE_TPS = 74.2, 21.06     # published, shared/seeds


def recipe(n_ctx: int, threads: int) -> Recipe:
    return Recipe(preset="bench", n_gpu_layers=0, cpu_expert_layers=(), n_ctx=n_ctx,
                  flash_attn=True, kv_type="f16", n_batch=512, n_ubatch=512, n_threads=threads,
                  n_threads_batch=threads, vram=MemoryEstimate(), ram=MemoryEstimate())


def bench_extraction(folder: pathlib.Path, pages: int, verdicts: Verdicts) -> None:
    import pypdf

    path = long_pdf(folder / "long.pdf", pages)
    started = time.perf_counter()
    document = read_document(path, cache=TextCache(folder / "cache-a"))
    ours = time.perf_counter() - started
    started = time.perf_counter()
    other = [page.extract_text() for page in pypdf.PdfReader(str(path)).pages]
    theirs = time.perf_counter() - started
    print(f"extraction: {pages} pages, {document.words:,} words, {path.stat().st_size / 2**20:.1f} MB: "
          f"pypdfium2 {ours:.2f} s, pypdf {theirs:.2f} s (pypdf/pypdfium2 {theirs / ours:.1f}x)")
    assert document.page_count == pages and len(other) == pages
    started = time.perf_counter()
    read_document(path, cache=TextCache(folder / "cache-a"))
    print(f"extraction again, from the cache: {time.perf_counter() - started:.2f} s")
    verdicts.info(f"text extraction of a {pages}-page PDF (target {EXTRACT_TARGET_S:g} s)", ours,
                  " s")
    verdicts.check(f"text extraction of a {pages}-page PDF / pypdf's, same file", ours / theirs,
                   EXTRACT_RATIO_TARGET, EXTRACT_RATIO_FAIL, higher_is_better=False, unit="x",
                   kind="same-run ratio")


def bench_map_reduce(folder: pathlib.Path, doc_pages: int, spec: str, n_ctx: int, threads: int,
                     rounds: int, verdicts: Verdicts) -> None:
    model = write_tiny_moe(folder / f"{spec}.gguf", spec)
    path = long_pdf(folder / "doc.pdf", doc_pages)
    small = _load(model, n_ctx, threads)
    try:
        first = _map_reduce(small, path, folder)
        budget = first.plan.budget
        big = _load(model, first.plan.tokens + 2 * budget.part_overhead + budget.answer + 256, threads)
        try:
            ratios, runs = [], []
            for index in range(rounds):   # alternate the order so a slow moment hits both sides
                sides = [lambda: _map_reduce(small, path, folder), lambda: _one_pass(first, big)]
                done = [side() for side in (sides if index % 2 == 0 else sides[::-1])]
                summarizer, (one_pass, one_prompt) = done if index % 2 == 0 else done[::-1]
                mapped = sum(c.seconds for c in summarizer.calls)
                ratios.append(mapped / one_pass)
                runs.append((mapped, one_pass))
        finally:
            big.close()
    finally:
        small.close()
    _report(summarizer, one_prompt, ratios, runs, (spec, n_ctx, doc_pages), verdicts)


def _report(summarizer, one_prompt, ratios, runs, setup, verdicts: Verdicts) -> None:
    (spec, n_ctx, doc_pages), calls, plan = setup, summarizer.calls, summarizer.plan
    ratio = statistics.median(ratios)
    mapped, one_pass = runs[ratios.index(ratio)] if ratio in ratios else runs[0]
    print(f"map-reduce ({spec} fixture, context {n_ctx}): {doc_pages} pages, {plan.tokens:,} tokens, "
          f"{len(plan.parts)} parts, {len(calls)} calls, {mapped:.1f} s model time "
          f"({mapped / len(plan.parts):.2f} s per part); one pass of {one_prompt:,} tokens: "
          f"{one_pass:.1f} s")
    print(f"  ratio per round {', '.join(f'{r:.2f}' for r in ratios)}")
    verdicts.check("map-reduce model time / one pass (median)", ratio, OVERHEAD_TARGET,
                   OVERHEAD_FAIL, higher_is_better=False)
    read = sum(c.prompt_tokens for c in calls)
    written = sum(c.generated for c in calls)
    modelled = (read / REFERENCE_READ_TPS + written / REFERENCE_WRITE_TPS) / (
        one_prompt / REFERENCE_READ_TPS + plan.budget.answer / REFERENCE_WRITE_TPS)
    print(f"  tokens: map-reduce read {read:,} (after the prompt cache {sum(c.read_tokens for c in calls):,}),"
          f" wrote {written:,}; one pass reads {one_prompt:,}, writes up to {plan.budget.answer}")
    print(f"map-reduce / one pass for the reference setup (74.2/21.06 tokens/s, no prefix "
          f"reuse, this fixture's token counts): {modelled:.3f} [modelled]  target <= "
          f"{OVERHEAD_TARGET:g}, not a CI gate")


def _load(model: pathlib.Path, n_ctx: int, threads: int):
    return load_with_fallback(LoadRequest(str(model), recipe=recipe(n_ctx, threads)),
                              lambda *a: None, lambda r: None)


def _map_reduce(loaded, path: pathlib.Path, folder: pathlib.Path) -> DocumentSummarizer:
    summarizer = DocumentSummarizer(LocalSummaryModel(loaded),
                                    DocumentRequest(str(path), cache_dir=str(folder / "c")),
                                    lambda e: None, threading.Event())
    summarizer.run()
    return summarizer


def _one_pass(summarizer, big) -> tuple[float, int]:
    """Read the whole document in one context and write one answer of the same budget."""
    from engine.runtime.generation.generate import render_chat

    plan = summarizer.plan
    messages = summarizer.prompts.whole("\n\n".join(p.text for p in plan.parts))
    prompt = len(big.native.tokenize(render_chat(big.native, messages)))
    request = ChatRequest(messages=messages, max_tokens=plan.budget.answer, temperature=0.3,
                          record_routing=False)
    big.native.reuse_prefix([-1])               # start from an empty context each round
    started = time.perf_counter()
    run = big.start_chat(request, threading.Event())
    for _ in run.records():
        pass
    return time.perf_counter() - started, prompt


# ---- questions: recall@passages, citations, time to the first word, OCR ---------------------

RECALL_TARGET, RECALL_FAIL = 0.90, 0.80
FIRST_WORD_TARGET, FIRST_WORD_FAIL = 5.0, 4.0
OCR_TARGET, OCR_FAIL = 0.95, 0.90


def bench_questions(folder: pathlib.Path, threads: int, verdicts: Verdicts) -> None:
    from bench.document_questions import QUESTIONS, answered_by, write_fixture_set
    from engine.documents.citations import share_passing
    from engine.demo.demo_model import write_demo_model

    files = write_fixture_set(folder / "questions")
    index, shas = _indexed(folder, files)
    demo = _load(write_demo_model(folder / "demo.gguf"), 4096, threads)
    hits, checks, seconds = 0, [], []
    try:
        for question in QUESTIONS:
            started = time.perf_counter()
            answered, _ = _ask(LocalSummaryModel(demo), question.text, shas, index, max_tokens=8)
            seconds.append(time.perf_counter() - started)
            hits += answered_by(answered.passages, question)
            checks += answered.checks
    finally:
        demo.close()
    recall = hits / len(QUESTIONS)
    print(f"questions: {len(QUESTIONS)} over {len(files)} documents (demo tokenizer, context "
          f"4,096): answer page among the passages for {hits}; "
          f"{statistics.median(seconds):.2f} s a question (median, 8 answer tokens)")
    verdicts.check("recall@passages on the 30-question fixture set", recall, RECALL_TARGET,
                   RECALL_FAIL)
    passed, checked = share_passing(checks)
    share = f"{passed / checked:.0%}" if checked else "n/a"
    print(f"page references in the demo model's answers: {len(checks)} written, {checked} with "
          f"key terms to check, {passed} found on their page ({share}); the demo writes one "
          f"fixed message, so this is reported, not judged")
    _hand_written_check(index, shas)


def _hand_written_check(index: str, shas) -> None:
    """The unit test's case, run here too so that the figure sits beside the others."""
    from engine.documents.citations import share_passing
    from tests.scripted_model import ScriptedModel

    answer = ("The travel budget for 2026 is 48,250 EUR [annual-report.pdf, p. 4]. The Kyocera "
              "contract ends on 30 June 2027 [supplier-contracts.pdf, p. 9]. Holidays are 28 days "
              "a year [staff-handbook.pdf, p. 15]. Expense claims above 500 EUR need Ines Roth "
              "[staff-handbook.pdf, p. 33].")
    answered, _ = _ask(ScriptedModel([answer]), "Budget, printers, holidays, expenses?", shas,
                       index)
    flagged = [c.marker for c in answered.checks if c.failed]
    passed, checked = share_passing(answered.checks)
    print(f"hand-written answer with 2 wrong references of 4: {passed} of {checked} pass, "
          f"flagged {flagged}")
    assert flagged == ["[supplier-contracts.pdf, p. 9]", "[staff-handbook.pdf, p. 33]"], flagged


def _indexed(folder: pathlib.Path, files) -> tuple[str, tuple[str, ...]]:
    from engine.documents.index import PassageIndex

    index, shas = str(folder / "index.sqlite"), []
    with PassageIndex(index) as passages:
        for path in files:
            document = read_document(path, cache=TextCache(folder / "cache-q"))
            passages.add(document)
            shas.append(document.sha256)
    return index, tuple(shas)


def _ask(model, question: str, shas, index: str, max_tokens: int = 64, stamps=None):
    from engine.api import ChatMessage, ChatRequest, DocumentScope, StepRecord
    from engine.documents.ask import QuestionAnswerer

    events = []

    def emit(event) -> None:
        if stamps is not None and isinstance(event, StepRecord) and "first" not in stamps:
            stamps["first"] = time.perf_counter()
        events.append(event)
    request = ChatRequest((ChatMessage("user", question),), max_tokens=max_tokens,
                          temperature=0.0, documents=DocumentScope(tuple(shas), index))
    return QuestionAnswerer(model, request, emit, threading.Event()).run(), events


def bench_first_word(folder: pathlib.Path, spec: str, threads: int, verdicts: Verdicts) -> None:
    from engine.api import ChatMessage
    from tests.support.document_samples import write_pdf

    pages = [[f"Page {n}", *wrap_words(n)] for n in range(1, 41)]
    pages[26].append("The bicycle allowance is 0.30 EUR per kilometre ridden to work.")
    path = write_pdf(folder / "handbook-40.pdf", pages)
    index, shas = _indexed(folder, [path])
    model = write_tiny_moe(folder / f"{spec}-first.gguf", spec)
    document = read_document(path, cache=TextCache(folder / "cache-q"))
    small = _load(model, 1024, threads)
    try:
        whole_tokens = len(small.native.tokenize(document.text, special=False))
        stamps = {}
        started = time.perf_counter()
        answered, events = _ask(LocalSummaryModel(small), "How much is the bicycle allowance?",
                                shas, index, max_tokens=4, stamps=stamps)
        retrieval = stamps["first"] - started
        read = next(e.prompt_tokens for e in events if hasattr(e, "prompt_tokens"))
    finally:
        small.close()
    big = _load(model, whole_tokens + 512, threads)
    try:
        messages = (ChatMessage("user", f"{document.text}\n\nHow much is the bicycle allowance?"),)
        request = ChatRequest(messages=messages, max_tokens=4, temperature=0.0,
                              record_routing=False)
        started = time.perf_counter()
        run = big.start_chat(request, threading.Event())
        next(iter(run.records()))
        one_pass = time.perf_counter() - started
    finally:
        big.close()
    print(f"first answer word, 40-page PDF ({whole_tokens:,} tokens, {spec} fixture): retrieval "
          f"in a 1,024 context read {read:,} prompt tokens in {retrieval:.2f} s; one pass over "
          f"the whole document {one_pass:.2f} s")
    verdicts.check("time to first word: one pass / retrieval", one_pass / retrieval,
                   FIRST_WORD_TARGET, FIRST_WORD_FAIL, unit="x")
    print(f"  the same token counts read at the reference setup's published 74.2 tokens/s: "
          f"{whole_tokens / REFERENCE_READ_TPS:.0f} s against {read / REFERENCE_READ_TPS:.0f} s "
          f"({whole_tokens / read:.1f}x) [modelled, linear in tokens; not a CI gate]")


def wrap_words(seed: int) -> list[str]:
    from tests.support.document_samples import filler_paragraph, wrap

    return wrap(filler_paragraph(seed, words=45))


OCR_PAGES = {
    "English": ("eng", None, ["Travel costs are refunded within 30 days of the claim.",
                              "The budget for 2024 is 48,250 EUR, approved on 12 March.",
                              "Maria Lopez leads the printer contract review in Lyon."]),
    "Korean": ("kor", "cjk", ["출장비는 청구 후 30일 이내에 환급됩니다.",
                             "2024년 예산은 48,250유로이며 3월 12일에 승인되었습니다.",
                             "김민수 팀장이 프린터 계약 검토를 맡습니다."]),
    "Chinese": ("chi_sim", "cjk", ["差旅费在报销申请后三十天内退还。",
                                   "二〇二四年预算为48,250欧元，于3月12日批准。",
                                   "王丽负责审查打印机合同。"]),
}


def bench_ocr(folder: pathlib.Path, verdicts: Verdicts) -> None:
    from engine.documents import ocr
    from tests.support.document_samples import cjk_font, write_scanned_pdf

    if not ocr.available():
        print("OCR: not measured: Tesseract (tesserocr) or its English data is not installed")
        verdicts.check("OCR characters right, English", 0.0, OCR_TARGET, OCR_FAIL)
        return
    languages = ocr.installed_languages()
    for name, (code, needs, lines) in OCR_PAGES.items():
        font = cjk_font() if needs else None
        if code not in languages or (needs and font is None):
            print(f"OCR {name}: not measured: no {code} data or no font to draw the page "
                  "(apt install tesseract-ocr-kor tesseract-ocr-chi-sim fonts-wqy-microhei)")
            continue
        path = write_scanned_pdf(folder / f"scan-{code}.pdf", [lines], font)
        started = time.perf_counter()
        document = read_document(path, cache=TextCache(folder / f"cache-ocr-{code}"))
        seconds = time.perf_counter() - started
        right = characters_right(" ".join(lines), document.text)
        print(f"OCR {name}: {right:.1%} characters right, {seconds:.2f} s a page (a 200 dpi "
              f"letter page read through read_document; Tesseract '{code}' data from "
              f"{languages[code]})")
        if code == "eng":
            verdicts.check("OCR characters right, English", right, OCR_TARGET, OCR_FAIL)


def characters_right(truth: str, read: str) -> float:
    """1 - edit distance / length, spaces ignored (Tesseract's spacing of CJK varies)."""
    import unicodedata

    def plain(text: str) -> str:
        return "".join(c for c in unicodedata.normalize("NFKC", text) if not c.isspace())
    truth, read = plain(truth), plain(read)
    previous = list(range(len(read) + 1))
    for i, a in enumerate(truth, 1):
        current = [i]
        for j, b in enumerate(read, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a != b)))
        previous = current
    return max(0.0, 1 - previous[-1] / len(truth))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--doc-pages", type=int, default=4)
    parser.add_argument("--spec", default="test")
    parser.add_argument("--n-ctx", type=int, default=4096)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=("extraction", "map-reduce", "questions", "first-word",
                                           "ocr"), action="append")
    args = parser.parse_args()
    verdicts = Verdicts()
    wanted = set(args.only or ("extraction", "map-reduce", "questions", "first-word", "ocr"))
    with tempfile.TemporaryDirectory() as folder:
        folder = pathlib.Path(folder)
        if "extraction" in wanted:
            bench_extraction(folder, args.pages, verdicts)
        if "map-reduce" in wanted:
            bench_map_reduce(folder, args.doc_pages, args.spec, args.n_ctx, args.threads,
                             args.rounds, verdicts)
        if "questions" in wanted:
            bench_questions(folder, args.threads, verdicts)
        if "first-word" in wanted:
            bench_first_word(folder, args.spec, args.threads, verdicts)
        if "ocr" in wanted:
            bench_ocr(folder, verdicts)
    return verdicts.exit_code()


if __name__ == "__main__":
    sys.exit(main())
