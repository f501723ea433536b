"""One entry for a model two apps hold names both places."""

from __future__ import annotations

from app.bridge.facade import FoundChoice
from app.setup.model_list import choice_text


def test_the_entry_names_every_place_that_holds_the_file():
    choice = FoundChoice("/blobs/sha256-1", "gem", "ollama", 3 * 2**30, "green", "Fits well.",
                         (20.0, 30.0), "qwen3moe", 128, False, "graphics card", ("lmstudio",))
    head = choice_text(choice).splitlines()[0]
    assert head == "gem  (from Ollama and from LM Studio, 3.0 GB)"
