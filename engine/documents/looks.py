"""The latest looks at documents, kept on the engine thread: a summary starts from its look.

The app looks at a file first (``DocumentRequest(inspect_only=True)``: read, counted, planned,
the overview shown) and asks for the summary once a style is picked. The summary of the same
unchanged file, with the same model, takes the look's text, token counts and plans from here
instead of reading, counting and planning again. A file is the same while its resolved path,
size and modification time are; anything else (another file, a changed one, another model, an
evicted entry, a look too big to keep) is read again: correct before fast. Only the engine thread
touches a cache.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from engine.documents.plan import Budget, DocumentPlan, plan_document
from engine.documents.split import TokenCounter
from engine.documents.types import Document

MAX_LOOKS = 4                    # the app looks at one file at a time; a few for going back
MAX_CHARS = 12_000_000           # text and counted pieces kept over all looks; a bigger look
                                 # is not kept (files may hold 20 M characters: read again)


@dataclass(frozen=True)
class LookKey:
    """What a look's result depends on: the file as it is now, where its text is cached, and
    the model that counted it (another tokenizer or context counts and plans otherwise)."""

    path: str                    # resolved
    size: int
    mtime_ns: int
    cache_dir: str | None
    model: tuple                 # the SummaryModel's speed_key: which model is loaded
    context_size: int

    @classmethod
    def of(cls, path: str, cache_dir: str | None, model: tuple, context_size: int) -> LookKey | None:
        """None when the file cannot be looked at: reading it says why, in the user's words."""
        try:
            resolved = Path(path).resolve()
            stat = resolved.stat()
        except (OSError, ValueError):
            return None
        return cls(str(resolved), stat.st_size, stat.st_mtime_ns, cache_dir, model, context_size)


@dataclass
class Look:
    """One file's text, every count its plans asked for, and its plan per budget (a budget
    follows from the preset, language and question: another one plans again from the counts)."""

    document: Document
    counts: dict[str, int] = field(default_factory=dict)
    plans: dict[Budget, DocumentPlan] = field(default_factory=dict)

    def plan(self, budget: Budget, count: TokenCounter) -> DocumentPlan:
        if budget not in self.plans:
            self.plans[budget] = plan_document(self.document, budget, self._counted(count))
        return self.plans[budget]

    def _counted(self, count: TokenCounter) -> TokenCounter:
        def counted(text: str) -> int:
            if text not in self.counts:
                self.counts[text] = count(text)
            return self.counts[text]
        return counted

    @property
    def chars(self) -> int:
        """What it holds: the text, and the pieces of it that were counted."""
        return sum(len(s.text) for s in self.document.sections) + sum(map(len, self.counts))


class LookCache:
    """The most recent looks, oldest evicted first; ``hits`` and ``misses`` for tests and logs."""

    def __init__(self, max_looks: int = MAX_LOOKS, max_chars: int = MAX_CHARS) -> None:
        self.max_looks, self.max_chars = max_looks, max_chars
        self._looks: OrderedDict[LookKey, Look] = OrderedDict()
        self.hits = self.misses = 0

    def get(self, key: LookKey) -> Look | None:
        look = self._looks.get(key)
        if look is None:
            self.misses += 1
            return None
        self.hits += 1
        self._looks.move_to_end(key)
        return look

    def put(self, key: LookKey, look: Look) -> None:
        self._drop_older(key)
        self._looks.pop(key, None)
        if look.chars > self.max_chars:
            return
        self._looks[key] = look
        while len(self._looks) > self.max_looks or \
                sum(v.chars for v in self._looks.values()) > self.max_chars:
            self._looks.popitem(last=False)

    def _drop_older(self, key: LookKey) -> None:
        """The same file as it was before, or counted by another model: never used again."""
        for old in [k for k in self._looks if k.path == key.path and k != key]:
            del self._looks[old]

    def __len__(self) -> int:
        return len(self._looks)

    def clear(self) -> None:
        self._looks.clear()

