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
is kept in a folder of wheels on this machine, and, for the tests, llama.cpp's llama-server
is built once from the same sdist (kept beside the wheels). The wheel's build applies the
engine's patch series (engine/native/patches, the expert slot cache) to the
llama-cpp-python sdist first, and stops with a clear message if a patch no longer applies.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import venv

ROOT = pathlib.Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / "rotary-install.json"
# Files whose bytes decide what an install puts into .venv (the sources themselves are an
# editable install, read where they are). Add any file an install step builds from. The C
# helpers' sources are not here: a helper whose sources changed after the install no longer
# matches its digest, and the engine compiles it on first use (engine/native/build.py).
INSTALL_INPUTS = ("pyproject.toml", "setup.py", "bootstrap.py", "engine/native/libraries.py")


def _dependencies(text: str) -> list[str]:
    """[project] dependencies of a pyproject.toml. This runs before anything is installed,
    so stdlib only: tomllib on 3.11+; on 3.10 a small reader of the one-string-per-line list
    this project keeps (comments dropped, every quoted string taken)."""
    try:
        import tomllib  # noqa: PLC0415
    except ModuleNotFoundError:      # Python 3.10
        project = re.search(r"^\[project\]\s*$(.*?)(?=^\[)", text + "\n[", re.M | re.S)
        listed = re.search(r"^dependencies\s*=\s*\[(.*?)^\]", project.group(1) if project else "",
                           re.M | re.S)
        return re.findall(r'"([^"]+)"', re.sub(r"#[^\n]*", "", listed.group(1))) if listed else []
    return list(tomllib.loads(text).get("project", {}).get("dependencies", []))


def pinned(package: str, pyproject: pathlib.Path = ROOT / "pyproject.toml") -> str:
    """``package==version`` as pyproject.toml pins it: the version is written there only."""
    for requirement in _dependencies(pyproject.read_text(encoding="utf-8")):
        if re.fullmatch(rf"{re.escape(package)}\s*==\s*[\w.+-]+", requirement.strip()):
            return re.sub(r"\s+", "", requirement)
    raise SystemExit(f"pyproject.toml does not pin {package} to one version ({package}==X)")


LLAMA_REQUIREMENT = pinned("llama-cpp-python")
PATCHES = ROOT / "engine" / "native" / "patches"   # applied to the sdist, in name order
# Portable CPU build: the cached wheel stays valid on any x86-64 of this image.
CPU_CMAKE_ARGS = ("-DGGML_NATIVE=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF "
                  "-DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF")
# ROTARY_CUDA_ARCH=90 (say) builds for one GPU generation only: much faster than all of them.
CUDA_CMAKE_ARGS = CPU_CMAKE_ARGS + " -DGGML_CUDA=on" + (
    f" -DCMAKE_CUDA_ARCHITECTURES={os.environ['ROTARY_CUDA_ARCH']}"
    if os.environ.get("ROTARY_CUDA_ARCH") else "")


# llama.cpp's own llama-server, from the same sdist, for the office-server tests: stock (no
# engine patches: they only add the slot cache, which llama-server never turns on, and IT runs
# a stock build), CPU, one static binary; no web UI, so nothing is downloaded while building.
SERVER_CMAKE_ARGS = ("-DCMAKE_BUILD_TYPE=Release", "-DGGML_NATIVE=OFF", "-DBUILD_SHARED_LIBS=OFF",
                     "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF",
                     "-DLLAMA_BUILD_TOOLS=ON", "-DLLAMA_BUILD_SERVER=ON", "-DLLAMA_BUILD_APP=OFF",
                     "-DLLAMA_BUILD_UI=OFF", "-DLLAMA_USE_PREBUILT_UI=OFF", "-DLLAMA_OPENSSL=OFF")
SERVER_NAME = "llama-server.exe" if sys.platform == "win32" else "llama-server"


def cache_root() -> pathlib.Path:
    if sys.platform == "win32":
        root = pathlib.Path(os.environ.get("LOCALAPPDATA", pathlib.Path.home()))
    else:
        root = pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"))
    return root / "rotary"


def wheelhouse(variant: str) -> pathlib.Path:
    base = os.environ.get("ROTARY_WHEELHOUSE")
    return pathlib.Path(base) / variant if base else cache_root() / "wheels" / variant


def venv_python() -> pathlib.Path:
    scripts = "Scripts" if sys.platform == "win32" else "bin"
    return VENV / scripts / ("python.exe" if sys.platform == "win32" else "python")


