"""A conversation's work with the engine, with no Qt: each engine request is a ``Job`` (an
answer, a question about documents, a look at a document, a summary) with its conversation,
phase, text, thinking and typed stats. ``Session`` owns the conversation store
(app.conversation), the jobs in flight (``RequestTracker``) and the chat (``ChatSession``);
it is the one receiver of the engine's request events and reports typed UI events
(app.session.events) through one callback (app.chat.chat_controller adapts them to Qt). A
dropped document is ``document_session.DocumentSession`` (one frozen task, typed events), the
files waiting to be read ``document_queue.DocumentQueue``; ``Session`` owns both, and its chat
calls them directly."""

from app.session.jobs import Job, JobKind
from app.session.requests import Requests, RequestTracker

__all__ = ["Job", "JobKind", "Requests", "RequestTracker"]
