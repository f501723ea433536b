"""The self-test's check of engine/native's C helpers, through the modules that use them
(the residency policy step, the routing recorder), so their layouts are checked too. It lives
here, above engine/native, because engine/native imports no other engine folder."""

from __future__ import annotations

from engine.residency import native_rotary
from engine.runtime.experts import routing


def self_test() -> tuple[bool, str]:
    """Load each C helper the way the engine does, with its layouts checked against its
    header; a helper that cannot be loaded leaves the Python fallback, which is named."""
    try:
        loaded = {"rotary policy step": native_rotary.library(),
                  "routing recorder": routing.routing_library()}
    except Exception as exc:  # noqa: BLE001 - a library that disagrees with its mirrors
        return False, f"a C helper does not match the engine: {exc}"
    missing = [name for name, lib in loaded.items() if lib is None]
    if missing:
        return True, "Python fallback for " + ", ".join(missing)
    return True, "C helpers: " + ", ".join(loaded)
