"""``python -m engine summarize FILE --model MODEL [--preset short] [--json]``, or with
``--server URL [--model NAME]`` the office server's model reads it (engine.remote.documents).

``python -m engine ask FILE… --question "…" --model MODEL [--json]``: the files are read (pictures
of pages by text recognition), indexed beside the text cache (or in ``--index``), and the
question is answered from their passages with every page reference checked.

Progress goes to stderr; Ctrl+C stops between tokens and prints the partial result.
Errors print one plain sentence and exit with status 2 (engine/cli/main.py).
"""

from __future__ import annotations

import dataclasses
import json
import sys
import threading

from engine.api import (ChatMessage, ChatRequest, DocumentAnswered, DocumentFinished,
                        DocumentInspected, DocumentProgress, DocumentRequest, DocumentScope,
                        LoadRequest, PassagesChosen, StepRecord)
from engine.documents.presets import SUMMARY_PRESETS
from engine.documents.report import found_msg, pages_note
from engine.errors import EngineError
from engine.messages import Msg, msg

QUESTION_TEMPERATURE = 0.3     # an answer from passages keeps close to their words


def add_summarize_parser(sub) -> None:
    command = sub.add_parser("summarize", help="summarise a PDF, Word, text or Markdown file")
    command.add_argument("file")
    command.add_argument("--model", help="a GGUF file, or with --server the server's model name")
    command.add_argument("--server", help="an office server's address (OpenAI-compatible)")
    command.add_argument("--api-key-env", help="environment variable holding the server's key")
    command.add_argument("--ca-bundle", help="the office's certificate authority (PEM file)")
    command.add_argument("--preset", default="short", choices=sorted(SUMMARY_PRESETS))
    command.add_argument("--language", default="English")
    command.add_argument("--question", default="", help="what to look for, in your own words")
    command.add_argument("--machine", help="planner preset for loading (default: this computer)")
    command.add_argument("--inspect", action="store_true", help="only say what was found")
    command.add_argument("--json", action="store_true")


def add_ask_parser(sub) -> None:
    command = sub.add_parser("ask", help="answer a question from PDF, Word, text or Markdown files")
    command.add_argument("files", nargs="+")
    command.add_argument("--question", required=True)
    command.add_argument("--model", help="a GGUF file, or with --server the server's model name")
    command.add_argument("--server", help="an office server's address (OpenAI-compatible)")
    command.add_argument("--api-key-env", help="environment variable holding the server's key")
    command.add_argument("--ca-bundle", help="the office's certificate authority (PEM file)")
    command.add_argument("--language", default="English")
    command.add_argument("--index", help="the passage index (SQLite; default: beside the text cache)")
    command.add_argument("--max-tokens", type=int, default=1024)
    command.add_argument("--machine", help="planner preset for loading (default: this computer)")
    command.add_argument("--json", action="store_true")


def _open_model(args):
    """(the model the summariser talks to, how to close it)."""
    if args.server:
        from engine.cli.remote import config_from_args
        from engine.remote.client import ServerClient
        from engine.remote.documents import RemoteSummaryModel
        from engine.remote.service import connect

        args.server_model = args.model      # the name config_from_args (chat's) reads
        client = ServerClient(config_from_args(args))
        try:
            return RemoteSummaryModel(client, connect(client, args.model or "")), client.close
        except BaseException:
            client.close()
            raise
    if not args.model:
        raise EngineError(msg("engine.name_a_model_option"))
    from engine.runtime.loader import load_with_fallback
    from engine.runtime.generation.summary_model import LocalSummaryModel

    loaded = load_with_fallback(LoadRequest(model_path=args.model, preset=args.machine,
                                            record_routing=False), lambda f, m: None,
                                lambda r: print(f"[{r.note}]", file=sys.stderr))
    return LocalSummaryModel(loaded), loaded.close


def cmd_ask(args) -> int:
    from engine.documents.ask import QuestionAnswerer
    from engine.documents.cache import default_cache_dir

    index = args.index or str(default_cache_dir() / "index.sqlite")
    model, close = _open_model(args)
    stop = threading.Event()
    try:
        shas = [_read_and_index(model, path, index, stop) for path in args.files]
        scope = DocumentScope(tuple(dict.fromkeys(shas)), index, language=args.language)
        request = ChatRequest((ChatMessage("user", args.question),), max_tokens=args.max_tokens,
                              temperature=QUESTION_TEMPERATURE, documents=scope)
        answerer = QuestionAnswerer(model, request, _ask_printer(args.json), stop)
        answered = _on_engine_thread(answerer.run, stop)
    finally:
        close()
    if answered is not None and args.json:
        print(json.dumps(_answer_json(args.question, answered), indent=2, ensure_ascii=False))
    elif answered is not None:
        print(f"\n\n{answered.read}\n{_check_line(answered)}", file=sys.stderr)
    return 0


