"""Find the GGUF models already on this computer: where other apps and the user keep them.

Looks in LM Studio's, Ollama's, Jan's, GPT4All's and the Hugging Face cache's folders, the
user's Downloads and Documents, and the folders IT names (the organisation's policy file),
never the whole disk: each folder is walked to a fixed depth, up to a fixed number of
entries, without entering linked folders (so no link loops); files reached through a link
(the Hugging Face cache links its snapshots to blobs) are listed once, by their real path.

A model split into parts (``name-00001-of-00003.gguf``) is one model, loaded from its first
part; vision projector files (``mmproj``) are not chat models and are left out. Ollama keeps
its models as blobs named by hash; its manifests say which blob is the model and give the
name users know (``qwen3:30b``). Only file names and a file's first four bytes are read
here; what a model is comes from its header (engine/model/inspect_gguf.py).

Hand-written rather than a library: a walk with these limits is a few lines of os.scandir.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Iterator

import platformdirs

GGUF_MAGIC = b"GGUF"
SPLIT_PART = re.compile(r"^(?P<base>.+)-(?P<no>\d{5})-of-(?P<count>\d{5})\.gguf$", re.IGNORECASE)
FINGERPRINT_BYTES = 1 << 20     # read at each end of same-sized files to tell copies apart
OLLAMA_MODEL_LAYER = "application/vnd.ollama.image.model"
OLLAMA_DEFAULT_HOST = "registry.ollama.ai"
SKIPPED_FOLDERS = frozenset({"node_modules", "__pycache__", "site-packages", "blobs"})

# Where each app keeps its models (sources, in the order the list names them).
LMSTUDIO, OLLAMA, JAN, GPT4ALL, HUGGINGFACE = "lmstudio", "ollama", "jan", "gpt4all", "huggingface"
DOWNLOADS, DOCUMENTS, ORGANISATION = "downloads", "documents", "organisation"


@dataclass(frozen=True)
class Limits:
    """How far one folder is walked: app folders are shallow, Downloads is not searched deep."""

    app_depth: int = 6            # HF: hub/models--org--repo/snapshots/<rev>/sub/file.gguf
    user_depth: int = 3           # Downloads/Documents: a model in a folder in a folder
    entries: int = 20_000         # directory entries looked at per folder


DEFAULT_LIMITS = Limits()


@dataclass(frozen=True)
class Place:
    path: Path
    source: str                   # one of the names above
    depth: int


@dataclass(frozen=True)
class FoundModel:
    path: str                     # the file to load (a split model's first part)
    name: str                     # as the user knows it: Ollama's name, else the file's
    source: str
    size: int                     # bytes, all parts together
    parts: int = 1
    complete: bool = True         # every part of a split model is there
    also: tuple[str, ...] = ()    # other sources holding the same file (a copy or a link)


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value) if value else None


def _huggingface_hub(home: Path) -> Path:
    hub = _env_path("HF_HUB_CACHE")
    if hub:
        return hub
    hf_home = _env_path("HF_HOME")
    return (hf_home or home / ".cache" / "huggingface") / "hub"


def _app_folders(home: Path) -> list[tuple[str, Path]]:
    """The folders other apps use, for this system (platformdirs says where "app data" is)."""
    data = Path(platformdirs.user_data_dir(appauthor=False))
    if _under(data, Path.home()) and home != Path.home():
        data = home / data.relative_to(Path.home())       # a test's (or another user's) home
    folders = [
        (LMSTUDIO, home / ".lmstudio" / "models"), (LMSTUDIO, home / ".cache" / "lm-studio" / "models"),
        (JAN, home / "jan" / "models"), (JAN, data / "Jan" / "data" / "llamacpp" / "models"),
        (JAN, data / "Jan" / "data" / "models"),
        (GPT4ALL, data / "nomic.ai" / "GPT4All"), (HUGGINGFACE, _huggingface_hub(home)),
    ]
    if sys.platform == "win32":   # Jan keeps its data in the roaming app data there
        roaming = _env_path("APPDATA")
        if roaming:
            folders += [(JAN, roaming / "Jan" / "data" / "llamacpp" / "models"),
                        (JAN, roaming / "Jan" / "data" / "models")]
    return folders


def _user_folders(home: Path) -> list[tuple[str, Path]]:
    if home == Path.home():
        return [(DOWNLOADS, Path(platformdirs.user_downloads_dir())),
                (DOCUMENTS, Path(platformdirs.user_documents_dir()))]
    return [(DOWNLOADS, home / "Downloads"), (DOCUMENTS, home / "Documents")]


def _under(path: Path, parent: Path) -> bool:
    try:
        path.relative_to(parent)
    except ValueError:
        return False
    return True


def known_places(home: Path | None = None, organisation: Iterable[str | os.PathLike] = (),
                 limits: Limits = DEFAULT_LIMITS) -> list[Place]:
    """Every folder worth a look, IT's first; ``home`` is the user's home (tests pass one)."""
    home = home or Path.home()
    places = [Place(Path(folder), ORGANISATION, limits.app_depth) for folder in organisation]
    places += [Place(path, source, limits.app_depth) for source, path in _app_folders(home)]
    places += [Place(path, source, limits.user_depth) for source, path in _user_folders(home)]
    return places


def ollama_roots(home: Path | None = None) -> list[Path]:
    """Ollama's model folders: OLLAMA_MODELS, the user's, and the Linux service's."""
    home = home or Path.home()
    roots = [_env_path("OLLAMA_MODELS"), home / ".ollama" / "models"]
    if sys.platform.startswith("linux") and home == Path.home():
        roots.append(Path("/usr/share/ollama/.ollama/models"))
    return [root for root in roots if root is not None]


