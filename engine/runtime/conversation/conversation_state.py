"""Each conversation's model state, kept when the conversation is left: the records, their
fingerprint, a bounded store in RAM and a store on disk. No llama.cpp calls here (the
engine thread's ``ConversationMemory`` in engine/runtime/conversation/conversation_memory.py takes and
restores the states); the disk store writes on a thread of its own, from bytes.

A state is only ever used with the model and settings it was taken with: every entry
carries a fingerprint (the model file's identity, its chat template, the context size, the
KV type, flash attention and the llama.cpp build); a disk entry whose fingerprint differs is
deleted unread. llama-server keeps idle slots in RAM (``--cache-ram``) and saves slots
without their checkpoints (``--slot-save-path``); here a conversation's tokens, state and
checkpoints travel together, so that one reopened after a restart reads only what is new.
"""

from __future__ import annotations

import array
import hashlib
import json
import logging
import os
import pathlib
import queue
import shutil
import sys
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Sequence

log = logging.getLogger("rotary.conversation_state")

MAGIC = b"ROTARY-STATE-1\n"
MAX_HEADER = 1 << 20
SUFFIX = ".rstate"
RAM_SHARE = 4                    # the RAM store takes at most a quarter of the RAM left free
RAM_MIN = 64 * 2**20
RAM_MAX = 4 * 2**30
DISK_SHARE = 10                  # the disk store takes at most a tenth of the disk's free space
DISK_MAX = 8 * 2**30
MAX_CHECKPOINTS = 2              # per conversation: where the last prompt ended, and a read-ahead


def token_digest(tokens: Sequence[int]) -> str:
    """What a checkpoint's tokens were, compared with a prompt's prefix before any restore."""
    return hashlib.blake2b(array.array("i", tokens).tobytes(), digest_size=16).hexdigest()


@dataclass(frozen=True)
class Checkpoint:
    """The sequence's state right after ``position`` tokens: for a recurrent or hybrid model its
    partial (recurrent) state, for an attention model nothing (the KV prefix is cut instead)."""

    position: int
    digest: str                  # token_digest of the first ``position`` tokens
    state: bytes = b""

    @property
    def nbytes(self) -> int:
        return len(self.state)


@dataclass(frozen=True)
class SavedState:
    """A conversation's whole sequence state when it was left, with its checkpoints."""

    tokens: tuple[int, ...]
    state: bytes                 # llama_state_seq_get_data: attention KV and recurrent state
    checkpoints: tuple[Checkpoint, ...] = ()
    window: tuple[str, ...] = ()   # the window's first kept messages (ConversationWindows)

    @property
    def nbytes(self) -> int:
        return len(self.state) + sum(c.nbytes for c in self.checkpoints) + 4 * len(self.tokens)


