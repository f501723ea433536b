"""Summary presets: what the user picks ("Short", "Bullet points"...). Data only, found by name."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import DocumentError
from engine.messages import Msg, msg


@dataclass(frozen=True)
class SummaryPreset:
    name: str
    title: Msg                 # shown in the app, in its language (engine/messages.py)
    goal: str                  # what the final answer should be, in the model's instructions
    answer_tokens: int         # the final answer's budget (shrunk to fit small contexts)
    part_answer_tokens: int    # each part's notes


SUMMARY_PRESETS: dict[str, SummaryPreset] = {p.name: p for p in (
    SummaryPreset("short", msg("documents.preset.short"),
                  "a short summary of one or two paragraphs with the main points", 400, 240),
    SummaryPreset("detailed", msg("documents.preset.detailed"),
                  "a detailed summary that goes through the document in order, with a short "
                  "heading for each part", 1000, 400),
    SummaryPreset("bullets", msg("documents.preset.bullets"),
                  "a list of bullet points, one key point per bullet", 600, 300),
    SummaryPreset("actions", msg("documents.preset.actions"),
                  "a list of the action items, decisions and deadlines: who does what by when. "
                  "Say so plainly if there are none", 600, 300),
)}


def summary_preset(name: str) -> SummaryPreset:
    try:
        return SUMMARY_PRESETS[name]
    except KeyError:
        raise DocumentError(msg("documents.no_preset", name=name),
                            f"known: {', '.join(SUMMARY_PRESETS)}") from None