# ---- walking ----------------------------------------------------------------------------

def _bounded(root: Path, depth_limit: int, entries: int) -> Iterator[tuple[os.DirEntry, int]]:
    """Every entry under ``root`` (with its depth, 0 at the top) down to ``depth_limit``, at most
    ``entries`` looked at; linked folders are not entered, hidden folders below the top are
    skipped."""
    stack, seen = [(root, 0)], 0
    while stack:
        folder, depth = stack.pop()
        try:
            with os.scandir(folder) as listing:
                for entry in listing:
                    seen += 1
                    if seen > entries:
                        return
                    yield entry, depth
                    if depth < depth_limit and _is_plain_folder(entry):
                        stack.append((Path(entry.path), depth + 1))
        except OSError:         # gone, not allowed, not a folder: nothing there for us
            continue


def walk_gguf(place: Place, entries: int) -> Iterator[Path]:
    """``*.gguf`` files under ``place`` to its depth, at most ``entries`` entries looked at."""
    for entry, _ in _bounded(place.path, place.depth, entries):
        if entry.name.lower().endswith(".gguf") and _is_file(entry):
            yield Path(entry.path)


def _is_file(entry: os.DirEntry) -> bool:
    try:
        return entry.is_file()              # follows a link: the HF cache's snapshots are links
    except OSError:
        return False


def _is_plain_folder(entry: os.DirEntry) -> bool:
    try:
        return (entry.is_dir(follow_symlinks=False) and not entry.name.startswith(".")
                and entry.name not in SKIPPED_FOLDERS)
    except OSError:
        return False


