"""Stop an answer that has started repeating itself ("model\\nmodel\\n…", "option option …").

A loop here is a run of tokens that repeats with a period of at most ``MAX_PERIOD`` tokens.
For each period the guard keeps how long the text has matched itself that far back, one
comparison per period and token, so it costs nothing next to a forward pass. A run counts
as a loop once it has lasted ``needed(period)`` tokens: at least ``MIN_RUN`` (tables and
rules repeat short pieces legitimately for a while) and at least three rounds of the
period (two for long periods), never more than ``LIMIT`` = 64 tokens after the loop began.
"""

from __future__ import annotations

from collections import deque

MAX_PERIOD = 32
MIN_RUN = 32
LIMIT = 64


def needed(period: int) -> int:
    """Tokens since the loop began (its first round included) before it is called a loop."""
    rounds = 3 if period * 3 <= LIMIT else 2
    return max(MIN_RUN, rounds * period)


class LoopGuard:
    """``add(piece)`` per generated token (its text, or its id); True once it loops."""

    def __init__(self, max_period: int = MAX_PERIOD) -> None:
        self.max_period = max_period
        self.recent: deque = deque(maxlen=max_period + 1)
        self.runs = [0] * (max_period + 1)        # [period] tokens matching period back
        self.tokens = 0
        self.looped_at = -1                      # token index where the loop began

    def add(self, piece) -> bool:
        if isinstance(piece, str) and not piece:
            return False                         # mid-UTF-8: the character comes next
        self.recent.append(piece)
        self.tokens += 1
        for period in range(1, self.max_period + 1):
            if len(self.recent) > period and self.recent[-1] == self.recent[-1 - period]:
                self.runs[period] += 1
                if self.runs[period] + period >= needed(period):
                    self.looped_at = self.tokens - self.runs[period] - period
                    return True
            else:
                self.runs[period] = 0
        return False
