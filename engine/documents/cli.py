"""``python -m engine summarize FILE --model MODEL [--preset short] [--json]``, or with
``--server URL [--model NAME]`` the office server's model reads it (engine.remote.documents).

Progress goes to stderr; Ctrl+C stops between tokens and prints the partial result.
Errors print one plain sentence and exit with status 2 (engine/__main__.py).
"""

from __future__ import annotations

import dataclasses
import json
import sys
import threading

from engine.api import DocumentFinished, DocumentInspected, DocumentProgress, DocumentRequest
from engine.documents.presets import SUMMARY_PRESETS
from engine.documents.report import duration_text


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


def _open_model(args):
    """(the model the summariser talks to, how to close it)."""
    from engine.api import LoadRequest  # noqa: PLC0415
    from engine.errors import EngineError  # noqa: PLC0415

    if args.server:
        from engine.remote.cli import config_from_args  # noqa: PLC0415
        from engine.remote.client import ServerClient  # noqa: PLC0415
        from engine.remote.documents import RemoteSummaryModel  # noqa: PLC0415
        from engine.remote.service import connect  # noqa: PLC0415

        args.server_model = args.model      # the name config_from_args (chat's) reads
        client = ServerClient(config_from_args(args))
        try:
            return RemoteSummaryModel(client, connect(client, args.model or "")), client.close
        except BaseException:
            client.close()
            raise
    if not args.model:
        raise EngineError("Name a model file with --model, or an office server with --server URL.")
    from engine.runtime.loader import load_with_fallback  # noqa: PLC0415

    loaded = load_with_fallback(LoadRequest(model_path=args.model, preset=args.machine,
                                            record_routing=False), lambda f, m: None,
                                lambda r: print(f"[{r.note}]", file=sys.stderr))
    return loaded, loaded.close


def cmd_summarize(args) -> int:
    from engine.documents.summarize import DocumentSummarizer  # noqa: PLC0415

    model, close = _open_model(args)
    request = DocumentRequest(args.file, preset=args.preset, language=args.language,
                              question=args.question, inspect_only=args.inspect)
    stop, outcome = threading.Event(), {}
    summarizer = DocumentSummarizer(model, request, _printer(), stop)
    worker = threading.Thread(target=_run, args=(summarizer, outcome), name="rotary-engine")
    try:
        worker.start()
        while worker.is_alive():
            worker.join(0.2)
    except KeyboardInterrupt:
        stop.set()
        worker.join()
    finally:
        close()
    if "error" in outcome:
        raise outcome["error"]
    if args.json:
        print(json.dumps(_json(summarizer, outcome.get("summary")), indent=2, ensure_ascii=False))
    elif outcome.get("summary") is not None:
        print(outcome["summary"].text)
    return 0


def _run(summarizer, outcome: dict) -> None:
    try:
        outcome["summary"] = summarizer.run()
    except Exception as error:  # noqa: BLE001 - handed to the main thread, which reports it
        outcome["error"] = error


def _printer():
    def emit(event) -> None:
        if isinstance(event, DocumentInspected):
            print(event.overview.message, file=sys.stderr)
        elif isinstance(event, DocumentProgress):
            left = f", {duration_text(event.seconds_left)} left" if event.seconds_left >= 0 else ""
            print(f"\r{event.message}{left}    ", end="", file=sys.stderr, flush=True)
        elif isinstance(event, DocumentFinished):
            print(file=sys.stderr)
    return emit


def _json(summarizer, summary) -> dict:
    plan = getattr(summarizer, "plan", None)
    document = plan.document if plan else None
    return {
        "file": summarizer.request.path,
        "overview": dataclasses.asdict(summarizer.overview) if plan else None,
        "found": [{"label": s.label, "page": s.page, "words": len(s.text.split())}
                  for s in document.sections] if document else [],
        "parts": [{"index": p.index, "label": p.label, "pages": list(p.pages), "tokens": p.tokens}
                  for p in plan.parts] if plan else [],
        "calls": [dataclasses.asdict(c) for c in summarizer.calls],
        "summary": dataclasses.asdict(summary) if summary else None,
    }
