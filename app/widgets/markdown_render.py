"""Markdown to Qt rich text, incrementally while an answer streams in.

markdown-it-py (CommonMark + tables) with raw HTML off: it escapes any HTML the model
writes itself, so ``<script>`` or ``if a < b`` show as typed, in prose and in code
alike. Single line breaks are kept (``breaks``), as in chat apps. Images are not
rendered (nothing is ever fetched) and links only show: MessageBody never opens them.
Qt's rich text engine understands a subset of HTML, so code blocks are wrapped in a
shaded table (tables take a background in Qt; ``pre`` alone does not).

``StreamingMarkdown`` hands out the HTML of finished blocks once and re-renders only
the unfinished tail, so the cost of a refresh does not grow with the answer's length.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

from app.widgets.theme import code_background

_CODE_BLOCK = re.compile(r"<pre><code(?: class=\"[^\"]*\")?>(.*?)</code></pre>", re.S)
# A fence opens with 3+ backticks or tildes (up to 3 spaces in); it closes with a line of
# at least as many of the same character and nothing else.
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"(\d{1,9}[.)]|[-*+])(\s|$)")

_BETWEEN_TAGS = re.compile(r">\n|\n(?=<)")    # code text has "<" and ">" escaped
_converter = (MarkdownIt("commonmark", {"html": False, "breaks": True, "linkify": False})
              .enable(["table", "strikethrough"]).disable("image"))


def code_block_html(code: str, dark: bool) -> str:
    shade = code_background(dark)
    return (f'<table width="100%" cellpadding="8" bgcolor="{shade}"><tr><td>'
            f'<pre style="font-family: monospace; white-space: pre-wrap;">{code}</pre></td></tr></table>')


def render(text: str, dark: bool = False) -> str:
    # Newlines between tags would show as spaces in Qt (inside code, "<" is escaped).
    body = _BETWEEN_TAGS.sub(lambda m: m.group(0).strip(), _converter.render(text)).strip()
    body = body.replace("<table>", '<table border="1" cellspacing="0" cellpadding="4">')
    return _CODE_BLOCK.sub(lambda m: code_block_html(m.group(1).rstrip("\n"), dark), body)


class StreamingMarkdown:
    """Accumulates streamed text and splits it into finished blocks and an open tail.

    A block is finished at a blank line outside a code fence: rendering it again would
    give the same HTML, so the view appends its HTML once (``take_finished_html``) and
    only re-renders the short open tail (``tail_html``). Scanning is incremental too:
    only the lines added since the last call are looked at.
    """

    def __init__(self, dark: bool = False) -> None:
        self.dark = dark
        self.text = ""
        self.finished_len = 0       # text[:finished_len] is rendered and handed out
        self._scan_pos = 0          # text[:_scan_pos] has been scanned for boundaries
        self._fence = ""            # the open fence ("```", "~~~~"...), "" outside one
        self._boundaries: list[int] = []     # start of every block after the first
        self._blank_end: int | None = None   # a blank line that may end the open block

    def append(self, piece: str) -> None:
        self.text += piece

    def _scan(self) -> None:
        end = self.text.rfind("\n") + 1        # only complete lines
        while self._scan_pos < end:
            line_end = self.text.index("\n", self._scan_pos) + 1
            self._scan_line(self.text[self._scan_pos:line_end].rstrip("\r\n"))
            self._scan_pos = line_end

    def _scan_line(self, line: str) -> None:
        """A blank line ends a block only if the next line neither is indented (it would
        continue an indented code block or a list item) nor starts a list item (a loose
        list cut in two would number its second half from 1 again)."""
        fence = _FENCE.match(line)
        if self._fence:
            if fence and _closes(fence.group(1), self._fence, line):
                self._fence = ""
        elif not line.strip():
            self._blank_end = self._scan_pos + len(line) + 1
        else:
            if self._blank_end is not None and not line[0].isspace() \
                    and not _LIST_ITEM.match(line):
                self._boundaries.append(self._scan_pos)
            self._blank_end = None
            if fence:
                self._fence = fence.group(1)

    def take_finished_html(self) -> str:
        """HTML of the blocks finished since the last call ("" when none)."""
        return "".join(self.take_finished_blocks())

    def take_finished_blocks(self) -> list[str]:
        """HTML of each block finished since the last call, one by one: the view inserts
        them singly however many arrived together, so an answer looks the same streamed,
        reopened while it streams, and stored (several paragraphs inserted as one piece of
        HTML kept Qt's paragraph margins: blank lines between the lines after a switch)."""
        self._scan()
        ends = [end for end in self._boundaries if end > self.finished_len]
        self._boundaries = []
        blocks = []
        for end in ends:
            blocks.append(render(self.text[self.finished_len:end], self.dark))
            self.finished_len = end
        return blocks

    def tail_html(self) -> str:
        return render(self.text[self.finished_len:], self.dark)


def close_open_fence(text: str) -> str:
    """``text`` with a closing fence added when a code block is left open (a model that
    stops mid-block), so whatever is appended after it is not drawn inside the block."""
    opened = ""
    for line in text.splitlines():
        fence = _FENCE.match(line)
        if opened and fence and _closes(fence.group(1), opened, line):
            opened = ""
        elif not opened and fence:
            opened = fence.group(1)
    return f"{text.rstrip()}\n{opened}" if opened else text


def _closes(fence: str, opened: str, line: str) -> bool:
    return fence[0] == opened[0] and len(fence) >= len(opened) and line.strip() == fence
