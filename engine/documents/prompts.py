"""The model's instructions. The system message is the same for every call of one document,
so the engine's prompt cache (``NativeModel.reuse_prefix``) reads it only once."""

from __future__ import annotations

from dataclasses import dataclass

from engine.api import ChatMessage
from engine.documents.presets import SummaryPreset


@dataclass(frozen=True)
class Prompts:
    document_name: str
    preset: SummaryPreset
    language: str
    question: str = ""

    def system(self) -> ChatMessage:
        wish = (f" The user asked: \"{self.question.strip()}\". Follow that request."
                if self.question.strip() else "")
        return ChatMessage("system", (
            f"You summarise documents for office staff. The document is '{self.document_name}'. "
            f"The goal is {self.preset.goal}.{wish} Write in {self.language} unless the user "
            "asks for another language. Every piece of the document starts with its source in "
            "square brackets, such as [page 3] or [section 'Budget']. After each point you "
            "write, give its source in square brackets. Use only what the document says."))

    def whole(self, text: str) -> tuple[ChatMessage, ...]:
        return (self.system(), ChatMessage("user", f"Here is the whole document.\n\n{text}"))

    def part(self, text: str, index: int, parts: int, label: str,
             words: int) -> tuple[ChatMessage, ...]:
        return (self.system(), ChatMessage("user", (
            f"Here is part {index} of {parts} of the document ({label}). Write short notes on "
            f"what matters in it for the goal, each with its source, in at most {words} "
            f"words.\n\n{text}")))

    def combine(self, notes: str, final: bool) -> tuple[ChatMessage, ...]:
        task = ("Combine them into the final answer." if final
                else "Combine them into shorter notes, keeping every source.")
        return (self.system(), ChatMessage("user", (
            f"Here are notes on consecutive parts of the document, in order, with their "
            f"sources. {task}\n\n{notes}")))
