"""Plain words the chat says about models and answers, and the Markdown export."""

from __future__ import annotations

from enum import Enum

from engine.api import DocumentAnswered, DocumentProgress, PassagesChosen
from engine.messages import msg
from engine.model.facts import ModelFacts

from app.conversation.store import title_from
from app.conversation.history import StoredMessage
from app.text.i18n import tr
from app.text.korean import particles
from app.text.messages import say



class Wait(Enum):
    """Why an answer has not begun: the user is told which."""
    OTHER = "other"            # another answer, or a document, is being written
    PREVIOUS = "previous"      # an answer the user stopped is still ending


def no_answer_text(facts: ModelFacts | None, on_server: bool) -> str:
    """"The model gave no answer", with the likely reason for this model."""
    if on_server:
        why = tr("The model on the office server ended its answer at once. Its chat "
                 "template may not suit this model: ask your IT contact.")
    elif facts is not None and getattr(facts, "looks_like_base_model", False):
        why = tr("“{name}” looks like a base model: it has no chat template, so it may not "
                 "know how to answer. Choose a model whose name contains “Instruct” or "
                 "“Chat” in Settings.").format(name=facts.name or tr("This model"))
    else:
        why = tr("It ended its answer at once; its chat template may not suit it. Try "
                 "Write again, or another model in Settings.")
    return tr("The model gave no answer.") + " " + particles(why)


def waiting_text(wait: Wait | None) -> str:
    """Why an answer has not begun, for the status line ("": it has)."""
    if wait is Wait.OTHER:
        return tr("Waiting for the other answer…")
    return tr("Waiting for the previous answer to end…") if wait is Wait.PREVIOUS else ""


def queued_text(text: str, for_document: bool) -> str:
    """Said under the conversation while a message waits to be sent ("": none waits)."""
    if not text:
        return ""
    text = title_from(text)
    return tr("Your question will be sent when the document has been read: “{text}”").format(
        text=text) if for_document else tr(
        "Your message will be sent when this answer is finished: “{text}”").format(text=text)


def queue_full_text(for_document: bool) -> str:
    """A second message while one already waits: it stays in the box."""
    return tr("One question already waits for the document; send this one when its answer "
              "has begun.") if for_document else tr(
        "A message is already waiting to be sent; send this one when its answer has begun.")


def base_model_warning(facts: ModelFacts | None) -> str:
    """Plain words for a model that continues text rather than answering ("" otherwise)."""
    if facts is None or not getattr(facts, "looks_like_base_model", False):
        return ""
    return particles(tr(
        "“{name}” looks like a base model: it was not trained to chat, so it may continue "
        "your text instead of answering it. For a helpful assistant, choose a model whose "
        "name contains “Instruct” or “Chat” in Settings.").format(
            name=facts.name or tr("This model")))


def conversation_to_markdown(title: str, messages: list[StoredMessage]) -> str:
    """Export: a heading per speaker so the file reads well in any Markdown viewer."""
    parts = [f"# {title}\n"]
    for message in messages:
        speaker = tr("You") if message.role == "user" else tr("Assistant")
        parts.append(f"## {speaker}\n\n{message.content.strip()}\n")
    return "\n".join(parts)


def progress_text(event: DocumentProgress) -> str:
    """"Reading part 3 of 9… About 2 minutes left." """
    left = f" {say(event.left)}" if event.left is not None else ""
    return f"{say(event.message)}{left}"


def passages_text(event: PassagesChosen) -> str:
    """"Reading 4 passages from pages 2, 3 and 12…" while an answer from documents is read."""
    return say(msg("documents.progress.reading_passages", n=len(event.passages),
                   where=event.read.param("where")))


def checked_answer_text(answered: DocumentAnswered) -> str:
    """An answer from documents: its failed page references marked ("not found on p. 12"),
    never removed, then what was read for it ("": it wrote nothing)."""
    body = answered.marked(say).strip()
    return f"{body}\n\n*{say(answered.read)}*" if body else ""
