"""Questions about documents: the passage index, the context filled with the model's tokenizer,
page references checked, several documents at once, and ``python -m engine ask``."""

from __future__ import annotations

import json
import sqlite3
import threading

import pytest

from engine.api import (ChatMessage, ChatRequest, DocumentAnswered, DocumentProgress,
                        DocumentScope, LoadRequest, PassagesChosen, RequestFinished, StepRecord)
from engine.documents import citations
from engine.documents.ask import QuestionAnswerer, wants_whole
from engine.documents.cache import TextCache
from engine.documents.extract import read_document
from engine.documents.index import PassageIndex, query_terms
from tests.support.document_samples import filler_paragraph, wrap, write_docx, write_pdf
from engine.documents.types import Document, Section
from engine.messages import msg
from engine.recipe import MemoryEstimate, Recipe
from engine.runtime.loader import load_with_fallback
from engine.runtime.generation.summary_model import LocalSummaryModel
from tests.scripted_model import ScriptedModel

FACT_PAGES = {3: "The travel budget for 2026 is 48,250 EUR, approved by Maria Lopez.",
              7: "The printer contract with Kyocera ends on 30 June 2027.",
              11: "Invoices above 5,000 EUR need a second signature from Jonas Berg."}


def report_pdf(path, pages=12):
    lines = []
    for number in range(1, pages + 1):
        page = [f"Page {number}"] + wrap(filler_paragraph(number * 17))
        if number in FACT_PAGES:
            page += wrap(FACT_PAGES[number])
        lines.append(page)
    return write_pdf(path, lines)


def indexed(tmp_path, *paths):
    index_path = tmp_path / "index.sqlite"
    shas = []
    with PassageIndex(index_path) as index:
        for path in paths:
            document = read_document(path, cache=TextCache(tmp_path / "cache"))
            index.add(document)
            shas.append(document.sha256)
    return str(index_path), tuple(shas)


def ask(model, index_path, shas, question, **fields):
    events = []
    request = ChatRequest((ChatMessage("user", question),), temperature=0.3, conversation_id=5,
                          documents=DocumentScope(shas, index_path), **fields)
    answered = QuestionAnswerer(model, request, events.append, threading.Event()).run()
    return answered, events


# ---- the index: English, Korean and Chinese found ---------------------------------------------

def test_bm25_ranks_the_page_with_the_fact_first(tmp_path):
    index_path, shas = indexed(tmp_path, report_pdf(tmp_path / "report.pdf"))
    with PassageIndex(index_path) as index:
        for page, question in ((3, "What is the travel budget for 2026?"),
                               (7, "When does the Kyocera printer contract end?"),
                               (11, "Who signs invoices above 5,000 EUR?")):
            best, _ = index.search(question, shas)[0]
            assert best.page == page, question


def test_korean_and_chinese_two_character_words_are_found(tmp_path):
    document = Document("x", "memo.txt", "text", "k1", (
        Section("lines 1–2", "출장비는 청구 후 30일 이내에 환급됩니다."),
        Section("lines 3–4", "2024년 예산은 48,250유로이며 3월 12일에 승인되었습니다."),
        Section("lines 5–6", "差旅费在报销申请后三十天内退还。"),
        Section("lines 7–8", "二〇二四年预算为48,250欧元。")))
    with PassageIndex(tmp_path / "i.sqlite") as index:
        index.add(document)
        assert index.search("예산은 얼마입니까?", ["k1"])[0][0].label == "lines 3–4"
        assert index.search("환급", ["k1"])[0][0].label == "lines 1–2"
        assert index.search("预算是多少", ["k1"])[0][0].label == "lines 7–8"
        assert index.search("差旅费", ["k1"])[0][0].label == "lines 5–6"
    # SQLite's trigram tokenizer could not have matched these two-character words.
    assert all(len(term) == 2 for term in query_terms("예산 预算"))


def test_a_document_is_indexed_once_and_forgotten_when_no_conversation_holds_it(tmp_path):
    path = report_pdf(tmp_path / "report.pdf", pages=3)
    index_path, (sha,) = indexed(tmp_path, path)
    with PassageIndex(index_path) as index:
        assert not index.add(read_document(path, cache=TextCache(tmp_path / "cache")))
        assert index.keep_only({"other"}) == 1 and index.documents([sha]) == []


