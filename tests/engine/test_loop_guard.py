"""The loop guard alone (engine/runtime/generation/loop_guard.py): short loops within 64 tokens, blocks of
up to hundreds of tokens once they come back whole, lines that come back with only a number
changed; and none of it on text that repeats legitimately (lists, tables, code, prose)."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

from engine.runtime.generation.loop_guard import LIMIT, MAX_PERIOD, LoopGuard

ROOT = Path(__file__).resolve().parents[2]
# Pieces as a byte-level tokenizer makes them: a word with its space, one digit, a run of
# signs, a run of spaces or of newlines.
PIECES = re.compile(r" ?[^\W\d_]+| ?\d| ?[^\w\s]{1,4}|\n+|[ \t]+")


def pieces(text: str) -> list[str]:
    return PIECES.findall(text)


def first_loop(stream) -> tuple[int | None, LoopGuard]:
    guard = LoopGuard()
    return next((i for i, piece in enumerate(stream) if guard.add(piece)), None), guard


def kept(text: str) -> tuple[str, int | None]:
    """(the text before the repeats, the token where the loop was caught)."""
    stream = pieces(text)
    caught, guard = first_loop(stream)
    return ("".join(stream[:guard.repeats_at]) if caught is not None else text), caught


def test_ordinary_text_is_left_alone_and_every_short_period_is_caught_within_64():
    rng = random.Random(0)
    assert first_loop(rng.randrange(5000) for _ in range(5000))[0] is None
    for period in range(1, 33):
        opening = list(range(1000, 1010))
        stream = opening + list(range(period)) * 100
        stopped, guard = first_loop(stream)
        assert stopped is not None and guard.looped_at == len(opening)
        assert guard.repeats_at == len(opening) + period
        assert stopped + 1 - len(opening) <= LIMIT


def test_a_block_of_up_to_512_tokens_is_caught_once_it_comes_back_whole():
    for period in (33, 64, 120, 300, MAX_PERIOD):
        opening = list(range(10_000, 10_010))
        stream = opening + list(range(period)) * 5
        stopped, guard = first_loop(stream)
        assert guard.period == period and guard.repeats_at == len(opening) + period
        assert stopped == len(opening) + 2 * period - 1, period


def test_an_eight_line_block_repeated_is_kept_once():
    block = "".join(f"- Payment {k}: the council pays invoices within thirty days of "
                    f"receipt.\n" for k in "ABCDEFGH")
    text, caught = kept("Here is the plan.\n" + block * 6)
    assert caught is not None and text == "Here is the plan.\n" + block


def test_a_line_that_comes_back_with_only_its_page_changed_is_a_loop():
    lines = "".join(f"The payments are due within thirty days [p. {n}].\n"
                    for n in range(21, 79))
    text, caught = kept("From the contract:\n" + lines)
    assert caught is not None and caught < 100
    assert text.startswith("From the contract:\nThe payments are due within thirty days "
                           "[p. 21]") and "[p. 22]" not in text
    references = " ".join(f"[p. {n}]" for n in range(21, 79))
    text, caught = kept("Sources: " + references)
    assert caught is not None and text == "Sources: [p. 21]"


def test_lists_tables_and_code_that_repeat_legitimately_are_not_loops():
    rng = random.Random(1)
    counting = ", ".join(str(n) for n in range(1, 400))
    table = "| Year | Sales | Cost |\n|---|---|---|\n" + "".join(
        f"| {2000 + n} | {rng.randint(10, 999)} | {rng.randint(10, 999)} |\n" for n in range(80))
    named_rows = "| Item | Q1 | Q2 |\n|---|---|---|\n" + "".join(
        f"| Printer paper | {rng.randint(10, 99)} | {rng.randint(10, 99)} |\n" for _ in range(40))
    code = "".join(f"def test_case_{n}():\n    item = make({n})\n    assert item.value == "
                   f"{n * 2}\n    assert item.name == 'item'\n\n" for n in range(40))
    fruit = "apples pears plums figs dates limes kiwis mangos melons grapes lemons".split()
    numbered = "".join(f"{n}. Check the {w} before the meeting.\n"
                       for n, w in enumerate(fruit * 3, 1))
    days = "".join(f"- {d}: office, then calls until {h}:00.\n" for d, h in zip(
        "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split() * 4,
        [rng.randint(12, 18) for _ in range(28)]))
    for name, text in (("counting", counting), ("table", table), ("named rows", named_rows),
                       ("code", code), ("numbered list", numbered), ("days", days)):
        assert kept(text)[1] is None, name


def test_the_project_docs_read_as_prose_hold_no_loop():
    caught = []
    for path in sorted((ROOT / "docs").glob("*.md")):
        stream = pieces(path.read_text(encoding="utf-8"))
        for start in range(0, len(stream), 1500):       # answers of up to 1,500 tokens
            stopped, guard = first_loop(stream[start:start + 1500])
            if stopped is not None:
                caught.append((path.name, guard.period))
    assert not caught


def test_each_token_costs_a_few_microseconds():
    stream = pieces((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"))[:20_000]
    guard = LoopGuard()
    started = time.perf_counter()
    for piece in stream:
        guard.add(piece)
    per_token = (time.perf_counter() - started) / len(stream)
    print(f"\nloop guard: {per_token * 1e6:.1f} µs a token over {len(stream)} tokens")
    assert per_token < 200e-6          # a forward pass takes 5-50 ms; a shared machine
