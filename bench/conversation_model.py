"""A modelled figure for the reference model (bench/bench_conversation_state.py prints it):
the time to the first word at turn 30 of a conversation, before and after the engine keeps
each conversation's state. Arithmetic on stated assumptions, never a measurement.

Assumptions (each one a published or measured number, or a round guess said as such):
- Qwen3.6-35B-A3B Q4_K_M on an 8 GB RTX 4060 Laptop: prompts read at 74.2 tokens/s and
  answers written at 21.06 tokens/s (the paper's numbers; shared/notes/anchors.md).
- A 16K context; the engine's room (engine/runtime/conversation/context_window.py): 1,024 tokens for the
  answer and a quarter (4,096) for thinking, so a prompt may take 11,264 tokens.
- Each turn (a guess): the user writes 60 tokens, the answer's text is 400 tokens (its
  thinking is never sent again), the template adds 10.
- Before (main at 78583e1): a hybrid model reads the whole window every turn (its recurrent
  state cannot be cut, and the template drops past thinking, so the prompt never extends the
  cache); windows slide to two thirds of the room.
- After: a checkpoint (62.8 MiB, restored in 5-50 ms by llama-server's measurement; 50 ms
  taken here) and the answer read ahead while the user types, so a turn reads the user's
  words and the headers (70 tokens); windows slide to half the room, and a slide reads the
  kept half again unless it was read ahead.
- Switching back to, or reopening, a conversation of 10,000 tokens: before, all of it is read;
  after, its state (20 KiB of attention KV per token at f16 plus the 62.8 MiB checkpoint) is
  copied back from RAM (10 GB/s, a guess) or disk (1.5 GB/s, a guess for an NVMe SSD).
"""

from __future__ import annotations

PROMPT_TPS, DECODE_TPS = 74.2, 21.06
N_CTX, ANSWER_ROOM, THINKING_ROOM = 16384, 1024, 4096
USER, ANSWER, TEMPLATE = 60, 400, 10
CHECKPOINT_BYTES, KV_PER_TOKEN = 62.8 * 2**20, 20 * 1024
RESTORE_S = 0.05
RAM_GBS, DISK_GBS = 10.0, 1.5


def window_at(turn: int, target_share: float) -> tuple[int, bool]:
    """The window's tokens at ``turn`` and whether that turn slid, under one slide rule."""
    limit = N_CTX - ANSWER_ROOM - THINKING_ROOM
    window, slid = 0, False
    for _ in range(turn):
        window += USER + TEMPLATE
        slid = window > limit
        if slid:
            window = int(limit * target_share)
        window += ANSWER
    return window - ANSWER, slid


def first_word_s(read_tokens: float, extra_s: float = 0.0) -> float:
    return read_tokens / PROMPT_TPS + 1 / DECODE_TPS + extra_s


def print_reference_model(verdicts, turn: int = 30) -> None:
    before_window, _ = window_at(turn, 2 / 3)
    after_window, slid = window_at(turn, 1 / 2)
    before = first_word_s(before_window)
    after = first_word_s(after_window if slid else USER + TEMPLATE, RESTORE_S)
    print("\n--- modelled: reference model, 8 GB laptop, 16K context (assumptions in "
          "bench/conversation_model.py)")
    verdicts.info(f"reference: s to first word at turn {turn}, before", before, kind="modelled")
    verdicts.info(f"reference: s to first word at turn {turn}, after", after, kind="modelled")
    state = 10_000 * KV_PER_TOKEN + CHECKPOINT_BYTES
    verdicts.info("reference: s to first word back in a 10,000-token chat, before",
                  first_word_s(10_000), kind="modelled")
    verdicts.info("reference: s to first word back in a 10,000-token chat, after (RAM)",
                  first_word_s(USER + TEMPLATE, state / (RAM_GBS * 1e9)), kind="modelled")
    verdicts.info("reference: s to first word back in a 10,000-token chat, after restart",
                  first_word_s(USER + TEMPLATE, state / (DISK_GBS * 1e9)), kind="modelled")
    verdicts.info("reference: MiB kept per 10,000-token chat", state / 2**20, kind="modelled")
