#!/usr/bin/env python3
"""Set up Rotary from a fresh checkout and start it, or run its tests.

    python3 bootstrap.py start     # install everything, then open the app
    python3 bootstrap.py test      # install everything the tests need, lint, then run them
    python3 bootstrap.py bench     # the same, then print every benchmark's measured ratios

Standard library only: it runs before anything is installed. ``test`` and ``bench``
perform every install step on every run (CI is never hidden by a cache). ``start`` skips
them, and so starts offline, when the install stamp (.venv/rotary-install.json, written
after a successful install) matches what would be installed now: pyproject.toml, this
file, the llama-cpp-python wheel's key (version, CMake flags, the patch series) and the
Python version; when one differs it says which in one line and installs again.
llama-cpp-python (compiled from source, ~12 minutes on 2 cores) is built once: its wheel
is kept in a folder of wheels on this machine. GPU back-ends are built beside it as library
folders from the same patched sources (llama_build.py says how): ``test`` always builds the
Vulkan one (the device tests run it on Mesa's software Vulkan device) and llama.cpp's
llama-server in the same build tree; ``start`` builds the Vulkan one where a graphics driver
is installed (no CUDA toolkit needed), and the CUDA one for the card's own architecture where
nvidia-smi sees an NVIDIA card and nvcc is installed. Every
build applies the engine's patch series (engine/native/patches, the expert slot cache) first,
and stops with a clear message if a patch no longer applies.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import venv

import llama_build
from llama_build import (CPU_CMAKE_ARGS, apply_patches, fetch_sdist, run,
                         variant_key, wheel_key, wheelhouse)

ROOT = pathlib.Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / "rotary-install.json"
BACKENDS = VENV / "rotary-backends"     # the GPU back-ends' library folders (engine/native/backends.py)
# Files whose bytes decide what an install puts into .venv (the sources themselves are an
# editable install, read where they are). Add any file an install step builds from. The C
# helpers' sources are not here: a helper whose sources changed after the install no longer
# matches its digest, and the engine compiles it on first use (engine/native/build.py).
INSTALL_INPUTS = ("pyproject.toml", "setup.py", "bootstrap.py", "llama_build.py",
                  "engine/native/libraries.py", "engine/native/chat/rotary_chat.cpp",
                  "engine/native/chat/CMakeLists.txt")


def venv_python() -> pathlib.Path:
    scripts = "Scripts" if sys.platform == "win32" else "bin"
    return VENV / scripts / ("python.exe" if sys.platform == "win32" else "python")


def graphics_driver() -> str:
    """The graphics driver this computer has, in words ("" for none): a GPU back-end is
    built only where one is installed (ROTARY_CPU_ONLY=1 says never)."""
    if os.environ.get("ROTARY_CPU_ONLY") == "1":
        return ""
    smi = shutil.which("nvidia-smi")
    if smi and subprocess.run([smi, "-L"], capture_output=True).returncode == 0:
        return "an NVIDIA graphics driver"
    if sys.platform.startswith("linux") and glob.glob("/dev/dri/renderD*") and llama_build.vulkan_loader():
        return "a graphics driver with Vulkan"
    if sys.platform == "win32" and (pathlib.Path(os.environ.get("SystemRoot", r"C:\Windows"))
                                    / "System32" / "vulkan-1.dll").exists():
        return "a graphics driver with Vulkan"
    return ""


def gpu_variants(command: str) -> tuple[str, ...]:
    """Which GPU back-ends to build: the tests always want Vulkan (they run it on Mesa's
    software device) and never CUDA (no GPU there, and half an hour of build); the app wants
    Vulkan where a graphics driver is installed, and CUDA too where an NVIDIA card and a CUDA
    toolkit are (cuda_build_choice)."""
    if command == "test":
        return ("vulkan",)
    if not graphics_driver():
        return ()
    return ("vulkan", "cuda") if cuda_build_choice()[0] else ("vulkan",)


def say_gpu_variants(variants: tuple[str, ...]) -> None:
    driver = graphics_driver()
    if driver and variants:
        print(f"+ {driver} is installed: building the {' and '.join(variants)} back-end"
              f"{'s' if len(variants) > 1 else ''} for it (Vulkan needs no CUDA toolkit and "
              "serves NVIDIA, AMD and Intel cards alike)", flush=True)
    elif not variants:
        print("+ no graphics driver found: the processor back-end only", flush=True)


# ---- the CUDA back-end: `start` builds it for this computer's NVIDIA card only -------------

def nvidia_compute_capabilities() -> tuple[str, ...]:
    """The compute capability of each NVIDIA card nvidia-smi sees ("8.6"); () for none."""
    smi = shutil.which("nvidia-smi")
    if not smi or subprocess.run([smi, "-L"], capture_output=True).returncode != 0:
        return ()
    query = subprocess.run([smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
                           capture_output=True, text=True)
    found = query.stdout.split() if query.returncode == 0 else []
    return tuple(dict.fromkeys(cap for cap in found if re.fullmatch(r"\d+\.\d+", cap)))


def cuda_build_choice() -> tuple[str, str]:
    """(the CUDA architectures to build, "") for this computer's cards, or ("", why not).
    Only the cards here: one architecture builds in a fraction of the shipped set's time.
    $ROTARY_CUDA_ARCHS, when set, is taken as it is; the choice is handed to llama_build
    through it (the variant's key and folder depend on it)."""
    if os.environ.get("ROTARY_CPU_ONLY") == "1":
        return "", "ROTARY_CPU_ONLY=1"
    caps = nvidia_compute_capabilities()
    if not caps:
        return "", "no NVIDIA card found (nvidia-smi -L)"
    if llama_build.nvcc_path() is None:
        return "", ("an NVIDIA card is here but no CUDA toolkit (nvcc): the Vulkan back-end "
                    "serves it")
    usable = [cap for cap in caps if int(cap.replace(".", "")) >= 75]
    if not usable:
        return "", (f"the NVIDIA card (compute capability {caps[0]}) is older than CUDA 13 "
                    "supports (7.5): the Vulkan back-end serves it")
    archs = os.environ.get(llama_build.CUDA_ARCHS_ENV) or ";".join(
        f"{cap.replace('.', '')}-real" for cap in usable)
    os.environ[llama_build.CUDA_ARCHS_ENV] = archs
    return archs, ""


def say_cuda(variants: tuple[str, ...]) -> None:
    """One line: what CUDA back-end `start` builds, or why none."""
    archs, why = cuda_build_choice()
    if "cuda" in variants:
        print(f"+ an NVIDIA card and a CUDA toolkit are here: building the CUDA back-end for "
              f"this card only (CUDA architectures {archs}), with NVIDIA's runtime beside it",
              flush=True)
    else:
        print(f"+ no CUDA back-end: {why or 'no graphics driver found'}", flush=True)


def ensure_venv() -> pathlib.Path:
    if not venv_python().exists():
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    python = str(venv_python())
    run(python, "-m", "pip", "install", "--quiet", "--upgrade", "pip", "wheel", "setuptools")
    return venv_python()


def llama_variant() -> tuple[str, str]:
    """The wheel is always the CPU build (GPU back-ends are library folders beside it)."""
    return "cpu", CPU_CMAKE_ARGS


def ensure_llama_wheel(python: pathlib.Path) -> pathlib.Path:
    """The patched llama-cpp-python wheel: from the wheelhouse, or built now (once)."""
    variant, cmake_args = llama_variant()
    house = wheelhouse(variant) / wheel_key(cmake_args)
    built = sorted(house.glob("llama_cpp_python-*.whl"))
    if built:
        print(f"+ reusing {built[-1]}", flush=True)
        return built[-1]
    env = dict(os.environ, CMAKE_ARGS=cmake_args,
               CMAKE_BUILD_PARALLEL_LEVEL=str(os.cpu_count() or 2))
    with tempfile.TemporaryDirectory(prefix="rotary-llama-") as tmp:
        source = fetch_sdist(python, pathlib.Path(tmp))
        apply_patches(source)
        run(str(python), "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(house),
            str(source), env=env)
    return sorted(house.glob("llama_cpp_python-*.whl"))[-1]


def install_backends(python: pathlib.Path, variants: tuple[str, ...]) -> tuple[str, ...]:
    """Copy each wanted GPU back-end (from the cache, or built now) into .venv; returns
    those this machine could build (the others said why in one line)."""
    shutil.rmtree(BACKENDS, ignore_errors=True)     # never a stale or unwanted back-end
    installed = []
    for variant in variants:
        folder = llama_build.ensure_backend(python, variant)
        if folder is not None:
            shutil.copytree(folder, BACKENDS / variant, symlinks=True)   # each library once
            installed.append(variant)
    return tuple(installed)


def install(extras: str, variants: tuple[str, ...] = (), isa: tuple[str, ...] = ()) -> pathlib.Path:
    STAMP.unlink(missing_ok=True)       # an install that stops half-way leaves no stamp
    python = ensure_venv()
    wheel = ensure_llama_wheel(python)
    # The exact wheel, reinstalled every time: an installed stock build must not stay.
    run(str(python), "-m", "pip", "install", "--force-reinstall", "--no-deps", str(wheel))
    run(str(python), "-m", "pip", "install", "--find-links", str(wheel.parent),
        "-e", f"{ROOT}[{extras}]" if extras else str(ROOT))
    say_gpu_variants(variants)
    installed = install_backends(python, variants)
    install_cpu_isa(python, isa, required="test" in extras.split(","))
    install_chat_layer(python)
    STAMP.write_text(json.dumps(install_fingerprint(extras, variants, installed), indent=1),
                     encoding="utf-8")
    return python


# ---- processor instruction-set variants (llama_build.py, engine/native/cpu_isa.py) -------

CPU_ISA = BACKENDS / "cpu-isa"


def cpu_isa_variants(command: str) -> tuple[str, ...]:
    """Which CPU back-end variants to build: ``test`` all of them (the bundle CI builds
    carries every one); ``start`` every one this processor runs (which of them runs fastest
    is measured after the first load, engine/runtime/devices/cpu_calibration.py; the others would be
    minutes of compiling for nothing). One line says what and why."""
    if not llama_build.cpu_isa_buildable():
        print("+ processor variants are built for x86-64 Linux only: the portable AVX2 "
              "baseline runs", flush=True)
        return ()
    if command != "start":
        return tuple(llama_build.CPU_ISA_VARIANTS)
    from engine.native import cpu_isa  # noqa: PLC0415 - stdlib only; after the platform check

    flags = cpu_isa.processor_flags()
    names = tuple(name for name in llama_build.CPU_ISA_VARIANTS
                  if cpu_isa.runs_on(frozenset(llama_build.cpu_isa_cpu_flags(name)), flags))
    print("+ processor: " + (f"building the {', '.join(names)} variant(s) of the CPU back-end"
                             if names else f"{cpu_isa.BASELINE_LABEL}, the portable build"),
          flush=True)
    return names


def install_cpu_isa(python: pathlib.Path, names: tuple[str, ...], required: bool) -> None:
    """Copy each variant (from the cache, or built now) into .venv/rotary-backends/cpu-isa.
    A failed build fails the tests' install (``required``); for ``start`` it leaves the
    baseline, said in one line (the app still runs)."""
    shutil.rmtree(CPU_ISA, ignore_errors=True)
    for name in names:
        try:
            folder = llama_build.ensure_cpu_isa(python, name)
        except subprocess.CalledProcessError as error:
            if required:
                raise
            print(f"+ the {name} processor variant did not build ({error}): the baseline runs",
                  flush=True)
            continue
        shutil.copytree(folder, CPU_ISA / name)


# ---- llama.cpp's chat layer (llama_build.ensure_chat_shim, engine/runtime/chat/chat_layer.py) --

CHAT_LAYER = BACKENDS / "chat"


def install_chat_layer(python: pathlib.Path) -> None:
    """Copy librotary_chat (from the cache, or built now) into .venv/rotary-backends/chat.
    Every install needs it: llama.cpp's chat layer is the engine's only way to write a
    conversation for a model and read its reply, so a failed build fails the install."""
    shutil.rmtree(CHAT_LAYER, ignore_errors=True)
    try:
        folder = llama_build.ensure_chat_shim(python)
    except (subprocess.CalledProcessError, StopIteration) as error:
        raise SystemExit(f"llama.cpp's chat layer (engine/native/chat) did not build: {error}. "
                         "Rotary cannot talk to a model without it; the build's output above "
                         "says what is missing (usually a C++ compiler or CMake).") from error
    shutil.copytree(folder / "lib", CHAT_LAYER)


# ---- the install stamp: start offline when nothing changed ------------------------------

def install_fingerprint(extras: str = "", wanted: tuple[str, ...] = (),
                        installed: tuple[str, ...] = ()) -> dict:
    """What an install from this checkout, on this machine, puts into .venv (the GPU
    back-ends wanted, and the key of each one built: one that could not be built is not
    tried again at every start)."""
    variant, cmake_args = llama_variant()
    files = {name: hashlib.sha256((ROOT / name).read_bytes()).hexdigest()
             for name in INSTALL_INPUTS if (ROOT / name).exists()}
    return {"files": files, "llama_wheel": f"{variant}/{wheel_key(cmake_args)}",
            "backends_wanted": sorted(wanted),
            "backends": {name: variant_key(name) for name in sorted(installed)},
            "python": ".".join(map(str, sys.version_info[:3])),
            "extras": sorted(filter(None, extras.split(",")))}


def stamp_difference(extras: str = "") -> str:
    """"" when .venv holds what an install would put there now; else why not, in words."""
    if not venv_python().exists():
        return "nothing is installed yet"
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "no record of a finished install was found"
    now = install_fingerprint(extras, gpu_variants("start"))
    for name, digest in now["files"].items():
        if stamp.get("files", {}).get(name) != digest:
            return f"{name} changed since the last install"
    if stamp.get("llama_wheel") != now["llama_wheel"]:
        return "the llama-cpp-python build changed (its version, flags or patches)"
    # More back-ends than wanted do no harm (the tests' Vulkan one lists no device where
    # there is no GPU); one wanted now but never tried is built.
    untried = set(now["backends_wanted"]) - set(stamp.get("backends_wanted", []))
    if untried:
        return f"a graphics driver was found (the {', '.join(sorted(untried))} back-end is not built yet)"
    for name, key in stamp.get("backends", {}).items():
        if key != variant_key(name):
            return f"the {name} back-end's build changed (its version, flags or patches)"
    if stamp.get("python") != now["python"]:
        return f"Python changed ({stamp.get('python')} -> {now['python']})"
    missing = set(now["extras"]) - set(stamp.get("extras", []))
    return f"the {', '.join(sorted(missing))} extras are not installed" if missing else ""


def install_for_start() -> pathlib.Path:
    """Start at once when nothing changed (no network needed); otherwise install again."""
    reason = stamp_difference()
    if not reason:
        return venv_python()
    print(f"+ installing: {reason}", flush=True)
    variants = gpu_variants("start")
    say_cuda(variants)
    return install("", variants, cpu_isa_variants("start"))


# Xvfb and the X libraries Qt's xcb platform plugin loads, for the screenshot test.
TEST_SYSTEM_PACKAGES = ("xvfb", "libxcb-icccm4", "libxcb-keysyms1", "libxcb-cursor0",
                        "libxcb-image0", "libxcb-render-util0", "libxcb-shape0", "libxcb-xkb1",
                        "libxkbcommon-x11-0", "libegl1", "libgl1", "libfontconfig1", "libdbus-1-3",
                        # OCR of Korean and Chinese pages (not on PyPI), a font to draw them
                        "tesseract-ocr-kor", "tesseract-ocr-chi-sim", "fonts-wqy-microhei",
                        # the Vulkan back-end: its shader compiler, and the loader with Mesa's
                        # software device (lavapipe) that the device-path tests run on, and the
                        # Khronos validation layer they run it under
                        "glslc", "libvulkan1", "mesa-vulkan-drivers", "vulkan-validationlayers")


def ensure_test_system_packages() -> None:
    """Install them where apt is available and we are root; the test skips (and says why) otherwise."""
    if not shutil.which("apt-get") or os.geteuid() != 0:
        return
    subprocess.run(["apt-get", "update", "-qq"], check=False)
    subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends",
                    *TEST_SYSTEM_PACKAGES], check=False,
                   env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))


