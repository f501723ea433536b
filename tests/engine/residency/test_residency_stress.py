"""The chat-log loader, the stress suite, how the simulator replays prompts and conversations,
the conversations' store, and the intra-token prefetch study (fixtures generated here)."""

import numpy as np
import pytest
from residency_helpers import random_trace

from engine.errors import TraceFormatError
from engine.residency.base import CONVERSATIONS_KEPT
from engine.residency.budget import Budget
from tools.residency_sim.costmodel import RTX4060_LAPTOP
from engine.residency.policy import make_policy
from tools.residency_sim.prefetch import CoOccurrence, NextRouter, layer_allowance, replay_with_prefetch
from tools.residency_sim.simulate import Counts, replay, run_policy
from tools.residency_sim.stress import SEGMENT, first128, interleaved, shuffled, stress_suite
from engine.residency.trace import Trace, load_trace

HEADER = ("# route_trace v1\n# model=/x/Tiny-MoE.gguf arch=tinymoe n_layer=3 n_expert=16 n_expert_used=2\n"
          "# layer=0 expert_bytes=100 dense_bytes=5\n# layer=1 expert_bytes=100 dense_bytes=5\n"
          "# layer=2 expert_bytes=120 dense_bytes=5\n"
          "turn,phase,step,layer,slot,expert,weight,residency,expert_bytes\n")


def write_log(path, prompt_steps=3, decode_steps=4, seed=0):
    """A route_trace log as the phone engine writes it: the last layer routes a prompt's last
    step only."""
    rng = np.random.default_rng(seed)
    lines = []
    for phase, steps in ((0, prompt_steps), (1, decode_steps)):
        for step in range(steps):
            for layer in range(3):
                if phase == 0 and layer == 2 and step < prompt_steps - 1:
                    continue
                for rank, expert in enumerate(rng.choice(16, 2, replace=False)):
                    lines.append(f"0,{phase},{step},{layer},{rank},{expert},{0.6 - 0.2 * rank},0,100")
    path.write_text(HEADER + "\n".join(lines) + "\n")
    return path


def test_a_chat_log_loads_with_its_prompt_marked(tmp_path):
    trace = load_trace(write_log(tmp_path / "tiny.route.csv"))
    assert trace.ids.shape == (7, 3, 2) and trace.n_expert == 16 and trace.name == "tiny"
    assert trace.meta["prompt_spans"] == [[0, 3]] and trace.meta["contexts"] == [[0, "turn 0"]]
    assert trace.meta["architecture"] == "tinymoe" and trace.meta["expert_bytes"] == [100, 100, 120]
    assert (trace.ids[:2, 2] == -1).all() and (trace.ids[2:] >= 0).all()   # unrouted: -1 rows
    assert np.allclose(trace.weights[3:, :, 0], 0.6)


def test_a_decode_step_missing_a_layer_is_refused(tmp_path):
    path = write_log(tmp_path / "bad.route.csv")
    lines = path.read_text().splitlines()
    path.write_text("\n".join(line for line in lines if not line.startswith("0,1,2,1,")) + "\n")
    with pytest.raises(TraceFormatError, match="decode step lacks a layer"):
        load_trace(path)
    path.write_text("# route_trace v1\nturn,phase\n0,1\n")
    with pytest.raises(TraceFormatError, match="expected the columns"):
        load_trace(path)


def _families(n_conversations=4, tokens=200, prompt=0):
    rng = np.random.default_rng(3)
    parts, meta_ctx, spans, at = [], [], [], 0
    for c in range(n_conversations):
        ids = random_trace(rng, prompt + tokens, 2, 16, 2).ids
        parts.append(ids)
        meta_ctx.append([at, f"c{c}"])
        if prompt:
            spans.append([at, at + prompt])
        at += prompt + tokens
    return Trace(np.concatenate(parts), None, {"n_expert": 16, "k": 2, "name": "fam",
                                               "contexts": meta_ctx, "prompt_spans": spans}, "fam")


def test_the_stress_cuts_keep_the_first_128_decode_tokens_of_each_conversation():
    source = _families(prompt=5)
    cut = first128(source)
    assert cut.n_tokens == 4 * (5 + 128) and cut.meta["prompt_spans"][1] == [133, 138]
    assert [c for _, c in cut.meta["contexts"]] == ["c0", "c1", "c2", "c3"]
    decode = ~source.prompt_mask()
    starts = [s for s, _ in source.meta["contexts"]]
    expected = np.concatenate([source.ids[s:][decode[s:]][:128] for s in starts])
    assert np.array_equal(cut.ids[~cut.prompt_mask()], expected)


