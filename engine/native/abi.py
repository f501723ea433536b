"""Check the engine's ctypes mirrors against the C helpers' own description of themselves.

Each helper library exports a table (``rp_abi``, ``rr_abi``; csrc/rotary_abi.h) of the
struct sizes, field offsets and sizes, and status codes its compiler produced. ctypes cannot
read a C header, so the Python side keeps a mirror (a ``ctypes.Structure``, a dict of codes);
these functions compare the two when a library is loaded and raise ``NativeAbiError`` with
a plain sentence naming what differs, instead of letting a stale or edited mirror corrupt
memory later.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from typing import Mapping


class NativeAbiError(RuntimeError):
    """A ctypes mirror and its C header disagree: a programming error, never the user's."""


class _Entry(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("value", ctypes.c_int64), ("size", ctypes.c_int64)]


@dataclass(frozen=True)
class AbiTable:
    library: str
    structs: dict[str, int] = field(default_factory=dict)               # name → sizeof
    fields: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)  # → (offset, size)
    codes: dict[str, int] = field(default_factory=dict)                  # name → value

    def codes_with_prefix(self, prefix: str) -> dict[str, int]:
        return {name: value for name, value in self.codes.items() if name.startswith(prefix)}


def read_table(lib: ctypes.CDLL, symbol: str, library: str) -> AbiTable:
    """The NULL-terminated table that ``symbol()`` returns in ``lib``."""
    function = getattr(lib, symbol)
    function.argtypes, function.restype = [], ctypes.POINTER(_Entry)
    entries, table = function(), AbiTable(library)
    index = 0
    while entries[index].name is not None:
        entry = entries[index]
        kind, _, name = entry.name.decode().partition(" ")
        if kind == "struct":
            table.structs[name] = entry.value
        elif kind == "field":
            owner, _, member = name.partition(".")
            table.fields.setdefault(owner, {})[member] = (entry.value, entry.size)
        elif kind == "code":
            table.codes[name] = entry.value
        index += 1
    return table


def check_struct(table: AbiTable, c_name: str, mirror: type[ctypes.Structure], *,
                 fields_only: bool = False) -> None:
    """``mirror`` has ``c_name``'s size and each of its fields at the same offset and size.

    ``fields_only``: compare just the fields C lists (a mirror of a longer struct, as
    GgmlTensor is of rr_tensor_head's leading fields)."""
    problems = []
    c_fields = table.fields.get(c_name, {})
    if not fields_only:
        size = table.structs.get(c_name)
        if size != ctypes.sizeof(mirror):
            problems.append(f"size {size} in C, {ctypes.sizeof(mirror)} in Python")
        names = [entry[0] for entry in mirror._fields_]
        for missing in sorted(set(c_fields) - set(names)):
            problems.append(f"field {missing} exists only in C")
        for extra in sorted(set(names) - set(c_fields)):
            problems.append(f"field {extra} exists only in Python")
    for member, (offset, size) in c_fields.items():
        descriptor = getattr(mirror, member, None)
        if descriptor is None:
            if fields_only:
                problems.append(f"field {member} exists only in C")
            continue
        if (descriptor.offset, descriptor.size) != (offset, size):
            problems.append(f"field {member} at offset {offset} size {size} in C, offset "
                            f"{descriptor.offset} size {descriptor.size} in Python")
    if problems:
        raise NativeAbiError(
            f"{table.library}: the C struct {c_name} and its Python mirror {mirror.__name__} "
            f"disagree ({'; '.join(problems)}). Change both sides together; a library "
            f"built from older sources is rebuilt by `pip install -e .` (bootstrap.py does it).")


def check_codes(table: AbiTable, prefix: str, mirror: Mapping[str, object]) -> dict[int, str]:
    """The C codes named ``prefix*`` are exactly ``mirror``'s keys; returns value → name."""
    codes = table.codes_with_prefix(prefix)
    only_c, only_python = sorted(set(codes) - set(mirror)), sorted(set(mirror) - set(codes))
    if only_c or only_python:
        raise NativeAbiError(
            f"{table.library}: the C codes {prefix}* and their Python mirror disagree "
            f"(only in C: {', '.join(only_c) or 'none'}; only in Python: "
            f"{', '.join(only_python) or 'none'}). Change both sides together.")
    return {value: name for name, value in codes.items()}