def test_passages_kept_in_another_file_move_into_the_index_once(tmp_path):
    """Earlier versions indexed into the app's history database: its passages move to the
    index's own file, the history's own tables stay, and a second start finds nothing to move."""
    old = tmp_path / "history.db"
    with sqlite3.connect(old) as db:
        db.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, content TEXT)")
        db.execute("INSERT INTO messages (content) VALUES ('kept')")
    report = read_document(report_pdf(tmp_path / "report.pdf", pages=12),
                           cache=TextCache(tmp_path / "cache"))
    memo = Document("x", "memo.txt", "text", "k1", (Section("lines 1–2", "예산은 48,250유로"),))
    with PassageIndex(old) as index:
        index.add(report)
        index.add(memo)
    with PassageIndex(tmp_path / "passages.db") as index:
        index.add(memo)                                  # already here: not copied twice
        assert index.take_over(old) == 1
        assert [d.name for d in index.documents([report.sha256, "k1"])] == ["report.pdf",
                                                                            "memo.txt"]
        assert index.search("When does the Kyocera printer contract end?",
                            [report.sha256])[0][0].page == 7
        assert len(index.passages(["k1"])) == 1
        assert index.take_over(old) == 0 and index.take_over(tmp_path / "none.db") == 0
    with sqlite3.connect(old) as db:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
        assert "messages" in tables and not any(t.startswith("doc_index") for t in tables)
        assert db.execute("SELECT content FROM messages").fetchall() == [("kept",)]


# ---- page references checked: hand-written answers, some references wrong -----------------------

def test_hand_written_answers_with_wrong_references_are_flagged(tmp_path):
    index_path, shas = indexed(tmp_path, report_pdf(tmp_path / "report.pdf"))
    answer = ("The travel budget for 2026 is 48,250 EUR [p. 3]. Maria Lopez approved it [p. 3]. "
              "The Kyocera contract ends on 30 June 2027 [p. 11]. Invoices above 5,000 EUR need "
              "a second signature [p. 11]. The budget was cut to 12,000 EUR [p. 3]. "
              "It is a plain office [p. 2]. See the annex [p. 99].")
    model = ScriptedModel([answer])
    answered, _ = ask(model, index_path, shas, "What does the report say about money?")
    status = [(c.marker, c.status) for c in answered.checks]
    assert status == [("[p. 3]", "found"), ("[p. 3]", "found"), ("[p. 11]", "not_found"),
                      ("[p. 11]", "found"), ("[p. 3]", "not_found"), ("[p. 2]", "unchecked"),
                      ("[p. 99]", "no_page")]
    wrong = answered.checks[2]
    assert set(wrong.missing) == {"Kyocera", "30", "June", "2027"}
    assert citations.share_passing(answered.checks) == (3, 6)
    marked = answered.marked()
    assert "30 June 2027 [p. 11] *(not found on p. 11)*." in marked
    assert "12,000 EUR [p. 3] *(not found on p. 3)*." in marked
    # A page the document does not have is said so, not "not found" on it (found by hand).
    assert "[p. 99] *(the document has no p. 99)*" in marked
    assert marked.count("not found") == 2 and "[p. 2] *(" not in marked   # none dropped


def test_references_in_other_forms_are_checked_too():
    pages = {4: "Deadline: 15 May 2026 for the Lyon office.", 5: "Nothing about dates."}

    def page_text(name, ref):
        texts = [pages.get(p) for p in ref.pages]
        return None if all(t is None for t in texts) else "\n".join(t or "" for t in texts)
    answer = ("Lyon must report by 15 May 2026 [page 4]. 리옹은 2026년 5월 15일까지 [4쪽]. "
              "里昂截止2026年5月15日[第5页]. The Lyon office again [pp. 4–5]. "
              "A link [text](http://x) [1].")
    checks = citations.check_answer(answer, ["plan.pdf"], page_text)
    assert [(c.marker, c.status) for c in checks] == [
        ("[page 4]", "found"), ("[4쪽]", "found"), ("[第5页]", "not_found"), ("[pp. 4–5]", "found")]


# ---- answering: the passages that fit, counted with the model's tokenizer ---------------------

@pytest.fixture(scope="module")
def tiny(tiny_moe_path):
    recipe = Recipe(preset="test", n_gpu_layers=0, cpu_expert_layers=(), n_ctx=1024,
                    flash_attn=True, kv_type="f16", n_batch=512, n_ubatch=512, n_threads=1,
                    n_threads_batch=1, vram=MemoryEstimate(), ram=MemoryEstimate())
    model = load_with_fallback(LoadRequest(str(tiny_moe_path), recipe=recipe),
                               lambda *a: None, lambda r: None)
    yield model
    model.close()


