"""Which llama.cpp back-end this install runs, and the devices each back-end can use.

An install carries back-end *variants*: the llama-cpp-python wheel's own ``llama_cpp/lib``
(the CPU build) and, beside it, folders of shared libraries built from the same patched
sources, ``<root>/<variant>/`` with a ``variant.json`` ({"variant": "vulkan"|"cuda", ...}).
``<root>`` is ``$ROTARY_BACKENDS_DIR``, else ``<sys.prefix>/rotary-backends`` (a venv), else
``<sys._MEIPASS>/rotary-backends`` (the frozen bundle).

Each variant's devices come from ggml's own backend registry (name, description, type,
free/total memory), asked in a short child process: a broken driver then cannot crash the
app, and two variants cannot both be loaded in one process anyway. The listing is kept per
machine (a cache file keyed by the variants' files, the boot and the visibility variables),
so a start pays the child processes once per boot. ``select()`` chooses one variant before
``llama_cpp`` is first imported (``LLAMA_CPP_LIB_PATH``, which llama-cpp-python honours).

Separate library folders chosen before the import, not ggml's dynamic back-end loading:
llama-cpp-python loads one ``libllama`` from one folder, and its wheel links the CPU back-end
in; a folder per variant needs no change to that wheel and keeps each variant's libllama
patched exactly as its ggml was built.

Rule: a discrete GPU (ggml type GPU) beats the processor; of several, the one with the most
memory; on the same card (equal memory) CUDA before Vulkan. Where two installed variants serve
the same card, the load measures them once per card and model family and may choose the other
(engine/runtime/devices/backend_probe.py, through ``reselect``). An integrated GPU shares system
memory, so it gets no slots: it is listed, never chosen. A software device (Mesa's lavapipe:
Vulkan on the processor, which ggml lists as a GPU; engine/native/device_kinds.py) writes
tens of times more slowly than the processor itself: listed, never chosen, unless named
($ROTARY_DEVICE), a folder is set from outside (``LLAMA_CPP_LIB_PATH``: the device tests) or
$ROTARY_SOFTWARE_GPU=1 lets it stand in for a graphics card (tests on machines without one).
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import json
import logging
import os
import re
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import psutil

from engine.native import cpu_isa, cpu_isa_record, device_kinds

log = logging.getLogger("rotary.backends")

VARIANT_FILE = "variant.json"
CPU_VARIANT = "cpu"
LIB_ENV = "LLAMA_CPP_LIB_PATH"            # llama-cpp-python's own override
ROOT_ENV = "ROTARY_BACKENDS_DIR"
CHOICE_ENV = "ROTARY_DEVICE"              # a device name ("Vulkan0", "CPU") chosen by IT/tests
CHILD_FLAG = "--rotary-list-devices"      # the frozen app's executable runs the child with it
CHILD_TIMEOUT_S = 60.0                    # a first Vulkan or CUDA start can be slow
CACHE_VERSION = 3                         # 2: devices carry their PCI id; 3: software kind
SOFTWARE_ENV = "ROTARY_SOFTWARE_GPU"      # "1": a software device may stand in for a card
# What changes which devices a variant sees without changing its files.
VISIBILITY_ENV = ("GGML_VK_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES",
                  "ONEAPI_DEVICE_SELECTOR")
# Same card on several back-ends: the first wins until the load's probe has measured them
# (engine/runtime/devices/backend_probe.py).
BACKEND_ORDER = ("CUDA", "Vulkan")
KIND_NAMES = {0: "cpu", 1: "gpu", 2: "igpu", 3: "accel", 4: "meta"}


@dataclass(frozen=True)
class Device:
    """One device as a variant's ggml lists it."""

    name: str            # ggml's device name: "Vulkan0", "CUDA0", "CPU" (what --device takes)
    description: str     # "NVIDIA GeForce RTX 4060 Laptop GPU"
    kind: str            # "gpu" (discrete), "igpu" (shares system memory), "software"
                         # (a graphics API on the processor: lavapipe), "cpu", "accel"
    backend: str         # the registry's name: "CUDA", "Vulkan", "CPU"
    free_bytes: int
    total_bytes: int
    device_id: str = ""  # PCI bus id ("0000:01:00.0") where the back-end gives one: the same card


