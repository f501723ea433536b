"""Each conversation's model state is kept and used exactly (engine/runtime/conversation/conversation_memory.py,
conversation_state.py): after a checkpoint, a switch (RAM) or a restart (disk) the greedy tokens
equal those after reading everything, on the attention fixture and the hybrid (qwen35moe) one;
a checkpoint restored at the wrong place, or a state from another model or other settings, is
caught."""

from __future__ import annotations

import dataclasses
import threading

import pytest

from engine.api import ChatMessage, Reuse
from engine.demo.tiny_moe import SPECS, write_tiny_moe
from engine.errors import GenerationError
from engine.runtime.conversation import conversation_memory
from engine.runtime.conversation.conversation_memory import ConversationMemory, open_memory
from engine.runtime.conversation.conversation_state import RamStore
from engine.runtime.generation.generate import GenerationRun
from engine.runtime.llama_model import NativeModel, Sampling

GREEDY = Sampling(temperature=0)
SYSTEM = ChatMessage("system", "be brief")
QUESTIONS = ("hello there, the model", "and what then of the answer?", "one more, the last")


@pytest.fixture(params=["attention", "hybrid"])
def fixture_path(request, tiny_moe_path, tiny_merged_moe_path):
    return {"attention": tiny_moe_path, "hybrid": tiny_merged_moe_path}[request.param]


@pytest.fixture
def open_model(fixture_path, cpu_recipe):
    opened: list[NativeModel] = []

    def make(path=None, **recipe) -> NativeModel:
        native = NativeModel(str(path or fixture_path), cpu_recipe(**recipe))
        opened.append(native)
        return native
    yield make
    for native in opened:
        native.close()


def _turn(model, messages, memory=None, key=None, max_tokens=12):
    run = GenerationRun(model, messages, max_tokens, GREEDY, threading.Event(), 1,
                        stop_loops=False, memory=memory, conversation_id=key)
    tokens = [record.token for record in run.records()]
    return run, tokens


def _next(messages, run, question, edited=False):
    """The next turn's messages: the answer as written, or changed (the prompt then leaves the
    context inside the old answer: a cut, or a checkpoint, is needed)."""
    answer = "an answer the model did not write" if edited else run.text
    return messages + (ChatMessage("assistant", answer), ChatMessage("user", question))


def _reference(open_model, messages, path=None, **recipe):
    """The same turn on a fresh context that reads everything."""
    _, tokens = _turn(open_model(path, **recipe), messages)
    return tokens


@pytest.mark.parametrize("edited", [False, True], ids=["answer", "edited"])
def test_after_a_checkpoint_only_the_new_part_is_read_and_tokens_are_exact(open_model, edited):
    model = open_model()
    memory = ConversationMemory(model, RamStore(2**30))
    first = (SYSTEM, ChatMessage("user", QUESTIONS[0]))
    run, _ = _turn(model, first, memory, 1)
    second = _next(first, run, QUESTIONS[1], edited)
    run2, tokens = _turn(model, second, memory, 1)
    stats = run2.stats
    assert stats.reuse == (Reuse.CHECKPOINT if model.recurrent else Reuse.IN_PLACE)
    assert stats.reused_tokens >= len(run.prompt) - 1
    assert stats.prompt_tokens + stats.reused_tokens == len(run2.prompt)
    assert tokens == _reference(open_model, second)


def test_the_same_prompt_asked_again_reuses_all_but_one_token(open_model):
    model = open_model()
    memory = ConversationMemory(model, RamStore(2**30))
    first = (SYSTEM, ChatMessage("user", QUESTIONS[0]))
    _, tokens = _turn(model, first, memory, 1)
    run, again = _turn(model, first, memory, 1)     # "regenerate"
    assert run.stats.prompt_tokens == 1 and again == tokens


def test_switching_back_restores_from_ram_exactly(open_model):
    model = open_model()
    memory = ConversationMemory(model, RamStore(2**30))
    one = (SYSTEM, ChatMessage("user", QUESTIONS[0]))
    two = (ChatMessage("user", QUESTIONS[2]),)
    run_one, _ = _turn(model, one, memory, 1)
    _turn(model, two, memory, 2)
    back = _next(one, run_one, QUESTIONS[1])
    run, tokens = _turn(model, back, memory, 1)
    assert run.stats.reuse == Reuse.RAM and run.stats.reused_tokens >= len(run_one.prompt) - 1
    assert tokens == _reference(open_model, back)
    assert memory.costs.saves == 2 and memory.costs.restores >= 1


