"""A conversation's work with the engine, with no Qt: each engine request is a ``Job`` (an
answer, a question about documents, a look at a document, a summary) with its conversation,
phase, text, thinking and typed stats; ``RequestTracker`` holds the jobs in flight and says
what changed through plain callbacks (app.chat.chat_controller adapts them to Qt signals).
It sits above the conversation store (app.conversation), which it writes into. A dropped
document is ``document_session.DocumentSession`` (one frozen task, typed events), the files
waiting to be read ``document_queue.DocumentQueue``."""

from app.session.jobs import Job, JobKind
from app.session.requests import Requests, RequestTracker

__all__ = ["Job", "JobKind", "Requests", "RequestTracker"]
