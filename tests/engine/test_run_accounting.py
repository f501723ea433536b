"""One run-accounting class for local and remote answers; stop reasons stay the stored words."""

import json

import pytest

from engine.api import ResponseStats, StopReason
from engine.runtime.generation.accounting import RunAccount


def test_stop_reasons_keep_the_words_history_and_events_already_hold():
    assert [r.value for r in StopReason] == ["eos", "length", "stopped", "loop", "reloaded",
                                             "closed", "failed"]
    stored = json.loads(json.dumps({"stop_reason": StopReason.STOPPED}))
    assert stored == {"stop_reason": "stopped"}
    assert stored["stop_reason"] == StopReason.STOPPED        # read back from history
    assert {StopReason.LENGTH: "limit"}.get("length") == "limit"
    assert f"{StopReason.EOS}" == "eos" and "%s" % StopReason.LOOP == "loop"


def test_response_stats_are_built_by_name():
    with pytest.raises(TypeError):
        ResponseStats(1, 0, 0, 0.0, 0.0, 0.0, 0.0, 0, 0, StopReason.EOS)  # type: ignore[misc]
    never = ResponseStats.never_started(7, total_s=0.5)
    assert (never.request_id, never.generated_tokens, never.total_s, never.stop_reason) == \
        (7, 0, 0.5, "stopped")


def test_speeds_from_a_token_timeline():
    account = RunAccount(3, prompt_tokens=200, started=10.0)
    account.token(12.0)                  # the wait and reading time default to since started
    assert (account.ttft_s, account.prompt_s, account.prompt_tps) == (2.0, 2.0, 100.0)
    for now in (12.5, 13.0, 13.5, 14.0):
        account.token(now)
    assert account.generated == 5 and account.decode_tps(14.0) == 2.0
    account.stop_reason = StopReason.EOS
    stats = account.stats(context_used=205, context_size=4096)
    assert (stats.decode_tps, stats.prompt_tps, stats.ttft_s, stats.generated_tokens) == \
        (2.0, 100.0, 2.0, 5)
    assert stats.stop_reason == "eos" and stats.context_used == 205
    # a server's own count replaces ours; a later end of writing slows the speed
    later = account.stats(context_used=206, context_size=4096, generated=6, decode_until=16.0)
    assert later.generated_tokens == 6 and later.decode_tps == 1.0


def test_local_timing_is_taken_from_the_step():
    account = RunAccount(1, started=0.0)
    account.prompt_tokens = 50
    account.token(5.0, prompt_s=0.5, ttft_s=0.75)
    account.token(6.0, prompt_s=9.0, ttft_s=9.0)    # only the first token sets them
    assert (account.prompt_s, account.ttft_s, account.prompt_tps) == (0.5, 0.75, 100.0)


def test_an_answer_without_tokens_has_no_speeds():
    stats = RunAccount(2).stats(context_used=0, context_size=512)
    assert (stats.prompt_tps, stats.decode_tps, stats.ttft_s, stats.generated_tokens) == \
        (0.0, 0.0, 0.0, 0)
    assert stats.stop_reason == StopReason.LENGTH and stats.total_s >= 0.0
