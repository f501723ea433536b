"""Summary presets: what the user picks ("Short", "Bullet points"...). Data only, found by name."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import DocumentError
from engine.messages import msg


@dataclass(frozen=True)
class SummaryPreset:
    name: str
    title: str                 # shown in the app
    goal: str                  # what the final answer should be, in the model's instructions
    answer_tokens: int         # the final answer's budget (shrunk to fit small contexts)
    part_answer_tokens: int    # each part's notes


SUMMARY_PRESETS: dict[str, SummaryPreset] = {p.name: p for p in (
    SummaryPreset("short", "Short summary",
                  "a short summary of one or two paragraphs with the main points", 400, 240),
    SummaryPreset("detailed", "Detailed summary",
                  "a detailed summary that goes through the document in order, with a short "
                  "heading for each part", 1000, 400),
    SummaryPreset("bullets", "Bullet points",
                  "a list of bullet points, one key point per bullet", 600, 300),
    SummaryPreset("actions", "Action items",
                  "a list of the action items, decisions and deadlines: who does what by when. "
                  "Say so plainly if there are none", 600, 300),
)}


def summary_preset(name: str) -> SummaryPreset:
    try:
        return SUMMARY_PRESETS[name]
    except KeyError:
        raise DocumentError(msg("documents.no_preset", name=name),
                            f"known: {', '.join(SUMMARY_PRESETS)}") from None