def run(*args: str, env: dict | None = None) -> None:
    print("+", " ".join(args), flush=True)
    subprocess.run(args, check=True, env=env)


def has_nvidia_toolchain() -> bool:
    """Build the CUDA variant only where a GPU and the CUDA compiler are both present."""
    if os.environ.get("ROTARY_CPU_ONLY") == "1" or not shutil.which("nvcc"):
        return False
    smi = shutil.which("nvidia-smi")
    return bool(smi) and subprocess.run([smi, "-L"], capture_output=True).returncode == 0


def ensure_venv() -> pathlib.Path:
    if not venv_python().exists():
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    python = str(venv_python())
    run(python, "-m", "pip", "install", "--quiet", "--upgrade", "pip", "wheel", "setuptools")
    return venv_python()


def patch_series() -> list[pathlib.Path]:
    return sorted(PATCHES.glob("*.patch"))


def wheel_key(cmake_args: str) -> str:
    """Version + build flags + the patches' bytes: a stock or stale wheel never matches."""
    digest = hashlib.sha256(f"{LLAMA_REQUIREMENT}\n{cmake_args}\n".encode())
    for patch in patch_series():
        digest.update(patch.name.encode() + b"\n" + hashlib.sha256(patch.read_bytes()).digest())
    return digest.hexdigest()[:16]


def llama_variant() -> tuple[str, str]:
    """("cuda" or "cpu", its CMake flags) for this machine."""
    variant = "cuda" if has_nvidia_toolchain() else "cpu"
    return variant, CUDA_CMAKE_ARGS if variant == "cuda" else CPU_CMAKE_ARGS


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


def fetch_sdist(python: pathlib.Path, directory: pathlib.Path) -> pathlib.Path:
    run(str(python), "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
        "--dest", str(directory), LLAMA_REQUIREMENT)
    archive = next(directory.glob("llama_cpp_python-*.tar.gz"))
    with tarfile.open(archive) as tar:
        kwargs = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(directory, **kwargs)
    return next(p for p in directory.iterdir() if p.is_dir())


def apply_patches(source: pathlib.Path) -> None:
    """Apply the series in order; stop the set-up with a plain message if one does not apply."""
    git = shutil.which("git")
    for patch in patch_series():
        if git:
            check, apply = [git, "apply", "--check", str(patch)], [git, "apply", str(patch)]
        elif shutil.which("patch"):
            check = ["patch", "-p1", "--dry-run", "-i", str(patch)]
            apply = ["patch", "-p1", "-i", str(patch)]
        else:
            raise SystemExit("Applying the engine's native patches needs git (or patch) on PATH.")
        result = subprocess.run(check, cwd=source, capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(
                f"The native patch {patch.name} does not apply to {LLAMA_REQUIREMENT}:\n"
                f"{result.stdout}{result.stderr}\nUpdate engine/native/patches (see its README).")
        print(f"+ patch {patch.name}", flush=True)
        subprocess.run(apply, cwd=source, check=True)


def llama_server_path() -> pathlib.Path:
    """Where the llama-server of this version and these flags is kept (built or not)."""
    key = hashlib.sha256(f"{LLAMA_REQUIREMENT}\n{' '.join(SERVER_CMAKE_ARGS)}\n".encode())
    return cache_root() / "llama-server" / key.hexdigest()[:16] / SERVER_NAME


def ensure_llama_server(python: pathlib.Path) -> pathlib.Path:
    """llama.cpp's llama-server from the llama-cpp-python sdist: from the cache, or built now."""
    target = llama_server_path()
    seconds_file = target.parent / "build-seconds.txt"
    if target.exists():
        took = seconds_file.read_text().strip() if seconds_file.exists() else "?"
        print(f"+ reusing {target} (its build took {took} s)", flush=True)
        return target
    cmake = shutil.which("cmake") or pip_cmake(python)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="rotary-llama-server-") as tmp:
        source = fetch_sdist(python, pathlib.Path(tmp)) / "vendor" / "llama.cpp"
        build = pathlib.Path(tmp) / "build"
        run(cmake, "-S", str(source), "-B", str(build), *SERVER_CMAKE_ARGS)
        run(cmake, "--build", str(build), "--config", "Release", "--target", "llama-server",
            "--parallel", str(os.cpu_count() or 2))
        built = next(p for p in build.rglob(SERVER_NAME) if p.is_file())
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".partial")
        shutil.copy2(built, partial)
        os.replace(partial, target)          # a concurrent run never sees half a binary
    seconds = time.monotonic() - started
    seconds_file.write_text(f"{seconds:.0f}\n")
    print(f"+ built {target} in {seconds:.0f} s on {os.cpu_count()} cores", flush=True)
    return target