def test_passages_fill_the_context_counted_with_the_models_tokenizer(tiny, tmp_path):
    index_path, shas = indexed(tmp_path, report_pdf(tmp_path / "report.pdf"))
    answered, events = ask(LocalSummaryModel(tiny), index_path, shas,
                           "Who signs invoices above 5,000 EUR?", max_tokens=16)
    chosen = next(e for e in events if isinstance(e, PassagesChosen))
    assert not chosen.whole and 11 in [p.page for p in chosen.passages]   # the fact's page
    assert all(p.tokens == len(tiny.native.tokenize(f"[p. {p.page}]\n", special=False)) - 1
               or p.tokens > 10 for p in chosen.passages)
    steps = [e for e in events if isinstance(e, StepRecord)]
    assert steps and steps[-1].prompt_tokens + 16 <= 1024            # the prompt fit
    assert steps[-1].prompt_tokens > 1024 * 0.5                       # and was filled
    assert isinstance(events[-1], RequestFinished) and events[-1].document == answered
    assert not [e for e in events if isinstance(e, DocumentAnswered)]     # only in the finish
    assert events[-1].conversation_id == 5 and answered.mode == "passages"


def test_a_document_that_fits_is_read_whole_for_any_question(tmp_path):
    index_path, shas = indexed(tmp_path, report_pdf(tmp_path / "report.pdf", pages=3))
    model = ScriptedModel(["Fine."])
    _, events = ask(model, index_path, shas, "Anything about printers?")
    chosen = next(e for e in events if isinstance(e, PassagesChosen))
    assert chosen.whole and [p.page for p in chosen.passages] == [1, 2, 3]
    assert str(chosen.read) == "Read for this answer: report.pdf (all of it)."
    prompt = model.requests[-1].messages[-1].content
    assert prompt.index("[p. 1]") < prompt.index("[p. 2]") < prompt.index("[p. 3]")


def test_several_documents_are_searched_and_cited_by_name(tmp_path):
    pdf = report_pdf(tmp_path / "report.pdf")
    docx = write_docx(tmp_path / "plan.docx", [("Travel", ["Trains are booked by Petra Novak."]),
                                                ("Printers", ["Toner comes every 14 days."])])
    index_path, shas = indexed(tmp_path, pdf, docx)
    answer = ("Petra Novak books trains [plan.docx, section 'Travel']. Toner comes every 14 "
              "days [plan.docx, section 'Travel']. The budget is 48,250 EUR [report.pdf, p. 3].")
    model = ScriptedModel([answer], context_size=600)
    answered, events = ask(model, index_path, shas, "Who books trains and what is the budget?")
    chosen = next(e for e in events if isinstance(e, PassagesChosen))
    assert {p.document for p in chosen.passages} == {"report.pdf", "plan.docx"}
    assert "[plan.docx, section 'Travel']" in model.requests[-1].messages[-1].content
    assert [c.status for c in answered.checks] == ["found", "not_found", "found"]
    assert str(answered.checks[1].where) == "plan.docx, section “Travel”"
    assert "*(not found on plan.docx, section “Travel”)*" in answered.marked()


def test_a_whole_document_question_that_does_not_fit_is_read_in_parts(tmp_path):
    index_path, shas = indexed(tmp_path, report_pdf(tmp_path / "report.pdf", pages=20))
    final = "Deadlines: 30 June 2027 [page 7]."
    model = ScriptedModel(context_size=700, answer_for=lambda request: final if "final answer"
                          in request.messages[-1].content else "A note [page 1].")
    assert wants_whole("List every deadline") and not wants_whole("Who signs invoices?")
    answered, events = ask(model, index_path, shas, "List every deadline")
    assert answered.mode == "whole"
    reading = [e for e in events if isinstance(e, DocumentProgress) and e.phase == "reading"]
    assert len({e.part for e in reading}) > 1                        # in parts
    words = "".join(e.text for e in events if isinstance(e, StepRecord))
    assert words == "Deadlines: 30 June 2027 [page 7]."               # notes are not shown
    assert [c.status for c in answered.checks] == ["found"]
    assert str(answered.read).startswith("Read all of it for this answer (report.pdf), in ")


