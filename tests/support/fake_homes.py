"""A user's home as other apps leave it: LM Studio, Ollama (manifest + blob), Jan, GPT4All and
the Hugging Face cache, a model split in two in Downloads, a vision projector, a file that only
ends in .gguf. The models are header-only GGUFs of real layouts (tests/support/shapes.py),
sparse on disk. ``build_fake_home`` returns the names the finder should list, by source.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import shutil

import gguf

from tests.support.shapes import SHAPES, _add_metadata, _extend_sparsely, write_shape_fixture, \
    write_tensor_infos

OLLAMA_MODEL = "application/vnd.ollama.image.model"


def _shape_as(shape: str, path: pathlib.Path) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    written = write_shape_fixture(shape, path.parent)
    if written != path:
        os.replace(written, path)
    return path


def write_split(shape: str, first: pathlib.Path, parts: int = 2) -> list[pathlib.Path]:
    """``shape`` split as llama.cpp's gguf-split does: metadata in the first part, the tensors
    shared out, ``split.*`` keys in every part. ``first`` ends in -00001-of-0000N.gguf."""
    spec = SHAPES[shape]
    first.parent.mkdir(parents=True, exist_ok=True)
    base = first.name.removesuffix(f"-00001-of-{parts:05d}.gguf")
    share = -(-len(spec.tensors) // parts)
    paths = []
    for no in range(parts):
        path = first.with_name(f"{base}-{no + 1:05d}-of-{parts:05d}.gguf")
        tensors = spec.tensors[no * share:(no + 1) * share]
        writer = gguf.GGUFWriter(path, spec.architecture)
        for key, value in (spec.metadata if no == 0 else ()):
            _add_metadata(writer, key, value)
        for key, value in (("split.no", no), ("split.count", parts),
                           ("split.tensors.count", len(spec.tensors))):
            _add_metadata(writer, key, value)
        write_tensor_infos(writer, tensors)
        _extend_sparsely(path, tensors)
        paths.append(path)
    return paths


def write_ollama(root: pathlib.Path, shape: str, names: list[tuple[str, str]]) -> pathlib.Path:
    """A blob named by its hash and one manifest per (model, tag), as ``ollama pull`` leaves."""
    staging = _shape_as(shape, root / "staging.gguf")
    with open(staging, "rb") as f:      # the header is enough to name it (the file is sparse)
        digest = hashlib.sha256(f.read(1 << 20)).hexdigest()
    blob = root / "blobs" / f"sha256-{digest}"
    blob.parent.mkdir(parents=True, exist_ok=True)
    os.replace(staging, blob)
    config = root / "blobs" / f"sha256-{'0' * 64}"
    config.write_text("{}")
    for model, tag in names:
        manifest = root / "manifests" / "registry.ollama.ai" / "library" / model / tag
        manifest.parent.mkdir(parents=True, exist_ok=True)
        manifest.write_text(json.dumps({"schemaVersion": 2, "layers": [
            {"mediaType": "application/vnd.ollama.image.template", "digest": f"sha256:{'0' * 64}"},
            {"mediaType": OLLAMA_MODEL, "digest": f"sha256:{digest}", "size": blob.stat().st_size},
        ]}))
    return blob


def write_hugging_face(hub: pathlib.Path, repo: str, shape: str, file_name: str) -> pathlib.Path:
    """``models--org--repo/snapshots/<rev>/file`` linked to ``blobs/<hash>``, as the hub does."""
    folder = hub / f"models--{repo.replace('/', '--')}"
    blob = _shape_as(shape, folder / "blobs" / ("b" * 40))
    with open(blob, "r+b") as file:     # a download of its own, not a copy of Ollama's blob
        file.seek(-1, os.SEEK_END)      # of the same shape (copies are listed once)
        file.write(b"\x01")
    link = folder / "snapshots" / ("a" * 40) / file_name
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(os.path.relpath(blob, link.parent))
    return link


def build_fake_home(home: pathlib.Path) -> dict[str, str]:
    """Fill ``home``; returns {source: the name the finder should give}."""
    _shape_as("qwen3-30b-a3b-q4_k_m", home / ".lmstudio" / "models" / "lmstudio-community"
              / "Qwen3-30B-A3B-GGUF" / "Qwen3-30B-A3B-Q4_K_M.gguf")
    # A vision projector beside it: not a chat model.
    _shape_as("qwen3-30b-a3b-q4_k_m", home / ".lmstudio" / "models" / "lmstudio-community"
              / "Qwen3-30B-A3B-GGUF" / "mmproj-Qwen3-30B-A3B-F16.gguf")
    write_ollama(home / ".ollama" / "models", "gpt-oss-20b", [("gpt-oss", "20b"), ("gpt-oss", "latest")])
    _shape_as("mixtral-8x7b-q4_k_m", home / "jan" / "models" / "mixtral-8x7b-instruct" / "model.gguf")
    _shape_as("qwen3.6-35b-a3b-q4_k_m", home / ".local" / "share" / "nomic.ai" / "GPT4All"
              / "Qwen3.6-35B-A3B-Q4_K_M.gguf")
    write_hugging_face(home / ".cache" / "huggingface" / "hub", "unsloth/gpt-oss-20b-GGUF",
                       "gpt-oss-20b", "gpt-oss-20b-F16.gguf")
    downloads = home / "Downloads"
    write_split("qwen3.6-35b-a3b-q4_k_m", downloads / "Qwen3.6-35B-A3B-Q4_K_M-00001-of-00002.gguf")
    (downloads / "notes.gguf").write_text("not a model, only named like one")
    (home / "Documents").mkdir(parents=True, exist_ok=True)
    (home / "Documents" / "report.txt").write_text("an office document")
    return {"lmstudio": "Qwen3-30B-A3B-Q4_K_M", "ollama": "gpt-oss:20b",
            "jan": "mixtral-8x7b-instruct", "gpt4all": "Qwen3.6-35B-A3B-Q4_K_M",
            "huggingface": "unsloth/gpt-oss-20b-GGUF: gpt-oss-20b-F16",
            "downloads": "Qwen3.6-35B-A3B-Q4_K_M"}


def fill_with_unrelated_files(home: pathlib.Path, count: int = 10_000) -> None:
    """``count`` small files in nested folders of Documents and Downloads (none a model)."""
    for i in range(count):
        folder = home / ("Documents" if i % 2 else "Downloads") / f"project{i % 50}" / f"year{i % 7}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"file{i}.txt").write_text("x")


def remove_home(home: pathlib.Path) -> None:
    shutil.rmtree(home, ignore_errors=True)
