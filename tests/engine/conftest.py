"""Shared fixtures for engine tests. Each block is self-contained; append new ones below."""

from __future__ import annotations

import pathlib
from typing import Callable

import pytest

from tests.support.shapes import SHAPES, write_shape_fixture


# ---- shape fixtures: header-only GGUFs of real models (sparse files, ~50 KB on disk each) ----

@pytest.fixture(scope="session")
def shape_fixture_dir(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    directory = tmp_path_factory.mktemp("shapes")
    for name in SHAPES:
        write_shape_fixture(name, directory)
    return directory


@pytest.fixture(scope="session")
def shape_fixture(shape_fixture_dir: pathlib.Path) -> Callable[[str], pathlib.Path]:
    """``shape_fixture("gpt-oss-20b")`` -> path of that fixture file."""
    def path_of(name: str) -> pathlib.Path:
        assert name in SHAPES, f"unknown shape fixture {name!r}; known: {sorted(SHAPES)}"
        return shape_fixture_dir / f"{name}.gguf"
    return path_of