@dataclass(frozen=True)
class Variant:
    name: str            # "cpu", "vulkan", "cuda"
    folder: str          # holds libllama and libggml*
    key: str             # changes when its libraries change (the cache's key)


@dataclass(frozen=True)
class VariantDevices:
    variant: Variant
    devices: tuple[Device, ...] = ()
    error: str = ""      # the child failed: why, for the log and "Copy details"
    seconds: float = 0.0  # how long the child took
    note: str = ""       # the child ran, but its back-end said why it could not start a device

    @property
    def gpus(self) -> tuple[Device, ...]:
        return tuple(d for d in self.devices if d.kind in ("gpu", "igpu"))


@dataclass(frozen=True)
class Selection:
    """The variant this process runs and the device the model goes to ("CPU": none)."""

    variant: Variant
    device: Device | None
    listing: tuple[VariantDevices, ...] = field(default=(), repr=False)
    reason: str = ""     # one line for the log: why this one
    asked: bool = False  # a device named by IT or a test ($ROTARY_DEVICE, --device): no probe

    @property
    def device_name(self) -> str:
        return self.device.name if self.device is not None else "CPU"


# ---- where the variants are -------------------------------------------------------------

def backends_root() -> Path | None:
    if os.environ.get(ROOT_ENV):
        return Path(os.environ[ROOT_ENV])
    frozen_root = getattr(sys, "_MEIPASS", None)
    for root in (Path(sys.prefix) / "rotary-backends",
                 Path(frozen_root) / "rotary-backends" if frozen_root else None):
        if root is not None and root.is_dir():
            return root
    return None


def wheel_lib_folder() -> Path | None:
    """llama-cpp-python's own ``lib`` folder, found without importing llama_cpp."""
    try:
        spec = importlib.util.find_spec("llama_cpp")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(list(spec.submodule_search_locations)[0]) / "lib"
    return folder if folder.is_dir() else None


def library_name(base: str) -> str:
    if sys.platform == "win32":
        return f"{base}.dll"
    return f"lib{base}.dylib" if sys.platform == "darwin" else f"lib{base}.so"


