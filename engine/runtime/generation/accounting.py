"""The numbers of one answer, local or from an office server: tokens, times and why it ended.

``GenerationRun`` (engine.runtime.generation.generate) and ``RemoteRun`` (engine.remote.stream) each keep
one ``RunAccount``; the gauge's StepRecords and the final ResponseStats read their speeds from
it, so both kinds of answer measure the same way.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine.api import ResponseStats, Reuse, StopReason


@dataclass
class RunAccount:
    request_id: int
    prompt_tokens: int = 0
    generated: int = 0            # tokens written so far (a server: pieces, until its usage)
    thinking_tokens: int = 0      # of those, the ones spent thinking
    started: float = field(default_factory=time.perf_counter)   # the user began waiting
    first_token_at: float = 0.0
    last_token_at: float = 0.0
    prompt_s: float = 0.0         # reading the prompt, up to the first token
    ttft_s: float = 0.0           # the wait for the first token
    stop_reason: StopReason = StopReason.LENGTH
    reused_tokens: int = 0        # prompt tokens not read again (a kept state)
    reuse: Reuse = Reuse.NONE

    def token(self, now: float, prompt_s: float | None = None,
              ttft_s: float | None = None) -> None:
        """One more token written at ``now``. The first one fixes the prompt's reading time
        and the wait (default: since ``started``, all a remote caller can see)."""
        if self.generated == 0:
            self.first_token_at = now
            self.prompt_s = now - self.started if prompt_s is None else prompt_s
            self.ttft_s = now - self.started if ttft_s is None else ttft_s
        self.generated += 1
        self.last_token_at = now

    @property
    def prompt_tps(self) -> float:
        return self.prompt_tokens / self.prompt_s if self.prompt_s > 0 else 0.0

    def decode_tps(self, now: float) -> float:
        # Writing speed counts tokens after the first: the first one waits on prompt reading.
        elapsed = now - self.first_token_at
        return (self.generated - 1) / elapsed if elapsed > 0 else 0.0

    def stats(self, *, context_used: int, context_size: int, generated: int | None = None,
              decode_until: float | None = None) -> ResponseStats:
        """The final figures. ``generated``: a count better than ours (a server's usage);
        ``decode_until``: when writing ended (default: the last token)."""
        ended = time.perf_counter()
        written = self.generated
        return ResponseStats(
            request_id=self.request_id, prompt_tokens=self.prompt_tokens,
            generated_tokens=written if generated is None else generated,
            prompt_tps=self.prompt_tps if written else 0.0,
            decode_tps=self.decode_tps(decode_until or self.last_token_at) if written > 1 else 0.0,
            ttft_s=self.ttft_s if written else 0.0, total_s=ended - self.started,
            context_used=context_used, context_size=context_size,
            stop_reason=self.stop_reason, thinking_tokens=self.thinking_tokens,
            reused_tokens=self.reused_tokens, reuse=self.reuse)
