"""Stop an answer that has started repeating itself: "option option …", an 8-line block
written again and again, or a line that comes back with only a number changed ("… [p. 21]",
"… [p. 22]", …).

A loop is a run of tokens equal to the tokens ``period`` places before, for a period of up
to ``MAX_PERIOD`` tokens. A period is looked at only once ``NGRAM`` tokens in a row have
come back (a dictionary of recent 4-token sequences), and only while it keeps matching, so
each token costs a few comparisons whatever the longest period.

- **Exact** repeats count as a loop once the run has lasted ``needed(period)`` tokens,
  counted from where its first round began: at least ``MIN_RUN`` (tables and rules repeat
  short pieces legitimately for a while) and three rounds of a short period, never more than
  ``LIMIT`` = 64 tokens after the loop began for periods up to 32 tokens; a longer block
  once it has come back whole (prose, lists and code do not repeat a whole block of 33 or
  more tokens back to back).
- **Near** repeats, where tokens holding digits differ and everything else is equal, count
  only when one number per round changes (a table row changes several) and a round holds
  words, not just digits and signs (counting "1, 2, 3, …" is no loop): after three rounds
  and ``NEAR_MIN_RUN`` tokens with two words or more a round, after four rounds and twice
  that with one word (a list of "[p. 21]" references).

``repeats_at`` is the token where the repeats began: what came before holds the repeated
block once, which is what the answer keeps (engine/runtime/generation/generate.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_PERIOD = 512
MIN_RUN = 32
LIMIT = 64
NGRAM = 4
NEAR_MIN_RUN = 64
_SEEN_PER_NGRAM = 32              # recent places kept per 4-token sequence


def needed(period: int) -> int:
    """Tokens since an exact loop began (its first round included) before it is called one."""
    rounds = 3 if period * 3 <= LIMIT else 2
    return max(MIN_RUN, rounds * period)


def near_needed(period: int, words: int) -> int:
    """Tokens of a near repeat (its first round not counted) before it is called a loop."""
    if words >= 2:
        return max(NEAR_MIN_RUN, 2 * period)
    return max(2 * NEAR_MIN_RUN, 3 * period)


@dataclass
class _Run:
    start: int                   # first token equal (digits aside) to the one a period back
    exact_from: int              # first token of the exact part that runs up to now
    near_from: int               # where one-number-a-round changes have held since
    changes: list[int] = field(default_factory=list)   # where each changed number begins


class LoopGuard:
    """``add(piece, text)`` per generated token (its id or text; ``text`` lets numbers
    that change be seen); True once it loops."""

    def __init__(self, max_period: int = MAX_PERIOD) -> None:
        self.max_period = max_period
        self.pieces: list = []
        self.keys: list = []                    # the piece, or its text with digits as "0"
        self.word_count = [0]                   # words among the first n tokens
        self.line_ends: list[bool] = []         # the token holds a newline
        self.runs: dict[int, _Run] = {}         # by period, while it matches
        self.seen: dict[tuple, list[int]] = {}  # 4 keys -> where that sequence ended
        self.tokens = 0
        self.looped_at = -1                     # where the loop's first round began
        self.repeats_at = -1                    # where the repeats began
        self.period = 0

    def add(self, piece, text: str | None = None) -> bool:
        if isinstance(piece, str) and not piece:
            return False                         # mid-UTF-8: the character comes next
        text = piece if text is None and isinstance(piece, str) else text or ""
        number = any(c.isdigit() for c in text)
        self.pieces.append(piece)
        self.keys.append(("#", _digits_as_zero(text)) if number else piece)
        word = not number and any(c.isalpha() for c in text)
        self.word_count.append(self.word_count[-1] + word)
        self.line_ends.append("\n" in text)
        i, self.tokens = self.tokens, self.tokens + 1
        for period in list(self.runs):
            if not self._extend(self.runs[period], period, i):
                del self.runs[period]
        self._start_runs(i)
        return any(self._loops(run, period, i) for period, run in self.runs.items())

    def _extend(self, run: _Run, period: int, i: int) -> bool:
        if self.keys[i] != self.keys[i - period]:
            return False
        if self.pieces[i] != self.pieces[i - period]:       # a number changed
            run.exact_from = i + 1
            self._changed(run, period, i)
        return True

    def _changed(self, run: _Run, period: int, i: int) -> None:
        """One number a round may change: the numbers (runs of tokens with digits) that
        changed in the last two rounds are at most two, where a table row changes more."""
        start = i
        while start > 0 and self._number(start - 1):
            start -= 1
        if not run.changes or run.changes[-1] != start:
            run.changes.append(start)
        run.changes = [c for c in run.changes if c > i - 2 * period]
        if len(run.changes) > 2:
            run.near_from = i + 1

    def _number(self, j: int) -> bool:
        key = self.keys[j]
        return isinstance(key, tuple) and key[:1] == ("#",)

    def _start_runs(self, i: int) -> None:
        if i + 1 < NGRAM:
            return
        gram = tuple(self.keys[i + 1 - NGRAM:i + 1])
        places = self.seen.setdefault(gram, [])
        for before in places:
            period = i - before
            if period <= self.max_period and period not in self.runs:
                self.runs[period] = self._new_run(period, i)
        places.append(i)
        if len(places) > _SEEN_PER_NGRAM or (places and i - places[0] > self.max_period):
            del places[:-_SEEN_PER_NGRAM]
            while places and i - places[0] > self.max_period:
                places.pop(0)

    def _new_run(self, period: int, i: int) -> _Run:
        """A run found through its last 4 tokens: back to where it began (exactly equal)."""
        start = i + 1 - NGRAM
        changes = [j for j in range(start, i + 1) if self.pieces[j] != self.pieces[j - period]]
        if not changes:
            while start > period and start > i + 1 - NGRAM - period and \
                    self.pieces[start - 1] == self.pieces[start - 1 - period]:
                start -= 1
        run = _Run(start, (changes[-1] + 1) if changes else start, start)
        for j in changes:
            self._changed(run, period, j)
        return run

    def _loops(self, run: _Run, period: int, i: int) -> bool:
        exact = i + 1 - run.exact_from
        if exact + period >= needed(period):
            return self._caught(period, run.exact_from)
        near = i + 1 - run.near_from
        if run.changes and near >= 2 * period:
            words = self.word_count[i + 1] - self.word_count[i + 1 - period]
            if words and near >= near_needed(period, words):
                return self._caught(period, run.near_from)
        return False

    def _caught(self, period: int, repeats_at: int) -> bool:
        """The repeats begin at ``repeats_at`` at the earliest; where a line ends soon after,
        there (the block's own last line, ".\n" included, is kept whole)."""
        limit = min(repeats_at + period - 1, self.tokens - 1)
        line_end = next((j + 1 for j in range(repeats_at, limit) if self.line_ends[j]), None)
        self.period, self.repeats_at = period, line_end or repeats_at
        self.looped_at = max(0, repeats_at - period)
        return True

    def said(self, unit: str = "token") -> str:
        """The loop in the log's words (a local model counts tokens, a server's stream pieces)."""
        return (f"the answer repeated a block of {self.period} {unit}s from {unit} "
                f"{self.looped_at}; stopped at {unit} {self.tokens}, the repeats from {unit} "
                f"{self.repeats_at} left out")


def _digits_as_zero(text: str) -> str:
    out, digit = [], False
    for c in text:
        if c.isdigit():
            if not digit:
                out.append("0")
            digit = True
        else:
            out.append(c)
            digit = False
    return "".join(out)


def kept_length(whole: str, tail: str, shown: int) -> int:
    """Characters of ``whole`` (an answer or its thinking, as parsed) that a loop leaves:
    all but ``tail``, the repeats' own text, where ``whole`` ends with it; else ``shown``,
    the characters streamed when the repeats began."""
    whole, tail = whole.rstrip(), tail.rstrip()
    return len(whole) - len(tail) if tail.strip() and whole.endswith(tail) else shown


def loop_cut(parser, tail: str, shown: tuple[int, int]) -> tuple[int, int]:
    """Characters of the thinking and of the answer a loop leaves (``kept_length`` of each):
    ``tail`` is the repeats' text, ``shown`` what had streamed when they began."""
    return (kept_length("".join(parser.thinking), tail, shown[0]),
            kept_length("".join(parser.answer), tail, shown[1]))


def kept_parts(parser, cut: tuple[int, int] | None) -> tuple[str, str]:
    """(thinking, answer) of a parsed reply, local or from a server; after a loop, each up to
    where the repeats began (``cut``: characters of each kept, from ``kept_length``)."""
    if cut is None:
        return parser.thinking_text, parser.answer_text
    return ("".join(parser.thinking)[:cut[0]].strip(), "".join(parser.answer)[:cut[1]].strip())
