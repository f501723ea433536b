"""What the engine's C helpers are made of and how they are compiled: one description for
``pip install`` (setup.py) and for the compile-on-first-use fallback (build.py).

Standard library only: setup.py loads this file by path, before anything is installed.
Each helper is a plain C shared library (no Python API) that the engine loads with ctypes.
Its file name carries a digest of its sources, headers and flags, so a checkout whose C
changed after the install never loads the old copy.
"""

from __future__ import annotations

import hashlib
import pathlib
import sys
from dataclasses import dataclass

CSRC = pathlib.Path(__file__).resolve().parent / "csrc"
INSTALLED = pathlib.Path(__file__).resolve().parent / "lib"   # where pip install puts them
SUFFIX = {"win32": ".dll", "darwin": ".dylib"}.get(sys.platform, ".so")

# Never -ffast-math, and no fused multiply-adds: the policy's floating point must equal the
# Python reference's bit for bit (tests/engine/test_native_rotary.py compares them).
UNIX_FLAGS = ("-O2", "-fPIC", "-fvisibility=hidden", "-ffp-contract=off")
MSVC_FLAGS = ("/O2", "/fp:precise")


@dataclass(frozen=True)
class Helper:
    name: str
    sources: tuple[str, ...]          # compiled together into one library (csrc/)
    headers: tuple[str, ...]
    libraries: tuple[str, ...] = ()   # linked on Unix (Windows has libm in its C runtime)

    def files(self, csrc: pathlib.Path = CSRC) -> list[pathlib.Path]:
        return [csrc / name for name in (*self.sources, *self.headers)]

    def digest(self, csrc: pathlib.Path = CSRC) -> str:
        """Sources, headers and flags: what decides the compiled library."""
        sha = hashlib.sha256(" ".join(UNIX_FLAGS + MSVC_FLAGS + self.libraries).encode())
        for path in self.files(csrc):
            sha.update(path.name.encode() + b"\n" + hashlib.sha256(path.read_bytes()).digest())
        return sha.hexdigest()[:16]

    def filename(self, digest: str) -> str:
        return f"{self.name}-{digest}{SUFFIX}"


HELPERS = {
    helper.name: helper for helper in (
        Helper("rotary_policy", ("rotary_policy.c", "rotary_policy_abi.c"),
               ("rotary_policy.h", "rotary_abi.h"), libraries=("m",)),
        Helper("rotary_routing", ("rotary_routing.c", "rotary_routing_abi.c"),
               ("rotary_routing.h", "rotary_abi.h")),
    )
}
