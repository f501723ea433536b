"""Native code of our own: the C helpers in csrc/ (built at install by setup.py, found by
build.py, checked against their headers by abi.py) and the llama.cpp patch series (patches/,
applied by bootstrap.py to the llama-cpp-python sdist)."""


def self_test() -> tuple[bool, str]:
    """Load each C helper the way the engine does, with its layouts checked against its
    header; a helper that cannot be loaded leaves the Python fallback, which is named."""
    from engine.residency.native_rotary import library as policy_library  # noqa: PLC0415
    from engine.runtime.routing import routing_library  # noqa: PLC0415

    try:
        loaded = {"rotary policy step": policy_library(), "routing recorder": routing_library()}
    except Exception as exc:  # noqa: BLE001 - a library that disagrees with its mirrors
        return False, f"a C helper does not match the engine: {exc}"
    missing = [name for name, lib in loaded.items() if lib is None]
    if missing:
        return True, "Python fallback for " + ", ".join(missing)
    return True, "C helpers: " + ", ".join(loaded)