def test_a_missing_document_is_a_plain_error(tmp_path):
    from engine.errors import DocumentError
    with pytest.raises(DocumentError, match="Attach it again"):
        ask(ScriptedModel(), str(tmp_path / "i.sqlite"), ("0" * 64,), "Anything?")
    with pytest.raises(DocumentError, match="no documents"):
        ask(ScriptedModel(), str(tmp_path / "i.sqlite"), (), "Anything?")


# ---- what a user reads about a plain text file ---------------------------------------------------

def test_a_text_file_counts_its_lines_not_blocks_of_sixty(tmp_path):
    from engine.documents.report import found_msg
    path = tmp_path / "minutes.txt"
    path.write_text("\n".join(f"Line {n} of the minutes." for n in range(1, 641)) + "\n",
                    encoding="utf-8")
    document = read_document(path, cache=TextCache(tmp_path / "cache"))
    assert len(document.sections) == 11 and document.lines == 640     # blocks stay internal
    said = str(found_msg(document.kind, 0, len(document.sections), document.lines,
                         document.words))
    assert said == "640 lines, about 3,200 words"                     # was "11 sections"


def test_english_errors_say_pictures_not_text_layer(tmp_path):
    from engine.messages import CATALOGUE
    documents = [t for code, t in CATALOGUE.items() if code.startswith("documents.")]
    assert not [t for t in documents if "text layer" in t]
    assert "pictures" in str(msg("documents.pictures_only"))


# ---- the command line ---------------------------------------------------------------------------

def test_engine_ask_prints_passages_and_the_check_as_json(tiny_moe_path, tmp_path, capsys,
                                                          monkeypatch):
    from engine.__main__ import main
    monkeypatch.setenv("ROTARY_HOME", str(tmp_path / "home"))
    pdf = report_pdf(tmp_path / "report.pdf", pages=4)
    memo = tmp_path / "memo.md"
    memo.write_text("# Travel\nTrains are booked by Petra Novak.\n", encoding="utf-8")
    assert main(["ask", str(pdf), str(memo), "--question", "Who books trains?", "--model",
                 str(tiny_moe_path), "--max-tokens", "8", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["question"] == "Who books trains?" and out["mode"] == "passages"
    assert {p["document"] for p in out["passages"]} == {"report.pdf", "memo.md"}
    assert out["read"].startswith("Read for this answer: ")
    assert set(out["citations"]) == {"passed", "checked", "total", "checks"}
    assert (tmp_path / "home" / "data" / "documents" / "index.sqlite").is_file()


def test_references_are_checked_when_the_answer_is_stopped_for_repeating(tmp_path):
    """An answer stopped for repeating cited pages 21–78 of a 20-page PDF with no
    mark (the loop ended it as an error, before the check). Now it ends with the repeated
    line once, and its reference to a page the document does not have is marked."""
    from tests.support.reply_models import write_reply_model
    recipe = Recipe(preset="test", n_gpu_layers=0, cpu_expert_layers=(), n_ctx=4096,
                    flash_attn=True, kv_type="f16", n_batch=512, n_ubatch=512, n_threads=1,
                    n_threads_batch=1, vram=MemoryEstimate(), ram=MemoryEstimate())
    model = load_with_fallback(LoadRequest(str(write_reply_model("cite_loop", tmp_path)),
                                           recipe=recipe), lambda *a: None, lambda r: None)
    index_path, shas = indexed(tmp_path, report_pdf(tmp_path / "report.pdf"))
    try:
        answered, events = ask(LocalSummaryModel(model), index_path, shas,
                               "What is the travel budget for 2026?", max_tokens=400)
    finally:
        model.close()
    finished = next(e for e in events if isinstance(e, RequestFinished))
    assert finished.stats.stop_reason == "loop" and finished.document is answered
    assert answered.text == "The travel budget for 2026 is 48,250 EUR [p. 21]"
    assert [(c.marker, c.status) for c in answered.checks] == [("[p. 21]", "no_page")]
    assert "[p. 21] *(the document has no p. 21)*" in answered.marked()


def test_a_page_range_that_runs_past_the_document_is_marked(tmp_path):
    index_path, shas = indexed(tmp_path, report_pdf(tmp_path / "report.pdf"))
    model = ScriptedModel(["The travel budget for 2026 is 48,250 EUR [pp. 3–14]. "
                           "It is 48,250 EUR [pp. 2–3]."])
    answered, _ = ask(model, index_path, shas, "What is the travel budget?")
    assert [(c.marker, c.status) for c in answered.checks] == [
        ("[pp. 3–14]", "no_page"), ("[pp. 2–3]", "found")]