def test_shuffled_segments_are_a_permutation_without_marks():
    source = _families()
    cut = shuffled(source, np.random.default_rng(0))
    mixed = [cut.ids[a:a + SEGMENT].tobytes() for a in range(0, cut.n_tokens, SEGMENT)]
    kept = [first128(source).ids[a:a + SEGMENT].tobytes() for a in range(0, cut.n_tokens, SEGMENT)]
    assert sorted(mixed) == sorted(kept) and mixed != kept
    assert cut.meta["contexts"] == [[0, "stream"]]


def test_interleaving_alternates_two_conversations_every_segment():
    source = _families(prompt=4)
    cut = interleaved(source)
    names = [c for _, c in cut.meta["contexts"]]
    assert names[:8] == ["c0", "c1"] * 4 and names[8:] == ["c2", "c3"] * 4
    assert [s for s, _ in cut.meta["contexts"]][:3] == [0, 4 + SEGMENT, 2 * (4 + SEGMENT)]
    assert cut.meta["prompt_spans"][:2] == [[0, 4], [36, 40]]         # each prompt opens its talk
    assert interleaved(_families(n_conversations=1)) is None
    assert [t.name for t in stress_suite([source])] == ["fam/first128", "fam/shuffled", "fam/interleaved"]


class Spy:
    """Wraps a policy and records what the simulator hands it."""

    def __init__(self, policy):
        self.policy, self.prompts, self.switches = policy, [], []

    def __getattr__(self, name):
        return getattr(self.policy, name)

    def observe_prompt(self, routing):
        self.prompts.append(np.array(routing))
        return self.policy.observe_prompt(routing)

    def switch_context(self, conversation_id):
        self.switches.append(conversation_id)
        return self.policy.switch_context(conversation_id)


def test_the_simulator_hands_prompts_to_observe_prompt_and_counts_decode_only():
    source = interleaved(_families(prompt=4))
    spy = Spy(make_policy("lru", Budget.uniform(2, 4), 16, 2))
    result = run_policy(source, spy)
    assert [len(p) for p in spy.prompts] == [4] * 4 and spy.prompts[1].dtype == np.int32
    assert np.array_equal(spy.prompts[1], source.ids[36:40])
    assert spy.switches[:4] == [0, 1, 0, 1] and set(spy.switches) == {0, 1, 2, 3}
    assert result.decode.hits + result.decode.misses == 512 * 2 * 2    # decode tokens x layers x k
    assert result.warm_uploads > 0 and result.prompt_tokens == 16


def test_conversations_keep_the_last_16_and_take_int_ids_only():
    policy = make_policy("lfru", Budget.uniform(1, 4), 64, 2)
    for conversation in range(CONVERSATIONS_KEPT + 2):             # 0 .. 17; 17 is current
        policy.switch_context(conversation)
        replay(policy, np.array([[[2 * conversation % 64, 2 * conversation % 64 + 1]]]))
    assert len(policy.conversations) == CONVERSATIONS_KEPT and 0 not in policy.conversations
    assert policy.switch_context(0) == []                            # forgotten: nothing back
    assert {e for _, e, _ in policy.switch_context(5)} == {8, 9, 10, 11}   # kept: its set comes back
    assert policy.switch_context(5) == []                            # already current
    with pytest.raises(TypeError, match="conversation id is an int"):
        policy.switch_context("5")


def test_a_layer_moves_what_its_compute_time_allows():
    cost = RTX4060_LAPTOP.expert_seconds()
    compute = RTX4060_LAPTOP.token_fixed_s / 40 + 3 * cost["hit"] + 2 * cost["cpu"] + 50e-6
    assert layer_allowance(RTX4060_LAPTOP, 3, 2, True) == pytest.approx(compute / cost["upload"])
    assert layer_allowance(RTX4060_LAPTOP, 3, 0, False) < layer_allowance(RTX4060_LAPTOP, 3, 0, True)


def test_prefetch_with_a_perfect_next_router_turns_misses_into_hits():
    trace = random_trace(np.random.default_rng(4), 60, 3, 32, 2, hot=20)
    budget = Budget.uniform(3, 6)
    plain = replay(make_policy("lru", budget, 32, 2), trace.ids)
    ahead = replay_with_prefetch(make_policy("lru", budget, 32, 2), trace.ids, NextRouter(trace.ids),
                                 Counts())
    assert ahead.prefetches > 0 and ahead.hits > plain.hits
    assert ahead.hits + ahead.misses == plain.hits + plain.misses


def test_co_occurrence_ranks_what_ran_with_the_previous_layer():
    predictor = CoOccurrence(2, 8)
    predictor.learn([[0, 1], [5, 6]])
    predictor.learn([[0, 2], [5, 7]])
    assert predictor.predict(0, 1, [0, 3]) == [5, 6, 7]               # 5 twice with 0; then by id
    assert predictor.predict(0, 1, [4, 3]) == []