def is_gguf(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == GGUF_MAGIC
    except OSError:
        return False


def is_projector(path: Path) -> bool:
    """A vision projector (llama.cpp's ``mmproj`` files): not a chat model."""
    return "mmproj" in path.name.lower()


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


# ---- one model per file, or per set of parts ---------------------------------------------

def _model_of(path: Path, source: str, name: str = "") -> FoundModel | None:
    """The model ``path`` stands for: None for a projector, a later part or a non-GGUF."""
    match = SPLIT_PART.match(path.name)
    if match is None:
        if not is_gguf(path):
            return None
        return FoundModel(str(path), name or _file_name(path), source, _size(path))
    if int(match["no"]) != 1:
        return None             # counted with its first part
    count = int(match["count"])
    parts = [path.with_name(f"{match['base']}-{no:05d}-of-{match['count']}.gguf")
             for no in range(1, count + 1)]
    present = [part for part in parts if part.is_file()]
    if not is_gguf(path):
        return None
    return FoundModel(str(path), name or match["base"], source,
                      sum(_size(part) for part in present), count, len(present) == count)


def _file_name(path: Path) -> str:
    """The file's name, or its folder's where the file is just "model.gguf" (Jan)."""
    return path.parent.name if path.stem.lower() == "model" and path.parent.name else path.stem


def _hugging_face_name(path: Path) -> str:
    """``models--org--repo/snapshots/<rev>/file.gguf`` -> ``org/repo: file``."""
    for parent in path.parents:
        if parent.name.startswith("models--"):
            repo = parent.name.removeprefix("models--").replace("--", "/")
            match = SPLIT_PART.match(path.name)
            return f"{repo}: {match['base'] if match else path.stem}"
    return ""


# ---- Ollama ---------------------------------------------------------------------------

def ollama_models(root: Path, limits: Limits = DEFAULT_LIMITS) -> list[FoundModel]:
    """Each model blob the manifests under ``root/manifests`` name, with Ollama's name for it
    (``host/namespace/model/tag`` -> ``model:tag``, or ``namespace/model:tag`` off the
    library); a blob with several tags is listed once, under its most specific name."""
    names: dict[Path, list[str]] = {}
    manifests = Place(root / "manifests", OLLAMA, 4)
    for manifest in _manifest_files(manifests, limits.entries):
        blob = _model_blob(root, manifest)
        if blob is not None:
            names.setdefault(blob, []).append(_ollama_name(manifest.relative_to(manifests.path)))
    found = []
    for blob, tags in names.items():
        if is_gguf(blob):        # a tag of its own ("gemma3:4b") before "latest" ("gemma3")
            chosen = sorted(tags, key=lambda tag: (":" not in tag.rsplit("/", 1)[-1], tag))[0]
            found.append(FoundModel(str(blob), chosen, OLLAMA, _size(blob)))
    return found


def _manifest_files(place: Place, entries: int) -> Iterator[Path]:
    """Ollama's manifests: the files at the last level (registry/namespace/model/tag)."""
    for entry, depth in _bounded(place.path, place.depth - 1, entries):
        if depth == place.depth - 1 and _is_file(entry):
            yield Path(entry.path)


def _model_blob(root: Path, manifest: Path) -> Path | None:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        layers = data.get("layers", []) if isinstance(data, dict) else []
        digest = next(layer["digest"] for layer in layers if isinstance(layer, dict)
                      and layer.get("mediaType") == OLLAMA_MODEL_LAYER)
    except (OSError, ValueError, StopIteration, KeyError, TypeError):
        return None
    if not isinstance(digest, str) or not re.fullmatch(r"sha256[:-][0-9a-f]{64}", digest):
        return None
    return root / "blobs" / digest.replace(":", "-")


def _ollama_name(relative: Path) -> str:
    """As ``ollama list`` users type it: ``gemma3:4b``, and ``gemma3`` for the ``latest`` tag
    (Ollama's default, never typed)."""
    host, *middle, model, tag = relative.parts
    namespace = "/".join(middle)
    name = model if tag == "latest" else f"{model}:{tag}"
    if host == OLLAMA_DEFAULT_HOST and namespace == "library":
        return name
    prefix = namespace if host == OLLAMA_DEFAULT_HOST else f"{host}/{namespace}"
    return f"{prefix}/{name}"


# ---- everything together ------------------------------------------------------------------

def find_models(places: Iterable[Place], ollama: Iterable[Path] = (),
                limits: Limits = DEFAULT_LIMITS) -> list[FoundModel]:
    """Every model in ``places`` and the Ollama folders, each once (by its real path, the
    first place that has it naming it; a copy of the same file elsewhere joins it, named as
    Ollama names it: ``merge_copies``); in the order found."""
    found: dict[str, FoundModel] = {}

    def add(model: FoundModel | None) -> None:
        if model is not None:
            found.setdefault(os.path.realpath(model.path), model)

    for root in ollama:
        for model in ollama_models(root, limits):
            add(model)
    for place in places:
        for path in walk_gguf(place, limits.entries):
            if not is_projector(path):
                name = _hugging_face_name(path) if place.source == HUGGINGFACE else ""
                add(_model_of(path, place.source, name))
    return merge_copies(list(found.values()))


# ---- the same file in two apps' folders -------------------------------------------------------

def _fingerprint(model: FoundModel) -> bytes | None:
    """Its size and first and last MiB: two copies of one download agree, two different
    models of the same size do not (the header names its tensors and metadata; the data
    differs at the end). Two reads, never the whole file (tens of GB)."""
    try:
        with open(model.path, "rb") as file:
            head = file.read(FINGERPRINT_BYTES)
            file.seek(max(0, model.size - FINGERPRINT_BYTES))
            tail = file.read(FINGERPRINT_BYTES)
    except OSError:
        return None
    return hashlib.sha256(model.size.to_bytes(8, "little") + head + tail).digest()


def merge_copies(models: list[FoundModel]) -> list[FoundModel]:
    """One entry for a file that LM Studio and Ollama (or any two places) both hold, as a copy
    or a hard link: named as Ollama names it where Ollama has it, with the other places in
    ``also``; in the order found. Only files of the same size are read (their fingerprint)."""
    sizes: dict[int, int] = {}
    for model in models:
        if model.parts == 1 and model.size:
            sizes[model.size] = sizes.get(model.size, 0) + 1
    groups: dict[bytes, list[FoundModel]] = {}
    order: list[bytes | FoundModel] = []
    for model in models:
        key = _fingerprint(model) if sizes.get(model.size, 0) > 1 and model.parts == 1 else None
        if key is None:
            order.append(model)
            continue
        if key not in groups:
            order.append(key)
        groups.setdefault(key, []).append(model)
    return [_one_of(groups[item]) if isinstance(item, bytes) else item for item in order]


def _one_of(copies: list[FoundModel]) -> FoundModel:
    named = next((model for model in copies if model.source == OLLAMA), copies[0])
    also = tuple(dict.fromkeys(m.source for m in copies if m.source != named.source))
    return replace(named, also=also)


def find_models_here(organisation: Iterable[str | os.PathLike] = (), home: Path | None = None,
                     limits: Limits = DEFAULT_LIMITS) -> list[FoundModel]:
    """The models on this computer and in the organisation's folders."""
    return find_models(known_places(home, organisation, limits), ollama_roots(home), limits)
