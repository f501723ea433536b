"""Markdown to Qt rich text, incrementally while an answer streams in.

Qt's rich text engine understands a subset of HTML, so code blocks are wrapped in a
shaded table (tables take a background in Qt; ``pre`` alone does not) and raw HTML
from the model is not passed through (model output is text, not markup).

``StreamingMarkdown`` hands out the HTML of finished blocks once and re-renders only
the unfinished tail, so the cost of a refresh does not grow with the answer's length.
"""

from __future__ import annotations

import re

import markdown

_EXTENSIONS = ["fenced_code", "tables", "sane_lists"]
_CODE_BLOCK = re.compile(r"<pre><code(?: class=\"[^\"]*\")?>(.*?)</code></pre>", re.S)


def _new_converter() -> markdown.Markdown:
    converter = markdown.Markdown(extensions=_EXTENSIONS)
    converter.preprocessors.deregister("html_block")    # raw HTML stays visible text
    converter.inlinePatterns.deregister("html")
    return converter


_converter = _new_converter()


def code_block_html(code: str, dark: bool) -> str:
    shade = "#2b2b2b" if dark else "#f0f0f0"
    return (f'<table width="100%" cellpadding="8" bgcolor="{shade}"><tr><td>'
            f'<pre style="font-family: monospace;">{code}</pre></td></tr></table>')


def render(text: str, dark: bool = False) -> str:
    _converter.reset()
    # Escape "<" ourselves: with raw HTML disabled markdown would drop the tags.
    body = _converter.convert(_escape_angle_brackets(text))
    return _CODE_BLOCK.sub(lambda m: code_block_html(m.group(1), dark), body)


def _escape_angle_brackets(text: str) -> str:
    """Escape '<' outside code (code spans and blocks escape on their own)."""
    parts = re.split(r"(```.*?(?:```|$)|`[^`\n]*`)", text, flags=re.S)
    return "".join(part if index % 2 else part.replace("<", "&lt;")
                   for index, part in enumerate(parts))


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
        self._in_fence = False
        self._boundary = 0          # last blank line outside a fence found so far

    def append(self, piece: str) -> None:
        self.text += piece

    def _scan(self) -> None:
        end = self.text.rfind("\n") + 1        # only complete lines
        while self._scan_pos < end:
            line_end = self.text.index("\n", self._scan_pos) + 1
            stripped = self.text[self._scan_pos:line_end].strip()
            if stripped.startswith("```"):
                self._in_fence = not self._in_fence
            elif not stripped and not self._in_fence:
                self._boundary = line_end
            self._scan_pos = line_end

    def take_finished_html(self) -> str:
        """HTML of the blocks finished since the last call ("" when none)."""
        self._scan()
        if self._boundary <= self.finished_len:
            return ""
        html_part = render(self.text[self.finished_len:self._boundary], self.dark)
        self.finished_len = self._boundary
        return html_part

    def tail_html(self) -> str:
        return render(self.text[self.finished_len:], self.dark)
