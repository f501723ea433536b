"""A bounds-checked reader for the GGUF header: metadata and tensor infos, never tensor data.

``gguf.GGUFReader`` trusts the counts it reads, so a damaged or hostile file can make it
allocate huge arrays or walk for a long time. Here every count and length is checked against
the bytes left in the file before anything is read, so bad input ends in an ``EngineError``.
The ``gguf`` package still supplies the type tables (value types, quantization block sizes).
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from types import MappingProxyType
from typing import BinaryIO, Mapping

import gguf

from engine.errors import CorruptModelError, ModelFileError, NotAGGUFError, UnsupportedModelError
from engine.messages import msg

GGUF_MAGIC = b"GGUF"
SUPPORTED_VERSIONS = frozenset({2, 3})
MAX_TENSOR_DIMS = 4              # GGML_MAX_DIMS
MAX_TENSOR_NAME = 63             # llama.cpp rejects names of GGML_MAX_NAME (64) bytes or more
MAX_KEY_LENGTH = 65_536          # real keys are ~50 bytes; longer means the length field is garbage
MAX_KEPT_STRING = 16 << 20       # longer text values are skipped (no real metadata comes close)
KEPT_ARRAY_LENGTH = 4096         # per-layer settings keep their values; vocabularies only their length
MAX_ELEMENTS = 1 << 62           # ggml counts elements in int64
READ_CHUNK = 1 << 20

MIN_KV_BYTES = 8 + 4 + 1                # key length, value type, smallest value
MIN_TENSOR_INFO_BYTES = 8 + 4 + 8 + 4 + 8  # name length, n_dims, one dim, type, offset

VT = gguf.GGUFValueType
SCALAR_FORMATS: dict[int, str] = {
    VT.UINT8: "B", VT.INT8: "b", VT.UINT16: "H", VT.INT16: "h", VT.UINT32: "I", VT.INT32: "i",
    VT.FLOAT32: "f", VT.BOOL: "?", VT.UINT64: "Q", VT.INT64: "q", VT.FLOAT64: "d",
}
# What the first bytes of some common non-GGUF files mean, for a friendlier message
# (catalogue codes; the old GGML formats came before GGUF).
KNOWN_OTHER_FORMATS: dict[bytes, str] = {
    b"%PDF": "model.kind_pdf",
    b"PK\x03\x04": "model.kind_zip",
    b"lmgg": "model.kind_old_model",
    b"fmgg": "model.kind_old_model",
    b"tjgg": "model.kind_old_model",
    b"\x89PNG": "model.kind_png",
}
DAMAGED = msg("model.damaged")          # the details say what is impossible (for IT)
INCOMPLETE = msg("model.incomplete")


@dataclass(frozen=True)
class GGUFArray:
    item_type: int
    length: int
    values: tuple | None  # None when long (vocabularies, merges) or when too long to keep


@dataclass(frozen=True)
class TensorEntry:
    name: str
    type_id: int
    shape: tuple[int, ...]  # ne[0] (innermost) first, as in the file
    offset: int             # from the start of the data section
    n_bytes: int


@dataclass(frozen=True)
class GGUFHeader:
    version: int
    metadata: Mapping[str, object]  # int, float, bool, str (or None if huge), GGUFArray
    tensors: tuple[TensorEntry, ...]
    alignment: int
    data_offset: int
    file_size: int


def read_header(path: str | os.PathLike) -> GGUFHeader:
    """Parse and validate the header of ``path``; raises an EngineError subclass on bad input."""
    path = os.fspath(path)
    file_size = _regular_file_size(path)
    try:
        with open(path, "rb") as f:
            return _parse(_Cursor(f, file_size))
    except PermissionError as e:
        raise ModelFileError(msg("model.not_allowed", name=os.path.basename(path)),
                             f"{path}: {e}") from e
    except OSError as e:
        raise ModelFileError(msg("model.unreadable", name=os.path.basename(path)),
                             f"{path}: {e}") from e


def _regular_file_size(path: str) -> int:
    try:
        st = os.stat(path)
    except FileNotFoundError as e:
        raise ModelFileError(msg("model.not_found", name=os.path.basename(path)), path) from e
    except PermissionError as e:
        raise ModelFileError(msg("model.not_allowed", name=os.path.basename(path)),
                             f"{path}: {e}") from e
    except (OSError, ValueError) as e:
        raise ModelFileError(msg("model.unreadable", name=os.path.basename(path)),
                             f"{path}: {e}") from e
    if os.path.isdir(path):
        raise ModelFileError(msg("model.folder", name=os.path.basename(path.rstrip("/\\"))),
                             path)
    return st.st_size


class _Cursor:
    """Reads forward through a file in chunks; every read is checked against the file size."""

    def __init__(self, f: BinaryIO, size: int) -> None:
        self._f, self.size, self.pos = f, size, 0
        self._buf, self._buf_start = b"", 0

    def remaining(self) -> int:
        return self.size - self.pos

    def read(self, n: int, what: str) -> tuple[bytes, int]:
        """Return (buffer, offset) holding the next ``n`` bytes."""
        self._check(n, what)
        offset = self.pos - self._buf_start
        if offset < 0 or offset + n > len(self._buf):
            self._refill(n)
            offset = 0
        self.pos += n
        return self._buf, offset

    def skip(self, n: int, what: str) -> None:
        self._check(n, what)
        self.pos += n

    def unpack(self, fmt: str, what: str):
        buf, offset = self.read(struct.calcsize(fmt), what)
        return struct.unpack_from(fmt, buf, offset)

    def u32(self, what: str) -> int:
        return self.unpack("<I", what)[0]

    def u64(self, what: str) -> int:
        return self.unpack("<Q", what)[0]

    def _check(self, n: int, what: str) -> None:
        if n > self.remaining():
            raise CorruptModelError(INCOMPLETE, f"{what} at byte {self.pos} needs {n} bytes; "
                                                f"the file has {self.size}")

    def _refill(self, n: int) -> None:
        self._f.seek(self.pos)
        data = self._f.read(max(n, READ_CHUNK))
        if len(data) < n:
            raise CorruptModelError(INCOMPLETE, f"the file ended at byte {self.pos + len(data)} "
                                                f"while being read; it may have changed")
        self._buf, self._buf_start = data, self.pos


def _parse(cur: _Cursor) -> GGUFHeader:
    version = _read_preamble(cur)
    n_tensors = cur.u64("tensor count")
    n_kv = cur.u64("setting count")
    _check_count(cur, n_kv, MIN_KV_BYTES, "settings")
    _check_count(cur, n_tensors, MIN_TENSOR_INFO_BYTES, "tensors")
    metadata = _read_metadata(cur, n_kv)
    alignment = _alignment(metadata)
    tensors = _read_tensor_infos(cur, n_tensors, alignment)
    data_offset = _align(cur.pos, alignment)
    _check_extents(tensors, data_offset, cur.size)
    return GGUFHeader(version, MappingProxyType(metadata), tensors, alignment,
                      data_offset, cur.size)


def _read_preamble(cur: _Cursor) -> int:
    if cur.size < 4:
        raise NotAGGUFError(msg("model.not_a_model_too_short"),
                            f"not a GGUF file: only {cur.size} bytes")
    buf, offset = cur.read(4, "magic")
    magic = bytes(buf[offset:offset + 4])
    if magic != GGUF_MAGIC:
        looks_like = KNOWN_OTHER_FORMATS.get(magic)
        message = (msg("model.not_a_model_but", kind=msg(looks_like)) if looks_like
                   else msg("model.not_a_model"))
        raise NotAGGUFError(message, f"not a GGUF file: first bytes {magic!r}")
    version = cur.u32("format version")
    _check_version(version)
    return version


def _check_version(version: int) -> None:
    if version in SUPPORTED_VERSIONS:
        return
    if version & 0xFFFF == 0 and (version >> 24) in SUPPORTED_VERSIONS:
        raise UnsupportedModelError(msg("model.other_byte_order"),
                                    f"a big-endian GGUF (version field {version:#x}); "
                                    "Rotary needs the little-endian file")
    raise UnsupportedModelError(msg("model.format_version", version=version),
                                f"GGUF version {version}; supported versions: "
                                f"{sorted(SUPPORTED_VERSIONS)}")


def _check_count(cur: _Cursor, count: int, min_item_bytes: int, what: str) -> None:
    # Every item needs at least min_item_bytes, so more items than that cannot be real.
    if count * min_item_bytes > cur.remaining():
        raise CorruptModelError(DAMAGED, f"it claims {count} {what} at byte {cur.pos}, "
                                         f"but only {cur.remaining()} bytes are left")


def _read_metadata(cur: _Cursor, n_kv: int) -> dict[str, object]:
    metadata: dict[str, object] = {}
    for _ in range(n_kv):
        key = _read_string(cur, "setting name", MAX_KEY_LENGTH)
        if key in metadata:
            raise CorruptModelError(DAMAGED, f"setting {key!r} appears twice")
        vtype = cur.u32(f"type of {key!r}")
        metadata[key] = _read_value(cur, vtype, key)
    return metadata


def _read_string(cur: _Cursor, what: str, limit: int) -> str:
    n = cur.u64(f"length of {what}")
    if n > limit:
        raise CorruptModelError(DAMAGED, f"{what} at byte {cur.pos} claims {n} bytes")
    buf, offset = cur.read(n, what)
    return bytes(buf[offset:offset + n]).decode("utf-8", "replace")


def _read_text_value(cur: _Cursor, key: str) -> str | None:
    n = cur.u64(f"length of {key!r}")
    if n > MAX_KEPT_STRING:
        cur.skip(n, f"text of {key!r}")
        return None
    buf, offset = cur.read(n, f"text of {key!r}")
    return bytes(buf[offset:offset + n]).decode("utf-8", "replace")


def _read_value(cur: _Cursor, vtype: int, key: str) -> object:
    fmt = SCALAR_FORMATS.get(vtype)
    if fmt is not None:
        return cur.unpack("<" + fmt, f"value of {key!r}")[0]
    if vtype == VT.STRING:
        return _read_text_value(cur, key)
    if vtype == VT.ARRAY:
        return _read_array(cur, key)
    raise CorruptModelError(DAMAGED, f"setting {key!r} has unknown value type {vtype}")


def _read_array(cur: _Cursor, key: str) -> GGUFArray:
    item_type = cur.u32(f"item type of {key!r}")
    length = cur.u64(f"length of {key!r}")
    fmt = SCALAR_FORMATS.get(item_type)
    if fmt is not None:
        return _read_scalar_array(cur, key, item_type, length, fmt)
    if item_type == VT.STRING:
        return _read_string_array(cur, key, length)
    if item_type == VT.ARRAY:
        raise UnsupportedModelError(msg("model.settings_unreadable"),
                                    f"setting {key!r} is a nested array, which llama.cpp "
                                    "cannot read")
    raise CorruptModelError(DAMAGED, f"list {key!r} has unknown item type {item_type}")


def _read_scalar_array(cur: _Cursor, key: str, item_type: int, length: int,
                       fmt: str) -> GGUFArray:
    item_size = struct.calcsize(fmt)
    _check_count(cur, length, item_size, f"items in {key!r}")
    if length > KEPT_ARRAY_LENGTH:
        cur.skip(length * item_size, f"list {key!r}")
        return GGUFArray(item_type, length, None)
    values = cur.unpack(f"<{length}{fmt}", f"list {key!r}")
    return GGUFArray(item_type, length, tuple(values))


def _read_string_array(cur: _Cursor, key: str, length: int) -> GGUFArray:
    _check_count(cur, length, 8, f"items in {key!r}")
    if length > KEPT_ARRAY_LENGTH:
        _skip_strings(cur, length, key)
        return GGUFArray(VT.STRING, length, None)
    values = tuple(_read_text_value(cur, key) for _ in range(length))
    return GGUFArray(VT.STRING, length, values)


def _skip_strings(cur: _Cursor, count: int, key: str) -> None:
    # Vocabularies hold ~10^5 strings: only their lengths are read, each bounds-checked.
    what = f"text in {key!r}"
    for _ in range(count):
        cur.skip(cur.u64(what), what)


def _alignment(metadata: Mapping[str, object]) -> int:
    value = metadata.get(gguf.Keys.General.ALIGNMENT, gguf.GGUF_DEFAULT_ALIGNMENT)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0 \
            or value & (value - 1):
        raise CorruptModelError(DAMAGED, f"general.alignment is {value!r}, not a power of two")
    return value


def _read_tensor_infos(cur: _Cursor, n_tensors: int, alignment: int) -> tuple[TensorEntry, ...]:
    tensors: list[TensorEntry] = []
    seen: set[str] = set()
    for _ in range(n_tensors):
        entry = _read_tensor_info(cur, alignment)
        if entry.name in seen:
            raise CorruptModelError(DAMAGED, f"tensor {entry.name!r} appears twice")
        seen.add(entry.name)
        tensors.append(entry)
    return tuple(tensors)


def _read_tensor_info(cur: _Cursor, alignment: int) -> TensorEntry:
    name = _read_string(cur, "tensor name", MAX_TENSOR_NAME)
    n_dims = cur.u32(f"dimension count of {name!r}")
    if not 1 <= n_dims <= MAX_TENSOR_DIMS:
        raise CorruptModelError(DAMAGED, f"tensor {name!r} has {n_dims} dimensions")
    shape = cur.unpack(f"<{n_dims}Q", f"shape of {name!r}")
    type_id = cur.u32(f"type of {name!r}")
    offset = cur.u64(f"offset of {name!r}")
    if offset % alignment:
        raise CorruptModelError(DAMAGED, f"tensor {name!r} starts at unaligned offset {offset}")
    return TensorEntry(name, type_id, shape, offset, tensor_n_bytes(name, type_id, shape))


def tensor_n_bytes(name: str, type_id: int, shape: tuple[int, ...]) -> int:
    """Bytes of a tensor: elements / block size * block bytes (gguf.GGML_QUANT_SIZES)."""
    block_size, type_size = _quant_size(name, type_id)
    n_elements = 1
    for dim in shape:
        n_elements *= dim
        if n_elements > MAX_ELEMENTS:
            raise CorruptModelError(DAMAGED, f"tensor {name!r} has shape {shape}")
    if shape[0] % block_size:
        raise CorruptModelError(DAMAGED, f"tensor {name!r}: row length {shape[0]} is not a "
                                         f"multiple of its block size {block_size}")
    return n_elements // block_size * type_size


def _quant_size(name: str, type_id: int) -> tuple[int, int]:
    try:
        return gguf.GGML_QUANT_SIZES[gguf.GGMLQuantizationType(type_id)]
    except (ValueError, KeyError):
        pass
    if type_id < 256:  # plausibly a weight type newer than this gguf package
        raise UnsupportedModelError(msg("model.unknown_storage"),
                                    f"tensor {name!r} has ggml type {type_id}")
    raise CorruptModelError(DAMAGED, f"tensor {name!r} has type {type_id}")


def _align(offset: int, alignment: int) -> int:
    return (offset + alignment - 1) // alignment * alignment


def _check_extents(tensors: tuple[TensorEntry, ...], data_offset: int, file_size: int) -> None:
    for t in tensors:
        end = data_offset + t.offset + t.n_bytes
        if end > file_size:
            raise CorruptModelError(
                INCOMPLETE, f"tensor {t.name!r} ends at byte {end}; the file has {file_size} bytes")