def fingerprint(model_path: str, template: str, recipe, build: str) -> str:
    """What a state depends on. The model file by path, size, modification time and its
    first 64 KiB (the header), so that another file at the same place never matches."""
    path = pathlib.Path(model_path)
    stat = path.stat()
    with path.open("rb") as handle:
        head = hashlib.sha256(handle.read(65536)).hexdigest()
    parts = {"model": str(path.resolve()), "size": stat.st_size, "mtime": stat.st_mtime_ns,
             "head": head, "template": hashlib.sha256(template.encode()).hexdigest(),
             "n_ctx": recipe.n_ctx, "kv": recipe.kv_type, "flash": recipe.flash_attn,
             "gpu_layers": recipe.n_gpu_layers, "build": build}
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def ram_budget(available_bytes: int, planned_bytes: int) -> int:
    """Bytes of RAM for conversations left: a share of what the plan leaves free."""
    free = max(0, available_bytes - planned_bytes)
    return max(RAM_MIN, min(RAM_MAX, free // RAM_SHARE))


def disk_budget(folder: pathlib.Path) -> int:
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return 0
    return min(DISK_MAX, free // DISK_SHARE)


class RamStore:
    """Conversations' states in host RAM, least recently left first out, within ``budget``."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._entries: OrderedDict[int, SavedState] = OrderedDict()

    @property
    def nbytes(self) -> int:
        return sum(entry.nbytes for entry in self._entries.values())

    def put(self, key: int, saved: SavedState) -> None:
        self._entries.pop(key, None)
        if saved.nbytes > self.budget:
            return
        self._entries[key] = saved
        while self.nbytes > self.budget:
            dropped, _ = self._entries.popitem(last=False)
            log.info("conversation %s's state left RAM (budget %d bytes)", dropped, self.budget)

    def take(self, key: int) -> SavedState | None:
        """The state, out of the store: the context holds it from now on."""
        return self._entries.pop(key, None)

    def drop(self, key: int) -> None:
        self._entries.pop(key, None)

    def __contains__(self, key: int) -> bool:
        return key in self._entries


@dataclass
class _Write:
    key: int
    saved: SavedState | None     # None: delete the entry
    done: threading.Event = field(default_factory=threading.Event)


class DiskStore:
    """One file per conversation in ``folder``: a JSON header (fingerprint, sizes,
    checkpoints) and the blobs. Writes go through one writer thread; a read of a conversation
    with a write on its way waits for it."""

    def __init__(self, folder: str | os.PathLike, fingerprint: str,
                 budget: int | None = None) -> None:
        self.folder = pathlib.Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        for unfinished in self.folder.glob("*.part"):     # a write cut off by a hard stop
            unfinished.unlink(missing_ok=True)
        self.fingerprint = fingerprint
        self.budget = disk_budget(self.folder) if budget is None else budget
        self._queue: queue.Queue[_Write | None] = queue.Queue()
        self._pending: dict[int, _Write] = {}
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="rotary-state-writer",
                                        daemon=True)
        self._thread.start()

    def path(self, key: int) -> pathlib.Path:
        return self.folder / f"{key}{SUFFIX}"

    # ---- engine thread ---------------------------------------------------------------

    def save(self, key: int, saved: SavedState) -> None:
        self._submit(_Write(key, saved))

    def delete(self, key: int) -> None:
        self._submit(_Write(key, None))

    def load(self, key: int) -> SavedState | None:
        """The conversation's state, or None: none kept, unreadable, or taken with another
        model or other settings (then deleted)."""
        self._wait_for(key)
        path = self.path(key)
        try:
            header, blobs = _read_entry(path)
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError) as error:
            log.warning("conversation %s's kept state is unreadable (%s): deleted", key, error)
            path.unlink(missing_ok=True)
            return None
        if header.get("fingerprint") != self.fingerprint:
            log.info("conversation %s's kept state was taken with another model or other "
                     "settings: deleted, everything is read", key)
            path.unlink(missing_ok=True)
            return None
        return _saved_from(header, blobs)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait for the writes on their way; False if they did not end in time."""
        with self._lock:
            pending = list(self._pending.values())
        deadline = None if timeout is None else time.monotonic() + timeout
        for write in pending:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not write.done.wait(left):
                return False
        return True

    def close(self, timeout: float = 30.0) -> None:
        self.flush(timeout)
        self._queue.put(None)
        self._thread.join(timeout)

    def _submit(self, write: _Write) -> None:
        with self._lock:
            self._pending[write.key] = write
        self._queue.put(write)

    def _wait_for(self, key: int) -> None:
        with self._lock:
            write = self._pending.get(key)
        if write is not None:
            write.done.wait()

    # ---- the writer thread -----------------------------------------------------------

    def _run(self) -> None:
        while True:
            write = self._queue.get()
            if write is None:
                return
            try:
                self._apply(write)
            except OSError as error:
                log.warning("conversation %s's state not written (%s)", write.key, error)
            finally:
                with self._lock:
                    if self._pending.get(write.key) is write:
                        del self._pending[write.key]
                write.done.set()

    def _apply(self, write: _Write) -> None:
        path = self.path(write.key)
        if write.saved is None:
            path.unlink(missing_ok=True)
            return
        if write.saved.nbytes > self.budget:
            path.unlink(missing_ok=True)       # an older, shorter state would only mislead
            return
        temporary = path.with_suffix(".part")
        with temporary.open("wb") as handle:
            _write_entry(handle, self.fingerprint, write.saved)
        os.replace(temporary, path)
        self._keep_budget(path)

    def _keep_budget(self, newest: pathlib.Path) -> None:
        """Oldest entries out until the folder holds at most ``budget`` bytes."""
        entries = sorted(self.folder.glob(f"*{SUFFIX}"), key=lambda p: p.stat().st_mtime_ns)
        total = sum(p.stat().st_size for p in entries)
        for path in entries:
            if total <= self.budget:
                break
            if path != newest:
                total -= path.stat().st_size
                path.unlink(missing_ok=True)
                log.info("kept state %s deleted (disk budget %d bytes)", path.name, self.budget)


def forget_kept_state(folder: str | os.PathLike, key: int) -> None:
    """Delete a conversation's entry with no model loaded (the conversation was deleted)."""
    (pathlib.Path(folder) / f"{key}{SUFFIX}").unlink(missing_ok=True)


def _write_entry(handle, fingerprint: str, saved: SavedState) -> None:
    tokens = array.array("i", saved.tokens)
    if sys.byteorder != "little":
        tokens.byteswap()
    blobs = [tokens.tobytes(), saved.state, *(c.state for c in saved.checkpoints)]
    header = {"fingerprint": fingerprint, "sizes": [len(b) for b in blobs],
              "checkpoints": [[c.position, c.digest] for c in saved.checkpoints],
              "window": list(saved.window)}
    encoded = json.dumps(header).encode()
    handle.write(MAGIC + len(encoded).to_bytes(8, "little") + encoded)
    for blob in blobs:
        handle.write(blob)


def _read_entry(path: pathlib.Path) -> tuple[dict, list[bytes]]:
    with path.open("rb") as handle:
        if handle.read(len(MAGIC)) != MAGIC:
            raise ValueError("not a Rotary state file")
        size = int.from_bytes(handle.read(8), "little")
        if size > MAX_HEADER:
            raise ValueError(f"a header of {size} bytes")
        header = json.loads(handle.read(size))
        blobs = [handle.read(size) for size in header["sizes"]]
    if [len(b) for b in blobs] != header["sizes"]:
        raise ValueError("the file is shorter than its header says")
    return header, blobs


def _saved_from(header: dict, blobs: list[bytes]) -> SavedState:
    tokens = array.array("i")
    tokens.frombytes(blobs[0])
    if sys.byteorder != "little":
        tokens.byteswap()
    checkpoints = tuple(Checkpoint(int(position), str(digest), state) for (position, digest), state
                        in zip(header["checkpoints"], blobs[2:]))
    return SavedState(tuple(tokens), blobs[1], checkpoints, tuple(header.get("window", ())))
