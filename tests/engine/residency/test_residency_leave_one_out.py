"""The quality bench's leave-one-family-out choice never scores a constant on its own data."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from bench.bench_residency_quality import FAMILIES, HELD_OUT, leave_one_out  # noqa: E402


def _rows(scores: dict) -> list[dict]:
    """scores: config -> family -> hit rate, at one budget."""
    return [{"trace": family, "policy": "rotary", "fraction": 0.25, "config": config, "hit_rate": rate}
            for config, by_family in scores.items() for family, rate in by_family.items()]


def test_each_family_is_scored_with_the_config_best_on_the_other_three():
    # "A" is great on olmoe only; "B" is best on every other family.
    scores = {"A": {"olmoe": 0.99, "granite": 0.50, "qwen": 0.50, "gptoss": 0.50},
              "B": {"olmoe": 0.60, "granite": 0.70, "qwen": 0.70, "gptoss": 0.70}}
    held, chosen = leave_one_out(_rows(scores))
    assert chosen["olmoe"] == "B"                          # A's olmoe score may not pick A for olmoe
    assert set(chosen.values()) <= {"A", "B"} and len(chosen) == len(FAMILIES)
    olmoe = [r for r in held if r["trace"] == "olmoe"]
    assert [(r["policy"], r["hit_rate"]) for r in olmoe] == [(HELD_OUT, 0.60)]


def test_a_family_that_prefers_a_config_gets_it_only_through_the_others():
    # A wins on granite, qwen and gptoss, so olmoe (where B wins) is scored with A; each of
    # the others sees B's olmoe score among its three and is scored with B.
    scores = {"A": {"olmoe": 0.50, "granite": 0.80, "qwen": 0.80, "gptoss": 0.80},
              "B": {"olmoe": 0.90, "granite": 0.70, "qwen": 0.70, "gptoss": 0.70}}
    _, chosen = leave_one_out(_rows(scores))
    assert chosen == {"olmoe": "A", "granite": "B", "qwen": "B", "gptoss": "B"}