def run_linter(python: pathlib.Path) -> int:
    """ruff with the rules in pyproject.toml ([tool.ruff]), before the tests; a finding fails
    the test command once the tests have run too, so one run reports both."""
    print("+ ruff check .", flush=True)
    code = subprocess.call([str(python), "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT)
    if code:
        print("ruff found problems (listed above): the test command fails", flush=True)
    return code


def run_type_checker(python: pathlib.Path) -> int:
    """mypy on engine/ and app/ with the strictness stated in pyproject.toml ([tool.mypy]); like the
    linter, a finding fails the test command after the tests have run."""
    print("+ mypy", flush=True)
    code = subprocess.call([str(python), "-m", "mypy"], cwd=ROOT)
    if code:
        print("mypy found problems (listed above): the test command fails", flush=True)
    return code


# Each prints numbers measured in one run (modelled figures are labelled so). A target missed
# within its stated margin is reported, not fatal (timings are noisy here); one missed far
# beyond it (bench/verdict.py), or a crash, makes the benchmark and so the command fail.
BENCHMARKS = (
    ("bench/bench_engine.py",),
    ("bench/bench_slotcache.py",),
    ("bench/bench_planner.py",),
    ("bench/bench_residency_step.py",),
    ("bench/bench_residency_quality.py", "--out", "artifacts/bench"),
    ("bench/bench_app_startup.py",),
    ("bench/bench_app_stall.py",),
    ("bench/bench_remote.py",),
    ("bench/bench_documents.py",),
    ("bench/bench_speed_estimate.py",),
    ("bench/bench_cpu_isa.py",),
    ("bench/bench_conversation_state.py",),
)


def run_benchmarks(python: pathlib.Path) -> int:
    failures = 0
    for script, *args in BENCHMARKS:
        print(f"\n===== {script}", flush=True)
        # No processor calibration in the background of a timed run (bench_cpu_isa.py runs it).
        env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"),
                   ROTARY_CPU_CALIBRATION="0")
        failures += subprocess.call([str(python), script, *args], cwd=ROOT, env=env) != 0
    return 1 if failures else 0


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "start"
    if command == "start":
        python = install_for_start()
        return subprocess.call([str(python), "-m", "app", *argv[2:]], cwd=ROOT)
    if command == "test":
        if sys.platform.startswith("linux"):
            ensure_test_system_packages()
        print("+ no CUDA back-end: the test command never builds it (no GPU runs it here)",
              flush=True)
        python = install("test", gpu_variants("test"), cpu_isa_variants("test"))
        lint, types = run_linter(python), run_type_checker(python)
        vulkan = (BACKENDS / "vulkan" / "variant.json").exists()
        # The tests then insist on the patched build (a stock wheel fails, not skips) and, where
        # the Vulkan back-end was built, on running its device tests; they run the office-server
        # tests against llama-server too, built in the Vulkan back-end's tree.
        server = llama_build.ensure_llama_server(python, "vulkan" if vulkan else "cpu")
        env = dict(os.environ, ROTARY_EXPECT_SLOT_CACHE="1", ROTARY_LLAMA_SERVER=str(server),
                   **({"ROTARY_EXPECT_VULKAN": "1"} if vulkan else {}),
                   **({"ROTARY_EXPECT_CHAT_LAYER": "1",
                       "ROTARY_LLAMA_TEMPLATES": str(llama_build.chat_shim_folder() / "templates")}
                      if any(CHAT_LAYER.glob("*rotary_chat*")) else {}),
                   **({"ROTARY_EXPECT_CPU_ISA": "1"} if any(CPU_ISA.glob("*/cpu-isa.json")) else {}))
        # The slowest tests are printed every run, so CI's time is seen where it goes.
        code = subprocess.call([str(python), "-m", "pytest", "--durations=25", *argv[2:]],
                               cwd=ROOT, env=env)
        return code or lint or types
    if command == "bench":
        return run_benchmarks(install("test", gpu_variants("test"), cpu_isa_variants("test")))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
