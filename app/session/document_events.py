"""What the document session (app.session.document_session) and its queue tell the screen, as
typed events through the session's one callback (``Session.report``, with the chat's: they are
part of app.session.events.UiEvent); app.documents.document_flow turns each into a Qt signal for
the document card and the conversation's list of documents."""

from __future__ import annotations

from dataclasses import dataclass

from engine.api import DocumentOverview, DocumentProgress, DocumentSummary


@dataclass(frozen=True)
class Checking:
    """The engine reads and plans the file (nothing is generated yet)."""
    name: str


@dataclass(frozen=True)
class OverviewReady:
    """What was found: the card offers its styles, with these chosen."""
    overview: DocumentOverview
    preset: str
    question: str
    replacing: bool                 # Edit: Summarise replaces the old messages
    path: str
    conversation_id: int | None


@dataclass(frozen=True)
class Read:
    """The document was read into its conversation (a look, or a summary's own, as Write
    again's): it is on that conversation's list, and the card can say what it holds."""
    overview: DocumentOverview
    path: str
    conversation_id: int | None


@dataclass(frozen=True)
class Started:
    """The summary is being written."""
    name: str


@dataclass(frozen=True)
class Progress:
    progress: DocumentProgress


@dataclass(frozen=True)
class Done:
    """The summary is in the conversation, or None: it failed (a notice says why)."""
    summary: DocumentSummary | None


@dataclass(frozen=True)
class Closed:
    """Nothing to show any more."""


@dataclass(frozen=True)
class HereChanged:
    """The card's conversation is (not) the open one."""
    here: bool


@dataclass(frozen=True)
class WaitingForModel:
    """Documents attached while the model loads, and why they wait."""
    names: str
    why: str


@dataclass(frozen=True)
class ListChanged:
    """A document joined the open conversation's list, or a file of several ended."""


DocumentEvent = (Checking | OverviewReady | Read | Started | Progress | Done | Closed
                 | HereChanged | WaitingForModel | ListChanged)
