"""The native code under AddressSanitizer + UndefinedBehaviorSanitizer (not in CI: one command).

``python tools/sanitize.py [--work DIR] [--jobs N] [pytest args...]`` (the project's venv Python,
run from the checkout) builds the patched llama.cpp of the CPU variant with llama.cpp's and ggml's
own sanitizer options (``LLAMA_SANITIZE_ADDRESS/UNDEFINED``, ``GGML_SANITIZE_ADDRESS/UNDEFINED``)
and the engine's C helpers (engine/native/csrc) with ``-fsanitize=address,undefined``, then runs
the slot-cache and policy tests against them: the ASan runtime preloaded into Python
(``LD_PRELOAD=$(gcc -print-file-name=libasan.so)``), leaks off (Python's own allocations live to
the end), every report written to ``DIR/reports``. Exit status 0 only when the tests pass and
no report was written.

The build folder (default: the user cache's ``rotary/build/cpu-sanitize``) is kept: a second run
rebuilds only what changed (the patches re-applied when they change). A first build is long:
1,039 s for its 81 steps on a quiet 2-core machine, then 94 s of tests.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import llama_build  # noqa: E402 - the checkout's build helpers, found by path above
from engine.native.libraries import CSRC, HELPERS, UNIX_FLAGS  # noqa: E402

TESTS = ("tests/engine/test_slot_cache.py", "tests/engine/test_slot_order_check.py",
         "tests/engine/test_native_rotary.py")
SANITIZE_FLAGS = ("-DLLAMA_SANITIZE_ADDRESS=ON", "-DLLAMA_SANITIZE_UNDEFINED=ON",
                  "-DGGML_SANITIZE_ADDRESS=ON", "-DGGML_SANITIZE_UNDEFINED=ON")
# The variant tree's flags without its tools, with debug lines for readable reports.
CMAKE_FLAGS = tuple(flag for flag in llama_build.TREE_CMAKE_ARGS
                    if not flag.startswith(("-DCMAKE_BUILD_TYPE", "-DLLAMA_BUILD_TOOLS",
                                            "-DLLAMA_BUILD_SERVER"))) + (
    "-DCMAKE_BUILD_TYPE=RelWithDebInfo", "-DLLAMA_BUILD_TOOLS=OFF", "-DLLAMA_BUILD_SERVER=OFF",
    *SANITIZE_FLAGS)
HELPER_FLAGS = ("-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-g")


def configured_tree(work: pathlib.Path) -> pathlib.Path:
    """The patched sources (fetched again when the patches change), configured with the
    sanitizers."""
    stamp, key = work / "source-key.txt", llama_build.wheel_key(" ".join(("sanitize", *CMAKE_FLAGS)))
    build = work / "build"
    if (build / "CMakeCache.txt").exists() and stamp.exists() and stamp.read_text() == key:
        return build
    source = llama_build.fresh_patched_source(pathlib.Path(sys.executable), work / "src")
    generator = ("-G", "Ninja") if shutil.which("ninja") and not (build / "CMakeCache.txt").exists() else ()
    llama_build.run("cmake", "-S", str(source / "vendor" / "llama.cpp"), "-B", str(build),
                    *generator, *CMAKE_FLAGS)
    stamp.write_text(key)
    return build


def build_llama(build: pathlib.Path, jobs: int) -> pathlib.Path:
    llama_build.run("nice", "cmake", "--build", str(build), "--parallel", str(jobs),
                    "--target", "llama")
    return build / "bin"


def build_helpers(folder: pathlib.Path) -> None:
    """The helpers under the names the engine looks for (engine/native/build.py: the digest of
    their sources) in a folder that ROTARY_NATIVE_CACHE points the engine at."""
    folder.mkdir(parents=True, exist_ok=True)
    for helper in HELPERS.values():
        target = folder / helper.filename(helper.digest(CSRC))
        llama_build.run("gcc", *UNIX_FLAGS, *HELPER_FLAGS, "-shared", "-o", str(target),
                        *(str(CSRC / source) for source in helper.sources),
                        *(f"-l{library}" for library in helper.libraries))


def sanitized_env(lib: pathlib.Path, helpers: pathlib.Path, reports: pathlib.Path) -> dict:
    runtime = subprocess.run(["gcc", "-print-file-name=libasan.so"], capture_output=True,
                             text=True, check=True).stdout.strip()
    return dict(os.environ, LD_PRELOAD=runtime, LLAMA_CPP_LIB_PATH=str(lib),
                ROTARY_NATIVE_CACHE=str(helpers), ROTARY_DEVICE="CPU",
                ASAN_OPTIONS=f"detect_leaks=0:log_path={reports}/asan",
                UBSAN_OPTIONS=f"print_stacktrace=1:log_path={reports}/ubsan",
                PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH"))
                                           if p))


LOADED = """
from engine.native import backends, build
backends.select()
from engine.runtime.bindings import llama_cpp_module
llama_cpp_module()
maps = open("/proc/self/maps").read().split()
print(*(build.library_path(name) for name in build.HELPERS),
      *sorted({path for path in maps if "libllama.so" in path}))
"""


def check_loaded(env: dict, helpers: pathlib.Path, lib: pathlib.Path) -> None:
    """The engine takes the sanitized helpers (not a copy built at install or cached) and the
    sanitized libllama."""
    found = subprocess.run([sys.executable, "-c", LOADED], cwd=ROOT, env=env,
                           capture_output=True, text=True, check=True).stdout.split()
    wanted = [helpers] * len(HELPERS) + [lib]
    if [pathlib.Path(path).resolve().parent for path in found] != [p.resolve() for p in wanted]:
        raise SystemExit(f"the tests would not load the sanitized libraries: {found}")
    print("sanitized libraries:", *found, flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=pathlib.Path,
                        default=llama_build.cache_root() / "build" / "cpu-sanitize")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args, pytest_args = parser.parse_known_args(argv)
    started = time.monotonic()
    lib = build_llama(configured_tree(args.work), args.jobs)
    build_helpers(args.work / "helpers")
    built = time.monotonic()
    reports = args.work / "reports"
    shutil.rmtree(reports, ignore_errors=True)
    reports.mkdir(parents=True)
    env = sanitized_env(lib, args.work / "helpers", reports)
    check_loaded(env, args.work / "helpers", lib)
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            *(pytest_args or TESTS)], cwd=ROOT, env=env, check=False)
    found = sorted(reports.iterdir())
    for report in found:
        print(f"--- {report.name}\n{report.read_text(errors='replace')[:6000]}")
    print(f"sanitize: build {built - started:.0f} s, tests {time.monotonic() - built:.0f} s, "
          f"pytest exit {tests.returncode}, {len(found)} sanitizer report file(s) in {reports}")
    return 0 if tests.returncode == 0 and not found else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