def _read_and_index(model, path: str, index: str, stop: threading.Event) -> str:
    """Read one file (with text recognition where needed) and add it to the index."""
    from engine.documents.summarize import DocumentSummarizer

    request = DocumentRequest(path, inspect_only=True, index_path=index)
    summarizer = DocumentSummarizer(model, request, _printer(), stop)
    document = summarizer.read()
    found = found_msg(document.kind, document.page_count, len(document.sections),
                      document.lines, document.words)
    notes = " ".join(str(m) for m in pages_note(document, skipped="documents.skipped"))
    print(f"\r{document.name}: {found}. {notes}".rstrip(), file=sys.stderr)
    return document.sha256


def _on_engine_thread(work, stop: threading.Event):
    """``work()`` on a thread of its own, as in the app, so that Ctrl+C stops it between
    tokens (``stop``); returns its result or raises its error here."""
    outcome: dict = {}

    def run() -> None:
        try:
            outcome["result"] = work()
        except Exception as error:  # noqa: BLE001 - handed to the main thread, which reports it
            outcome["error"] = error

    worker = threading.Thread(target=run, name="rotary-engine")
    worker.start()
    try:
        while worker.is_alive():
            worker.join(0.2)
    except KeyboardInterrupt:
        stop.set()
        worker.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("result")


def _ask_printer(quiet: bool):
    def emit(event) -> None:
        if isinstance(event, PassagesChosen):
            print(event.read, file=sys.stderr)
        elif isinstance(event, StepRecord) and not quiet:
            print(event.text, end="", flush=True)
        elif isinstance(event, DocumentProgress):
            _printer()(event)
    return emit


def _check_line(answered: DocumentAnswered) -> str:
    from engine.documents.citations import share_passing

    passed, checked = share_passing(answered.checks)
    failed = [f"{c.marker} not found on {c.where} (missing: {', '.join(c.missing) or 'the page'})"
              for c in answered.checks if c.failed]
    line = f"Page references: {passed} of {checked} checked were found on their pages"
    line += f", {len(answered.checks) - checked} had nothing to check."
    return "\n".join([line, *failed])


def _answer_json(question: str, answered: DocumentAnswered) -> dict:
    from engine.documents.citations import share_passing

    passed, checked = share_passing(answered.checks)
    return {
        "question": question, "mode": answered.mode, "read": str(answered.read),
        "passages": [plain(p) for p in answered.passages],
        "answer": answered.text, "marked": answered.marked(),
        "citations": {"passed": passed, "checked": checked, "total": len(answered.checks),
                      "checks": [{"marker": c.marker, "document": c.document,
                                  "where": str(c.where), "status": c.status,
                                  "terms": list(c.terms), "missing": list(c.missing)}
                                 for c in answered.checks]},
    }


def cmd_summarize(args) -> int:
    from engine.documents.summarize import DocumentSummarizer

    model, close = _open_model(args)
    request = DocumentRequest(args.file, preset=args.preset, language=args.language,
                              question=args.question, inspect_only=args.inspect)
    stop = threading.Event()
    summarizer = DocumentSummarizer(model, request, _printer(), stop)
    try:
        summary = _on_engine_thread(summarizer.run, stop)
    finally:
        close()
    if args.json:
        print(json.dumps(_json(summarizer, summary), indent=2, ensure_ascii=False))
    elif summary is not None:
        print(summary.text)
    return 0


def _printer():
    def emit(event) -> None:
        if isinstance(event, DocumentInspected):
            print(" ".join(str(m) for m in (event.overview.message, *event.overview.notes)),
                  file=sys.stderr)
        elif isinstance(event, DocumentProgress):
            left = f" {event.left}" if event.left else ""
            print(f"\r{event.message}{left}    ", end="", file=sys.stderr, flush=True)
        elif isinstance(event, DocumentFinished):
            print(file=sys.stderr)
    return emit


def _json(summarizer, summary) -> dict:
    plan = getattr(summarizer, "plan", None)
    document = plan.document if plan else None
    return {
        "file": summarizer.request.path,
        "overview": plain(summarizer.overview) if plan else None,
        "found": [{"label": s.label, "page": s.page, "words": len(s.text.split())}
                  for s in document.sections] if document else [],
        "parts": [{"index": p.index, "label": p.label, "pages": list(p.pages), "tokens": p.tokens}
                  for p in plan.parts] if plan else [],
        "calls": [dataclasses.asdict(c) for c in summarizer.calls],
        "summary": plain(summary) if summary else None,
    }


def plain(value):
    """A result as JSON data, its messages as English sentences."""
    if isinstance(value, Msg):
        return str(value)
    if dataclasses.is_dataclass(value):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value