def test_reopening_after_a_restart_restores_from_disk_exactly(open_model, tmp_path):
    model = open_model()
    memory = open_memory(model, str(tmp_path), 2**32)
    first = (SYSTEM, ChatMessage("user", QUESTIONS[0]))
    run, _ = _turn(model, first, memory, 7)
    memory.close()                                   # the engine stops: the state goes to disk
    model.close()
    assert (tmp_path / "7.rstate").stat().st_size > 0
    reopened = open_model()
    memory = open_memory(reopened, str(tmp_path), 2**32)
    second = _next(first, run, QUESTIONS[1])
    run2, tokens = _turn(reopened, second, memory, 7)
    assert run2.stats.reuse == Reuse.DISK and run2.stats.reused_tokens >= len(run.prompt) - 1
    assert tokens == _reference(open_model, second)
    memory.close()


def test_a_state_from_another_model_or_other_settings_is_never_used(
        open_model, fixture_path, tmp_path):
    first = (SYSTEM, ChatMessage("user", QUESTIONS[0]))
    model = open_model()
    memory = open_memory(model, str(tmp_path), 2**32)
    run, _ = _turn(model, first, memory, 3)
    memory.close()
    second = _next(first, run, QUESTIONS[1])
    if model.recurrent:                   # the same layout, other weights
        from tests.support.tiny_qwen35 import write_tiny_qwen35moe
        other = write_tiny_qwen35moe(tmp_path / "other.gguf", seed=1)
    else:
        other = write_tiny_moe(tmp_path / "other.gguf", dataclasses.replace(SPECS["test"], seed=1))
    for path, recipe in ((other, {}), (fixture_path, {"n_ctx": 1024})):
        assert (tmp_path / "3.rstate").exists()
        native = open_model(path, **recipe)
        changed = open_memory(native, str(tmp_path), 2**32)
        run2, tokens = _turn(native, second, changed, 3)
        assert run2.stats.reuse == Reuse.NONE and run2.stats.reused_tokens == 0
        assert tokens == _reference(open_model, second, path, **recipe)
        changed.close()              # it now holds this model's state instead
        native.close()


def test_a_checkpoint_restored_at_the_wrong_position_is_caught(open_model, monkeypatch):
    """The mutation the exactness tests above must catch: restoring one token off."""
    model = open_model()
    memory = ConversationMemory(model, RamStore(2**30))
    first = (SYSTEM, ChatMessage("user", QUESTIONS[0]))
    run, _ = _turn(model, first, memory, 1)
    second = _next(first, run, QUESTIONS[1], edited=True)
    monkeypatch.setattr(conversation_memory, "POSITION_SKEW", 1)
    try:
        _, tokens = _turn(model, second, memory, 1)
    except GenerationError:       # llama.cpp refuses the positions: caught just as well
        return
    assert tokens != _reference(open_model, second)


def test_forgetting_a_conversation_drops_every_state(open_model, tmp_path):
    model = open_model()
    memory = open_memory(model, str(tmp_path), 2**32)
    _turn(model, (ChatMessage("user", QUESTIONS[0]),), memory, 4)
    _turn(model, (ChatMessage("user", QUESTIONS[1]),), memory, 5)   # 4 is left: RAM and disk
    assert memory.disk is not None and memory.disk.flush(10)
    assert 4 in memory.ram and (tmp_path / "4.rstate").exists()
    memory.forget(4)
    memory.forget(5)                  # the one the context holds
    assert memory.disk.flush(10)
    assert 4 not in memory.ram and not (tmp_path / "4.rstate").exists()
    assert memory.current is None and model.tokens == [] and not memory.windows
    memory.close()
    assert not list(tmp_path.glob("*.rstate"))


