"""The same model file held by LM Studio and by Ollama is listed once, with both places,
named as Ollama users know it ("gem", not "gem:latest")."""

from __future__ import annotations

import os

from engine.model.finder import Place, find_models
from engine.runtime.found_models import choice_to_dict, plan_found
from engine.plan.hardware import HardwareInfo
from tests.support.fake_homes import _shape_as, write_ollama

SHAPE = "qwen3-30b-a3b-q4_k_m"


def _homes(tmp_path):
    ollama = tmp_path / "ollama"
    blob = write_ollama(ollama, SHAPE, [("gem", "latest")])
    lmstudio = tmp_path / "lmstudio" / "lmstudio-community" / "gem-GGUF"
    lmstudio.mkdir(parents=True)
    return ollama, blob, lmstudio


def _sparse_copy(source, target) -> None:
    """The fixture is a header and zeros (tens of GB, sparse): copied as written, sparse."""
    with open(source, "rb") as file:
        head = file.read(1 << 20)
    assert not any(head[-4096:])            # past the header: zeros to the end
    with open(target, "wb") as file:
        file.write(head)
        file.truncate(source.stat().st_size)


def test_a_copy_in_lm_studio_and_ollama_is_one_entry_named_as_ollama_names_it(tmp_path):
    ollama, blob, lmstudio = _homes(tmp_path)
    _sparse_copy(blob, lmstudio / "gem-Q4_K_M.gguf")
    found = find_models([Place(tmp_path / "lmstudio", "lmstudio", 6)], [ollama])
    assert [(m.name, m.source, m.also) for m in found] == [("gem", "ollama", ("lmstudio",))]
    [choice] = plan_found(found, HardwareInfo.pretend(vram_gb=8, ram_gb=32))
    said = choice_to_dict(choice)
    assert said["name"] == "gem" and said["also"] == ["lmstudio"]


def test_a_hard_link_is_one_entry_too(tmp_path):
    ollama, blob, lmstudio = _homes(tmp_path)
    os.link(blob, lmstudio / "gem-Q4_K_M.gguf")
    found = find_models([Place(tmp_path / "lmstudio", "lmstudio", 6)], [ollama])
    assert [(m.name, m.also) for m in found] == [("gem", ("lmstudio",))]


def test_a_different_model_of_the_same_size_stays_apart(tmp_path):
    ollama, blob, lmstudio = _homes(tmp_path)
    other = _shape_as(SHAPE, lmstudio / "other-Q4_K_M.gguf")
    assert other.stat().st_size == blob.stat().st_size
    with open(other, "r+b") as file:              # same header, other weights
        file.seek(-1, os.SEEK_END)
        file.write(b"\x07")
    found = find_models([Place(tmp_path / "lmstudio", "lmstudio", 6)], [ollama])
    assert sorted((m.name, m.source, m.also) for m in found) == [
        ("gem", "ollama", ()), ("other-Q4_K_M", "lmstudio", ())]


def test_ollama_names_drop_latest_and_prefer_a_tag_of_their_own(tmp_path):
    only_latest = write_ollama(tmp_path / "a", SHAPE, [("gem", "latest")])
    both = write_ollama(tmp_path / "b", SHAPE, [("gem", "latest"), ("gem", "4b")])
    assert [m.name for m in find_models([], [tmp_path / "a"])] == ["gem"]
    assert [m.name for m in find_models([], [tmp_path / "b"])] == ["gem:4b"]
    assert only_latest.name == both.name