def pip_cmake(python: pathlib.Path) -> str:
    """No CMake on PATH (pip builds the wheel with its own): the cmake package in the venv."""
    run(str(python), "-m", "pip", "install", "--quiet", "cmake")
    return str(python.parent / ("cmake.exe" if sys.platform == "win32" else "cmake"))


def install(extras: str) -> pathlib.Path:
    STAMP.unlink(missing_ok=True)       # an install that stops half-way leaves no stamp
    python = ensure_venv()
    wheel = ensure_llama_wheel(python)
    # The exact wheel, reinstalled every time: an installed stock build must not stay.
    run(str(python), "-m", "pip", "install", "--force-reinstall", "--no-deps", str(wheel))
    run(str(python), "-m", "pip", "install", "--find-links", str(wheel.parent),
        "-e", f"{ROOT}[{extras}]" if extras else str(ROOT))
    STAMP.write_text(json.dumps(install_fingerprint(extras), indent=1), encoding="utf-8")
    return python


# ---- the install stamp: start offline when nothing changed ------------------------------

def install_fingerprint(extras: str = "") -> dict:
    """What an install from this checkout, on this machine, puts into .venv."""
    variant, cmake_args = llama_variant()
    files = {name: hashlib.sha256((ROOT / name).read_bytes()).hexdigest()
             for name in INSTALL_INPUTS if (ROOT / name).exists()}
    return {"files": files, "llama_wheel": f"{variant}/{wheel_key(cmake_args)}",
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
    now = install_fingerprint(extras)
    for name, digest in now["files"].items():
        if stamp.get("files", {}).get(name) != digest:
            return f"{name} changed since the last install"
    if stamp.get("llama_wheel") != now["llama_wheel"]:
        return "the llama-cpp-python build changed (its version, flags or patches)"
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
    return install("")


# Xvfb and the X libraries Qt's xcb platform plugin loads, for the screenshot test.
TEST_SYSTEM_PACKAGES = ("xvfb", "libxcb-icccm4", "libxcb-keysyms1", "libxcb-cursor0",
                        "libxcb-image0", "libxcb-render-util0", "libxcb-shape0", "libxcb-xkb1",
                        "libxkbcommon-x11-0", "libegl1", "libgl1", "libfontconfig1", "libdbus-1-3",
                        # OCR of Korean and Chinese pages (not on PyPI), a font to draw them
                        "tesseract-ocr-kor", "tesseract-ocr-chi-sim", "fonts-wqy-microhei")


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
    """mypy on engine/ with the strictness stated in pyproject.toml ([tool.mypy]); like the
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
    ("bench/bench_engine.py", "--rounds", "9"),
    ("bench/bench_slotcache.py",),
    ("bench/bench_planner.py",),
    ("bench/bench_residency_step.py",),
    ("bench/bench_residency_quality.py", "--out", "artifacts/bench"),
    ("bench/bench_app_startup.py",),
    ("bench/bench_app_stall.py",),
    ("bench/bench_remote.py",),
    ("bench/bench_documents.py",),
    ("bench/bench_speed_estimate.py",),
)


def run_benchmarks(python: pathlib.Path) -> int:
    failures = 0
    for script, *args in BENCHMARKS:
        print(f"\n===== {script}", flush=True)
        env = dict(os.environ, QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
        failures += subprocess.call([str(python), script, *args], cwd=ROOT, env=env) != 0
    return 1 if failures else 0


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "start"
    if command == "start":
        python = install_for_start()
        return subprocess.call([str(python), "-m", "app", *argv[2:]], cwd=ROOT)
    if command == "test":
        python = install("test")
        if sys.platform.startswith("linux"):
            ensure_test_system_packages()
        lint, types = run_linter(python), run_type_checker(python)
        # The tests then insist on the patched build (a stock wheel fails, not skips), and
        # run the office-server tests against llama-server too (tests/engine/test_llama_server).
        env = dict(os.environ, ROTARY_EXPECT_SLOT_CACHE="1",
                   ROTARY_LLAMA_SERVER=str(ensure_llama_server(python)))
        code = subprocess.call([str(python), "-m", "pytest", *argv[2:]], cwd=ROOT, env=env)
        return code or lint or types
    if command == "bench":
        return run_benchmarks(install("test"))
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