def test_a_whole_conversation_sent_each_turn_keeps_the_window_start(tiny_moe_path, cpu_recipe):
    """A caller that sends every message each turn gets the app's window: after a slide the
    next turns read only what is new (before, every turn after the first slide slid again)."""
    model = NativeModel(str(tiny_moe_path), cpu_recipe(n_ctx=512))
    memory = ConversationMemory(model, RamStore(2**30))
    messages: tuple[ChatMessage, ...] = (SYSTEM,)
    read, left_out = [], []
    try:
        for turn in range(16):
            messages += (ChatMessage("user", f"question {turn}: " + "the model said " * 6),)
            run, _ = _turn(model, messages, memory, 1, max_tokens=16)
            read.append(run.stats.prompt_tokens)
            left_out.append(run.context_report.left_out)
            messages += (ChatMessage("assistant", run.text),)
    finally:
        model.close()
    slid = [t for t in range(1, len(left_out)) if left_out[t] != left_out[t - 1]]
    assert slid and len(slid) <= 3, left_out             # it slides, and not every turn
    steady = [read[t] for t in range(1, len(read)) if t not in slid]
    assert max(steady) < 100, (read, left_out)          # the new message and answer only
    assert min(read[t] for t in slid) > 150, (read, left_out)   # a slide reads the window


def test_the_disk_store_keeps_its_budget_and_drops_what_it_cannot_read(tmp_path):
    from engine.runtime.conversation.conversation_state import Checkpoint, DiskStore, SavedState

    saved = SavedState(tuple(range(100)), b"s" * 1000, (Checkpoint(99, "d", b"c" * 10),),
                       ("w",))
    store = DiskStore(tmp_path, "print", budget=3500)
    for key in (1, 2, 3):
        store.save(key, saved)
        assert store.flush(10)
    assert {p.name for p in tmp_path.glob("*.rstate")} == {"2.rstate", "3.rstate"}  # oldest out
    assert store.load(3) == saved
    (tmp_path / "2.rstate").write_bytes(b"ROTARY-STATE-1\n" + b"\xff" * 20)      # cut short
    assert store.load(2) is None and not (tmp_path / "2.rstate").exists()
    store.close()
    other = DiskStore(tmp_path, "another model", budget=3500)
    assert other.load(3) is None and not (tmp_path / "3.rstate").exists()
    other.close()


def test_a_thinking_template_checkpoints_before_its_generation_prompt(cpu_recipe, tmp_path):
    """Qwen3.5's template opens the answer with "<think>" and renders a past answer without
    it: the next prompt leaves this one before its last tokens. The checkpoint is taken
    where it leaves (found from the template), so the next turn still reads only the rest."""
    import pathlib

    from tests.support.tiny_qwen35 import write_tiny_qwen35moe

    template = (pathlib.Path(__file__).parents[1] / "support" / "templates" /
                "Qwen3.5-4B.jinja").read_text(encoding="utf-8")
    path = write_tiny_qwen35moe(tmp_path / "thinking.gguf", chat_template=template)
    model = NativeModel(str(path), cpu_recipe())
    fresh = NativeModel(str(path), cpu_recipe())
    try:
        memory = ConversationMemory(model, RamStore(2**30))
        first = (SYSTEM, ChatMessage("user", QUESTIONS[0]))
        ask = dict(stop_loops=False, think=False)
        run = GenerationRun(model, first, 8, GREEDY, threading.Event(), 1, memory=memory,
                            conversation_id=1, **ask)
        list(run.records())
        second = first + (ChatMessage("assistant", "A short answer."),
                          ChatMessage("user", QUESTIONS[1]))
        run2 = GenerationRun(model, second, 8, GREEDY, threading.Event(), 2, memory=memory,
                             conversation_id=1, **ask)
        tokens = [r.token for r in run2.records()]
        alone = GenerationRun(fresh, second, 8, GREEDY, threading.Event(), 3, **ask)
        expected = [r.token for r in alone.records()]
        opened = len(model.tokenize("<think>\n\n</think>\n\n"))   # bytes here: no such token
    finally:
        model.close()
        fresh.close()
    assert run.prompt[-3:] != run2.prompt[len(run.prompt) - 3:len(run.prompt)]   # it leaves
    assert run2.stats.reuse == Reuse.CHECKPOINT, run2.stats
    assert run2.stats.reused_tokens >= len(run.prompt) - opened - 2
    assert tokens == expected
