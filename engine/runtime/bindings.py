"""The llama.cpp boundary: raw structs and functions that llama-cpp-python does not wrap.

Three layers, as in llama-cpp-python itself: ctypes declarations (this module) →
an owning ``NativeModel`` that closes deterministically (engine/runtime/llama_model.py) →
the streaming API (engine/runtime/generation/generate.py). Only the engine thread touches these objects.
"""

from __future__ import annotations

import ctypes
import functools
import logging
import re
import threading
from collections import deque
from dataclasses import dataclass

from gguf import GGMLQuantizationType

from engine.native import backends
from engine.native.abi import NativeAbiError

log = logging.getLogger("rotary.llama")

GGML_MAX_DIMS = 4
GGML_MAX_SRC = 10
GGML_MAX_OP_PARAMS = 64
GGML_MAX_NAME = 64
GGML_BACKEND_DEVICE_TYPE_CPU = 0


class GgmlTensor(ctypes.Structure):
    """``struct ggml_tensor`` from the vendored ggml.h (``check_tensor_layout`` compares it with
    the loaded ggml the first time ggml() is called)."""

    _fields_ = [
        ("type", ctypes.c_int),
        ("buffer", ctypes.c_void_p),
        ("ne", ctypes.c_int64 * GGML_MAX_DIMS),
        ("nb", ctypes.c_size_t * GGML_MAX_DIMS),
        ("op", ctypes.c_int),
        ("op_params", ctypes.c_int32 * (GGML_MAX_OP_PARAMS // 4)),
        ("flags", ctypes.c_int32),
        ("src", ctypes.c_void_p * GGML_MAX_SRC),
        ("view_src", ctypes.c_void_p),
        ("view_offs", ctypes.c_size_t),
        ("data", ctypes.c_void_p),
        ("name", ctypes.c_char * GGML_MAX_NAME),
        ("extra", ctypes.c_void_p),
        ("padding", ctypes.c_char * 8),
    ]


TENSOR_NAME_OFFSET = GgmlTensor.name.offset


class BufferTypeOverride(ctypes.Structure):
    """``struct llama_model_tensor_buft_override``: a regex and the buffer type it maps to."""

    _fields_ = [("pattern", ctypes.c_char_p), ("buft", ctypes.c_void_p)]


@functools.lru_cache(maxsize=1)
def llama_cpp_module():
    """Import llama_cpp lazily: inspection and planning must work without it.

    Our log callback replaces llama-cpp-python's (which prints to sys.stderr, None in a
    windowed build) right at import, before any model or backend says anything. The back-end
    variant (CPU, Vulkan, CUDA library folder) is chosen first: llama-cpp-python reads
    ``LLAMA_CPP_LIB_PATH`` once, when it is imported (engine/native/backends.py).
    """
    try:
        backends.select()
    except LookupError as exc:     # $ROTARY_DEVICE names no device: the best one instead
        log.warning("no device named %s; choosing one", exc)
        backends.select("")
    backends.before_llama_loads()
    import llama_cpp  # noqa: PLC0415 - heavy native import, only when a model runs

    _NATIVE_LOG.install(llama_cpp)
    return llama_cpp


@functools.lru_cache(maxsize=1)
def ggml() -> ctypes.CDLL:
    """The bundled ggml library with the few signatures the engine calls."""
    llama_cpp_module()
    lib = _chosen_ggml()
    _declare(lib, "ggml_backend_dev_by_type", [ctypes.c_int], ctypes.c_void_p)
    _declare(lib, "ggml_backend_dev_by_name", [ctypes.c_char_p], ctypes.c_void_p)
    _declare(lib, "ggml_backend_dev_buffer_type", [ctypes.c_void_p], ctypes.c_void_p)
    _declare(lib, "ggml_backend_dev_host_buffer_type", [ctypes.c_void_p], ctypes.c_void_p)
    _declare(lib, "ggml_backend_buft_name", [ctypes.c_void_p], ctypes.c_char_p)
    _declare(lib, "ggml_get_name", [ctypes.c_void_p], ctypes.c_char_p)
    _declare(lib, "ggml_nbytes", [ctypes.c_void_p], ctypes.c_size_t)
    _declare(lib, "ggml_backend_tensor_get",
             [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t], None)
    check_tensor_layout(lib)
    return lib


def _chosen_ggml() -> ctypes.CDLL:
    """The libggml that the loaded libllama uses. llama-cpp-python's own ``_ggml`` always opens
    the wheel's copy, which in a Vulkan or CUDA process is a second, CPU-only ggml (its buffer
    types would never match libllama's)."""
    path = backends.ggml_library_path()
    if path is None:
        from llama_cpp import _ggml  # noqa: PLC0415 - llama_cpp only when a model runs

        return _ggml.libggml
    return ctypes.CDLL(str(path))


class _GgmlInitParams(ctypes.Structure):
    _fields_ = [("mem_size", ctypes.c_size_t), ("mem_buffer", ctypes.c_void_p),
                ("no_alloc", ctypes.c_bool)]


PROBE_NE, PROBE_NAME = (3, 5, 7, 11), b"rotary-layout-probe"


def check_tensor_layout(lib: ctypes.CDLL) -> None:
    """GgmlTensor against the loaded ggml: one real tensor, read through both.

    ggml has no layout table, so a tensor is made in a small context and every field the
    engine reads (type, buffer, ne, nb, data, name) is compared with what ggml's own
    functions say; ggml puts a tensor's data right after the struct, so the data pointer
    also gives the struct's size. Raises NativeAbiError (a plain sentence) on a mismatch."""
    i32 = int(GGMLQuantizationType.I32)
    address = ctypes.cast(lib.ggml_get_name, ctypes.c_void_p).value
    if not address:
        raise NativeAbiError("ggml_get_name has no address in this llama.cpp library")
    name_address = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p)(address)
    _declare(lib, "ggml_init", [_GgmlInitParams], ctypes.c_void_p)
    _declare(lib, "ggml_free", [ctypes.c_void_p], None)
    _declare(lib, "ggml_new_tensor_4d", [ctypes.c_void_p, ctypes.c_int] + [ctypes.c_int64] * 4,
             ctypes.c_void_p)
    _declare(lib, "ggml_set_name", [ctypes.c_void_p, ctypes.c_char_p], ctypes.c_void_p)
    _declare(lib, "ggml_get_data", [ctypes.c_void_p], ctypes.c_void_p)
    context = lib.ggml_init(_GgmlInitParams(1 << 16, None, False))
    try:
        tensor = lib.ggml_new_tensor_4d(context, i32, *PROBE_NE)
        lib.ggml_set_name(tensor, PROBE_NAME)
        seen = GgmlTensor.from_address(tensor)
        strides = [4 * n for n in (1, PROBE_NE[0], PROBE_NE[0] * PROBE_NE[1],
                                   PROBE_NE[0] * PROBE_NE[1] * PROBE_NE[2])]
        problems = [what for what, ok in (
            ("type", seen.type == i32), ("buffer", not seen.buffer),
            ("ne", tuple(seen.ne) == PROBE_NE), ("nb", list(seen.nb) == strides),
            ("data", seen.data == lib.ggml_get_data(tensor)),
            ("name", name_address(tensor) == tensor + TENSOR_NAME_OFFSET
             and seen.name == PROBE_NAME),
            ("size", lib.ggml_get_data(tensor) == tensor + ctypes.sizeof(GgmlTensor))) if not ok]
    finally:
        lib.ggml_free(context)
    if problems:
        raise NativeAbiError(
            f"engine/runtime/bindings.py's GgmlTensor does not match the loaded ggml "
            f"({', '.join(problems)} differ): update it from the vendored ggml.h.")


def _declare(lib: ctypes.CDLL, name: str, argtypes: list, restype) -> None:
    function = getattr(lib, name)
    function.argtypes = argtypes
    function.restype = restype


def cpu_buffer_type() -> int:
    """The CPU buffer type; llama.cpp compares overrides against this exact pointer."""
    lib = ggml()
    device = lib.ggml_backend_dev_by_type(GGML_BACKEND_DEVICE_TYPE_CPU)
    if not device:
        raise RuntimeError("ggml has no CPU device")
    return lib.ggml_backend_dev_buffer_type(device)


def gpu_device() -> int | None:
    """The ggml device the model goes to (engine/native/backends.py chose it), or None: the
    processor only."""
    choice = backends.selected()
    if choice is None or choice.device is None:
        return None
    return ggml().ggml_backend_dev_by_name(choice.device.name.encode()) or None


def gpu_host_buffer_type() -> int | None:
    """The chosen GPU's page-locked host buffer type (pinned memory), or None: expert
    weights placed there are copied to the GPU by DMA without a staging copy."""
    device = gpu_device()
    return (ggml().ggml_backend_dev_host_buffer_type(device) or None) if device else None


def has_gpu_device() -> bool:
    """A GPU was chosen and this process's ggml has it (a GPU back-end with a working driver)."""
    return gpu_device() is not None


class OverrideArray:
    """A NULL-terminated ``llama_model_tensor_buft_override[]`` kept alive with its strings."""

    def __init__(self, patterns: tuple[str, ...], buft: int) -> None:
        self._encoded = [p.encode("utf-8") for p in patterns]  # keep bytes alive
        self.array = (BufferTypeOverride * (len(patterns) + 1))()
        for slot, pattern in zip(self.array, self._encoded):
            slot.pattern = pattern
            slot.buft = buft
        self.array[len(patterns)].pattern = None  # terminator

    @property
    def pointer(self) -> int:
        return ctypes.addressof(self.array)


# ---- native log -----------------------------------------------------------------------

OVERRIDE_LINE = re.compile(r"tensor (\S+) \(.*\) buffer type overridden to (\S+)")
MEMORY_FAILURE = re.compile(
    r"out of memory|failed to allocate|cudaMalloc failed|unable to allocate|ErrorOutOfDeviceMemory"
    r"|not enough memory|failed to create context", re.IGNORECASE)
# ggml_log_level: NONE=0, DEBUG=1, INFO=2, WARN=3, ERROR=4, CONT=5 (continues the last line).
_LEVELS = {0: logging.CRITICAL, 1: logging.DEBUG, 2: logging.INFO, 3: logging.WARNING,
           4: logging.ERROR}


class NativeLog:
    """Receives llama.cpp's log lines: routes them to ``logging`` and keeps recent ones.

    Never writes to sys.stderr, which is None in a windowed build.
    """

    def __init__(self, keep: int = 4000) -> None:
        self.lines: deque[str] = deque(maxlen=keep)
        self.total = 0                 # lines ever received; positions for mark()/since()
        self._partial = ""
        self._lock = threading.Lock()
        self._callback = None

    def install(self, llama_cpp) -> None:
        self._callback = llama_cpp.llama_log_callback(self._on_log)
        llama_cpp.llama_log_set(self._callback, ctypes.c_void_p(0))

    def _on_log(self, level: int, text: bytes, _user_data) -> None:
        chunk = text.decode("utf-8", errors="replace")
        with self._lock:
            self._partial += chunk
            *complete, self._partial = self._partial.split("\n")
            self.lines.extend(complete)
            self.total += len(complete)
        for line in complete:
            log.log(_LEVELS.get(level, logging.DEBUG), "%s", line)

    def mark(self) -> int:
        """A position in the log; ``since(mark)`` returns the lines written after it."""
        with self._lock:
            return self.total

    def since(self, mark: int) -> list[str]:
        with self._lock:
            lines, first = list(self.lines), self.total - len(self.lines)
        return lines[max(0, mark - first):]


_NATIVE_LOG = NativeLog()


def native_log() -> NativeLog:
    llama_cpp_module()          # installs the callback on first use
    return _NATIVE_LOG


@dataclass(frozen=True)
class PlacementReport:
    """What llama.cpp said about where tensors went."""

    overridden: dict[str, str]   # tensor name → buffer type name, e.g. "CPU"

    @classmethod
    def from_log(cls, lines: list[str]) -> "PlacementReport":
        found = {}
        for line in lines:
            match = OVERRIDE_LINE.search(line)
            if match:
                found[match.group(1)] = match.group(2)
        return cls(found)


def looks_like_memory_failure(lines: list[str]) -> bool:
    return any(MEMORY_FAILURE.search(line) for line in lines)
