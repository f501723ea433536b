"""The model finder (engine/model/finder.py) and its ranked list (engine/runtime/found_models.py)
on fake homes that LM Studio, Ollama, Jan, GPT4All and the Hugging Face cache filled."""

from __future__ import annotations

import dataclasses
import json
import pathlib
import time

import pytest

from engine.__main__ import main
from engine.model.finder import Limits, Place, find_models, find_models_here, walk_gguf
from engine.model.inspect_gguf import inspect_model
from engine.plan.hardware import HardwareInfo
from engine.runtime.found_models import models_here
from tests.support.fake_homes import build_fake_home, fill_with_unrelated_files, write_split


@pytest.fixture(scope="module")
def built_home(tmp_path_factory: pytest.TempPathFactory) -> tuple[pathlib.Path, dict]:
    home = tmp_path_factory.mktemp("home")
    return home, build_fake_home(home)


@pytest.fixture
def fake_home(built_home, monkeypatch: pytest.MonkeyPatch) -> tuple[pathlib.Path, dict]:
    home, expected = built_home
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_DOWNLOAD_DIR", "XDG_DOCUMENTS_DIR",
                 "HF_HOME", "HF_HUB_CACHE", "OLLAMA_MODELS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    return home, expected


def test_each_model_is_listed_once_with_the_name_its_app_gives(fake_home) -> None:
    home, expected = fake_home
    found = find_models_here()
    by_source = {}
    for model in found:
        by_source.setdefault(model.source, []).append(model.name)
    assert by_source == {source: [name] for source, name in expected.items()}
    names = [model.name for model in found]
    assert not any("mmproj" in name for name in names)        # a projector is no chat model
    assert "notes" not in names                                 # only named .gguf


def test_a_split_model_is_one_model_of_all_its_parts(fake_home) -> None:
    home, _ = fake_home
    split = next(model for model in find_models_here() if model.source == "downloads")
    first, second = sorted((home / "Downloads").glob("Qwen3.6*-of-00002.gguf"))
    assert split.path == str(first) and split.parts == 2 and split.complete
    assert split.size == first.stat().st_size + second.stat().st_size
    # Its header reading counts the tensors of both parts, as the whole model has.
    whole = inspect_model(home / ".local/share/nomic.ai/GPT4All/Qwen3.6-35B-A3B-Q4_K_M.gguf")
    facts = inspect_model(first)
    assert len(facts.tensors) == len(whole.tensors) and facts.expert_bytes == whole.expert_bytes


def test_a_split_model_with_a_part_missing_is_said_incomplete(tmp_path) -> None:
    first, second = write_split("qwen3-30b-a3b-q4_k_m", tmp_path / "m-00001-of-00002.gguf")
    second.unlink()
    [model] = find_models([Place(tmp_path, "organisation", 2)])
    assert not model.complete
    [choice] = models_here(HardwareInfo.pretend(vram_gb=8, ram_gb=32), [tmp_path],
                           home=tmp_path / "nobody")
    assert choice.level == "unusable" and "could not be found" in choice.problem.message


def test_the_plan_ranks_them_best_fit_first(fake_home) -> None:
    choices = models_here(HardwareInfo.pretend(vram_gb=8, ram_gb=32, cores=8))
    levels = [choice.level for choice in choices]
    assert levels == sorted(levels, key=["green", "yellow", "red", "unusable"].index)
    # Mixtral (26 GiB dense-ish experts) fits less well on 8 GB + 32 GB than gpt-oss-20b.
    names = [choice.found.name for choice in choices]
    assert names.index("gpt-oss:20b") < names.index("mixtral-8x7b-instruct")
    for earlier, later in zip(choices, choices[1:]):
        if earlier.level == later.level:
            assert earlier.expected_tps[1] >= later.expected_tps[1]
    oss = choices[names.index("gpt-oss:20b")]
    assert oss.runs_on == "graphics card" and oss.planned.facts.n_expert == 32
    # The fixture's template has no thinking markup; one with <think>…</think> thinks.
    assert not oss.thinks
    thinking = dataclasses.replace(oss.planned, facts=dataclasses.replace(
        oss.planned.facts, chat_template="{{'<think>'}}{{'</think>'}}"))
    assert dataclasses.replace(oss, planned=thinking).thinks
    # On a small computer the big ones do not fit at all.
    small = models_here(HardwareInfo.pretend(vram_gb=0, ram_gb=8, cores=4))
    assert {c.level for c in small if "Qwen3.6" in c.found.name} == {"red"}


def test_a_linked_folder_loop_and_the_depth_limit_end_the_walk(tmp_path) -> None:
    deep = tmp_path / "a" / "b" / "c" / "d"
    deep.mkdir(parents=True)
    (deep / "x.gguf").write_bytes(b"GGUF")
    (tmp_path / "a" / "loop").symlink_to(tmp_path)
    assert list(walk_gguf(Place(tmp_path, "documents", 3), 1000)) == []
    assert list(walk_gguf(Place(tmp_path, "documents", 4), 1000)) == [deep / "x.gguf"]
    assert list(walk_gguf(Place(tmp_path, "documents", 9), 3)) == []      # entry budget spent


def test_ten_thousand_unrelated_files_are_walked_quickly(fake_home, capsys) -> None:
    home, expected = fake_home
    fill_with_unrelated_files(home, 10_000)      # last use of this home: it stays filled
    started = time.perf_counter()
    found = find_models_here()
    seconds = time.perf_counter() - started
    with capsys.disabled():
        print(f"\nfinder on a home with 10,000 unrelated files: {seconds * 1000:.0f} ms, "
              f"{len(found)} models")
    assert len(found) == len(expected)
    assert seconds < 5


def test_the_command_line_prints_the_same_list(fake_home, capsys) -> None:
    home, expected = fake_home
    assert main(["models", "--json", "--vram", "8", "--ram", "32"]) == 0
    rows = json.loads(capsys.readouterr().out)["models"]
    assert sorted(row["name"] for row in rows) == sorted(expected.values())
    levels = [row["fit"] for row in rows]
    assert levels == sorted(levels, key=["green", "yellow", "red", "unusable"].index)
    assert main(["models", "--vram", "8", "--ram", "32"]) == 0
    text = capsys.readouterr().out
    assert "gpt-oss:20b  (Ollama" in text and "words a second" in text


def test_limits_are_small_enough_for_a_home_folder() -> None:
    assert Limits().user_depth <= 4 and Limits().entries <= 50_000