def _folder_key(name: str, folder: Path) -> str:
    """Name, size and modification time of the folder's libraries: a rebuilt variant is new."""
    sha = hashlib.sha256(name.encode())
    for path in sorted(folder.iterdir()):
        if "ggml" in path.name or "llama" in path.name or path.name == VARIANT_FILE:
            stat = path.stat()
            sha.update(f"{path.name}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return sha.hexdigest()[:16]


def installed_variants() -> tuple[Variant, ...]:
    """The CPU wheel's own libraries first, then every ``<root>/<name>/`` with a variant.json."""
    found = []
    wheel = wheel_lib_folder()
    if wheel is not None:
        found.append(Variant(CPU_VARIANT, str(wheel), _folder_key(CPU_VARIANT, wheel)))
    root = backends_root()
    for folder in sorted(root.iterdir()) if root is not None and root.is_dir() else ():
        described = folder / VARIANT_FILE
        if not described.is_file() or not (folder / library_name("ggml")).exists():
            continue
        try:
            name = str(json.loads(described.read_text(encoding="utf-8"))["variant"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("%s is not a back-end description: %s", described, exc)
            continue
        found.append(Variant(name, str(folder), _folder_key(name, folder)))
    return tuple(found)


# ---- the child process: ggml's device list of one folder --------------------------------

def _child_list(folder: str) -> list[dict]:
    """Runs in the child: load ``folder``'s ggml and read its backend registry."""
    if sys.platform == "win32":
        os.add_dll_directory(folder)
    lib = ctypes.CDLL(str(Path(folder) / library_name("ggml")))
    signatures = {
        "ggml_backend_dev_count": ([], ctypes.c_size_t),
        "ggml_backend_dev_get": ([ctypes.c_size_t], ctypes.c_void_p),
        "ggml_backend_dev_name": ([ctypes.c_void_p], ctypes.c_char_p),
        "ggml_backend_dev_description": ([ctypes.c_void_p], ctypes.c_char_p),
        "ggml_backend_dev_type": ([ctypes.c_void_p], ctypes.c_int),
        "ggml_backend_dev_memory": ([ctypes.c_void_p, ctypes.POINTER(ctypes.c_size_t),
                                     ctypes.POINTER(ctypes.c_size_t)], None),
        "ggml_backend_dev_backend_reg": ([ctypes.c_void_p], ctypes.c_void_p),
        "ggml_backend_reg_name": ([ctypes.c_void_p], ctypes.c_char_p),
    }
    for name, (argtypes, restype) in signatures.items():
        function = getattr(lib, name)
        function.argtypes, function.restype = argtypes, restype
    devices = []
    for index in range(lib.ggml_backend_dev_count()):
        dev = lib.ggml_backend_dev_get(index)
        free, total = ctypes.c_size_t(0), ctypes.c_size_t(0)
        lib.ggml_backend_dev_memory(dev, ctypes.byref(free), ctypes.byref(total))
        devices.append({
            "name": lib.ggml_backend_dev_name(dev).decode(errors="replace"),
            "description": (lib.ggml_backend_dev_description(dev) or b"").decode(errors="replace"),
            "kind": KIND_NAMES.get(lib.ggml_backend_dev_type(dev), "other"),
            "backend": lib.ggml_backend_reg_name(
                lib.ggml_backend_dev_backend_reg(dev)).decode(errors="replace"),
            "free_bytes": int(free.value), "total_bytes": int(total.value),
            "device_id": _device_id(lib, dev)})
    return device_kinds.refine(devices)


def child_main(argv: list[str]) -> int:
    """``python -c`` (or the frozen app with CHILD_FLAG) lands here: print the JSON list."""
    activate_processor_variant(argv[0])      # the processor code the app would run, too
    print(json.dumps(_child_list(argv[0])), flush=True)
    return 0


_CHILD_CODE = "import sys; from engine.native.backends import child_main; " \
              "sys.exit(child_main(sys.argv[1:]))"


def _child_command(folder: str) -> list[str]:
    if getattr(sys, "frozen", False):
        return [sys.executable, CHILD_FLAG, folder]
    return [sys.executable, "-c", _CHILD_CODE, folder]


def list_devices(variant: Variant, timeout: float = CHILD_TIMEOUT_S,
                 extra_env: dict[str, str] | None = None) -> VariantDevices:
    """The devices ``variant``'s ggml sees, asked in a child process. Never raises."""
    started = time.perf_counter()
    root = str(Path(__file__).resolve().parents[2])      # the child imports this same engine
    env = dict(os.environ, **(extra_env or {}), PYTHONPATH=os.pathsep.join(
        p for p in (root, os.environ.get("PYTHONPATH", "")) if p))
    try:
        done = subprocess.run(_child_command(variant.folder), capture_output=True, text=True,
                              timeout=timeout, env=env, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return VariantDevices(variant, error=f"{type(exc).__name__}: {exc}",
                              seconds=time.perf_counter() - started)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        return VariantDevices(variant, error=f"exit status {done.returncode}: {tail}",
                              seconds=seconds)
    try:
        rows = json.loads(done.stdout.strip().splitlines()[-1])
        devices = tuple(Device(**row) for row in rows)
    except (ValueError, TypeError, IndexError) as exc:
        return VariantDevices(variant, error=f"unreadable device list: {exc}", seconds=seconds)
    return VariantDevices(variant, devices, seconds=seconds, note=start_failure(done.stderr))


# ---- remembered per machine ----------------------------------------------------------------

def cache_path() -> Path:
    import platformdirs  # noqa: PLC0415 - only when the listing is kept

    return Path(platformdirs.user_cache_dir("Rotary", appauthor=False)) / "devices.json"


def _boot_time() -> float:
    try:
        return float(psutil.boot_time())
    except Exception:  # noqa: BLE001 - without it the listing is kept until the files change
        return 0.0


def listing_key(variants: tuple[Variant, ...]) -> str:
    parts = [f"v{CACHE_VERSION}", f"boot {_boot_time():.0f}",
             *(f"{v.name}:{v.key}:{v.folder}" for v in variants),
             *(f"{name}={os.environ.get(name, '')}" for name in VISIBILITY_ENV)]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def _read_cache(path: Path, key: str, variants: tuple[Variant, ...]):
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") != key:
            return None
        by_folder = {v.folder: v for v in variants}
        return tuple(VariantDevices(by_folder[row["folder"]],
                                    tuple(Device(**d) for d in row["devices"]),
                                    row.get("error", ""), row.get("seconds", 0.0),
                                    row.get("note", ""))
                     for row in data["variants"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _write_cache(path: Path, key: str, listing: tuple[VariantDevices, ...]) -> None:
    rows = [{"folder": item.variant.folder, "devices": [asdict(d) for d in item.devices],
             "error": item.error, "seconds": round(item.seconds, 3), "note": item.note}
            for item in listing]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps({"key": key, "variants": rows}, indent=1),
                             encoding="utf-8")
        temporary.replace(path)
    except OSError as exc:     # a read-only profile: list again next time
        log.info("the device list could not be kept in %s: %s", path, exc)


def device_listing(refresh: bool = False, cache: Path | None = None,
                   variants: tuple[Variant, ...] | None = None) -> tuple[VariantDevices, ...]:
    """Every installed variant with its devices; from the cache unless something changed."""
    variants = installed_variants() if variants is None else variants
    path, key = cache or cache_path(), listing_key(variants)
    if not refresh:
        kept = _read_cache(path, key, variants)
        if kept is not None:
            return kept
    listing = tuple(list_devices(variant) for variant in variants)
    for item in listing:
        log.info("back-end %s (%s): %s in %.2f s", item.variant.name, item.variant.folder,
                 ", ".join(f"{d.name} {d.kind}" for d in item.devices) or item.error,
                 item.seconds)
        if item.note:
            log.info("back-end %s: %s", item.variant.name, item.note)
    if not any(item.error for item in listing):   # a failure is tried again next start
        _write_cache(path, key, listing)
    return listing


# ---- the choice ------------------------------------------------------------------------

def _rank(item: tuple[VariantDevices, Device]) -> tuple:
    backend = item[1].backend
    order = BACKEND_ORDER.index(backend) if backend in BACKEND_ORDER else len(BACKEND_ORDER)
    return (-round(item[1].total_bytes / 2**28), order)    # a quarter GiB: the same card


def choose(listing: tuple[VariantDevices, ...], wanted: str = "", folder: str = "") -> Selection:
    """The variant and device to run on: ``wanted`` (a device name) when one lists it, else
    the best discrete GPU, else the processor (the CPU variant). ``folder``: only the variant
    there (``LLAMA_CPP_LIB_PATH`` set from outside, as the device tests do)."""
    if folder:
        listing = tuple(item for item in listing
                        if os.path.realpath(item.variant.folder) == os.path.realpath(folder)) or \
            (VariantDevices(Variant("external", folder, "")),)
    processor = listing[0].variant if folder else _cpu_variant(listing)
    if wanted:
        for item in listing:
            for device in item.devices:
                if device.name.lower() == wanted.lower() and device.kind != "cpu":
                    return Selection(item.variant, device, listing, f"{device.name} as asked",
                                     asked=True)
        if wanted.lower() != "cpu":
            raise LookupError(wanted)
        return Selection(processor, None, listing, "the processor, as asked", asked=True)
    stand_ins = folder or os.environ.get(SOFTWARE_ENV) == "1"
    candidates = [(item, d) for item in listing for d in item.devices
                  if d.kind == "gpu" or (stand_ins and d.kind == device_kinds.SOFTWARE)]
    if candidates:
        item, device = min(candidates, key=_rank)
        if device.kind == device_kinds.SOFTWARE:
            return Selection(item.variant, device, listing,
                             f"{device.description} ({device.name}), a software device that "
                             "runs on the processor, as the environment allows")
        return Selection(item.variant, device, listing,
                         f"{device.description} ({device.name}), the largest discrete GPU")
    software = [d for item in listing for d in item.devices if d.kind == device_kinds.SOFTWARE]
    if software:
        return Selection(processor, None, listing,
                         f"the processor: {software[0].description} ({software[0].name}) is "
                         "a software graphics device that runs on the processor, much more "
                         "slowly than Rotary's own processor code")
    return Selection(processor, None, listing, "no discrete GPU that a back-end lists")


def _cpu_variant(listing: tuple[VariantDevices, ...]) -> Variant:
    for item in listing:
        if item.variant.name == CPU_VARIANT:
            return item.variant
    wheel = wheel_lib_folder()
    return Variant(CPU_VARIANT, str(wheel or ""), "")


_lock = threading.Lock()
_selected: Selection | None = None


def select(wanted: str | None = None) -> Selection:
    """Choose once per process, before llama_cpp is imported, and point llama-cpp-python at
    the variant's folder. ``wanted`` (or $ROTARY_DEVICE): a device name from ``devices``.

    Once llama_cpp is loaded the choice is fixed: asking for a device of another variant
    then raises LookupError (a process cannot hold two variants)."""
    global _selected
    with _lock:
        wanted = (wanted if wanted is not None else os.environ.get(CHOICE_ENV, "")).strip()
        if _selected is not None and (not wanted or wanted.lower() == _selected.device_name.lower()):
            return _selected
        if "llama_cpp.llama_cpp" in sys.modules and _selected is not None:
            raise LookupError(wanted)
        outside = os.environ.get(LIB_ENV, "") if _selected is None else ""
        if not outside and "llama_cpp.llama_cpp" in sys.modules:   # loaded before us: that one
            outside = str(wheel_lib_folder() or "")
        listing = device_listing()
        if outside and not any(os.path.realpath(item.variant.folder) == os.path.realpath(outside)
                               for item in listing):   # a folder of its own: ask it, too
            listing += (list_devices(Variant("external", outside, "")),)
        selection = choose(listing, wanted, folder=outside)
        if not outside and "llama_cpp.llama_cpp" not in sys.modules:
            _point_llama_cpp_at(selection.variant)
        _selected = selection
        log.info("llama.cpp back-end: %s from %s (%s)", selection.variant.name,
                 selection.variant.folder, selection.reason)
        for line in not_used(selection):
            log.info("%s", line)
        return selection


def _point_llama_cpp_at(variant: Variant) -> None:
    _drop_dll_directory()                    # chosen again (reselect): one variant's DLLs only
    if variant.name == CPU_VARIANT:
        os.environ.pop(LIB_ENV, None)        # the wheel's own lib folder
    else:
        os.environ[LIB_ENV] = variant.folder
        if sys.platform == "win32":
            _keep_dll_directory(os.add_dll_directory(variant.folder))


def selected() -> Selection | None:
    return _selected


def _forget() -> None:
    """Tests: choose again."""
    global _selected
    with _lock:
        _selected = None


def live_memory(name: str) -> tuple[int, int] | None:
    """(free, total) bytes of device ``name`` now, asked in a child process like the listing
    (the kept listing's figures are from the boot's first start). Not in this process: ggml's
    memory query, run here while the engine loaded a model, crashed it on Mesa's software
    Vulkan device (1 start in 3). None when no variant is chosen or it lists no such device."""
    choice = _selected
    if choice is None:
        return None
    fresh = list_devices(choice.variant)
    return next(((d.free_bytes, d.total_bytes) for d in fresh.devices if d.name == name), None)


def ggml_library_path() -> Path | None:
    """The libggml that llama-cpp-python's libllama uses in this process (the chosen folder)."""
    folder = os.environ.get(LIB_ENV) or str(wheel_lib_folder() or "")
    path = Path(folder) / library_name("ggml")
    return path if folder and path.exists() else None


# ---- the load's measured choice (engine/runtime/devices/backend_probe.py) ------------------------
# Same card listed by several variants (CUDA0 and Vulkan0 on one NVIDIA card): the probe in
# engine/runtime/devices/backend_probe.py measures them and calls ``reselect`` before llama_cpp loads.

class _DevCaps(ctypes.Structure):
    _fields_ = [("async_", ctypes.c_bool), ("host_buffer", ctypes.c_bool),
                ("buffer_from_host_ptr", ctypes.c_bool), ("events", ctypes.c_bool),
                ("mmap_support", ctypes.c_bool)]


class _DevProps(ctypes.Structure):
    """``struct ggml_backend_dev_props`` of the vendored ggml-backend.h."""

    _fields_ = [("name", ctypes.c_char_p), ("description", ctypes.c_char_p),
                ("memory_free", ctypes.c_size_t), ("memory_total", ctypes.c_size_t),
                ("type", ctypes.c_int), ("device_id", ctypes.c_char_p), ("caps", _DevCaps),
                ("spare", ctypes.c_char * 64)]   # room for fields a newer ggml appends


def _device_id(lib: ctypes.CDLL, dev: int) -> str:
    """The device's PCI bus id as ggml's props give it (CUDA and Vulkan both write
    "0000:01:00.0", lower case), or "" (no such function, or the back-end does not know)."""
    get_props = getattr(lib, "ggml_backend_dev_get_props", None)
    if get_props is None:
        return ""
    get_props.argtypes, get_props.restype = [ctypes.c_void_p, ctypes.POINTER(_DevProps)], None
    props = _DevProps()                 # ggml zeroes the struct before the back-end fills it
    get_props(dev, ctypes.byref(props))
    return (props.device_id or b"").decode(errors="replace").lower()


_dll_directory = None      # Windows: the chosen folder in the DLL search path (closed on reselect)


def _keep_dll_directory(handle) -> None:
    global _dll_directory
    _dll_directory = handle


def _drop_dll_directory() -> None:
    """Windows: the rule's folder leaves the DLL search path when the probe chose another, or
    libllama from one folder could find ggml.dll in the other."""
    global _dll_directory
    if _dll_directory is not None:
        _dll_directory.close()
        _dll_directory = None


def llama_loaded() -> bool:
    """llama-cpp-python's libllama is loaded in this process: its variant is fixed."""
    return "llama_cpp.llama_cpp" in sys.modules


def reselect(variant: Variant, device: Device, reason: str) -> Selection:
    """Run ``device`` of ``variant`` instead of the rule's choice; only before llama_cpp loads
    (RuntimeError after: a process holds one variant)."""
    global _selected
    with _lock:
        if llama_loaded():
            raise RuntimeError(f"llama.cpp is loaded from {os.environ.get(LIB_ENV, 'the wheel')}")
        listing = _selected.listing if _selected is not None else ()
        _selected = Selection(variant, device, listing, reason)
        _point_llama_cpp_at(variant)
    log.info("llama.cpp back-end: %s from %s (%s)", variant.name, variant.folder, reason)
    return _selected


# ---- processor instruction-set variants (engine/native/cpu_isa.py) ------------------------

def before_llama_loads() -> None:
    """The last step before llama_cpp is imported, after the choice and any probe's reselect:
    preload the processor build with the chosen folder's own base library."""
    if not llama_loaded():
        activate_processor_variant(os.environ.get(LIB_ENV) or str(wheel_lib_folder() or ""))


def activate_processor_variant(folder: str) -> cpu_isa.IsaChoice:
    """Preload the best CPU back-end this processor runs (``<root>/cpu-isa/<name>``) with
    ``folder``'s base library, before any libggml of ``folder`` loads."""
    return cpu_isa.activate(folder, backends_root())


def expect_processor_weights(type_name: str) -> None:
    """The load's model has mostly ``type_name`` weights (a ggml type name): the processor
    build measured fastest for them runs, where this machine has been measured."""
    cpu_isa.expect_weights(type_name, calibration_path())


def calibration_path() -> Path:
    """The processor calibration's measurements (engine/runtime/devices/cpu_calibration.py)."""
    return cache_path().parent / cpu_isa_record.FILE


# ---- a back-end that lists no device, in plain words (the CUDA back-end on a computer
# without the NVIDIA driver: it loads, finds no card, and another variant runs) ----------------

# ggml's own words when a back-end cannot start its devices ("ggml_cuda_init: failed to
# initialize CUDA: CUDA driver version is insufficient for CUDA runtime version").
START_FAILURE = re.compile(r"failed to initiali[sz]e\b.*", re.IGNORECASE)
# cudart says "insufficient driver" both with no driver and with one too old for CUDA 13.
CUDA_NEEDS = "an NVIDIA graphics card with its driver, version 580 or newer"


def start_failure(stderr: str) -> str:
    """The last line where the child's back-end said it could not start, or ""."""
    found = [m.group(0).strip() for m in map(START_FAILURE.search, stderr.splitlines()) if m]
    return found[-1] if found else ""


def not_used(selection: Selection) -> list[str]:
    """One plain line per installed GPU back-end that lists no GPU and so is not used."""
    runs = "the processor" if selection.device is None else \
        f"{selection.device.description} through {selection.variant.name}"
    lines = []
    for item in selection.listing:
        if item.variant.name == CPU_VARIANT or item.gpus or item.error:
            continue
        needs = f" (it needs {CUDA_NEEDS})" if item.variant.name == "cuda" else ""
        said = f"; it said: {item.note}" if item.note else ""
        lines.append(f"The {item.variant.name} back-end is installed but finds no graphics "
                     f"card it can use{needs}, so Rotary runs on {runs}{said}.")
    return lines
