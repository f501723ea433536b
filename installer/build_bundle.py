"""Build the Linux bundle from this checkout and self-test the BUNDLED app.

    python installer/build_bundle.py [--skip-build] [--packages] [--cuda]

1. ``PyInstaller build.spec`` into dist/Rotary (a fresh work folder every time: nothing
   cached, so a missing collect step cannot hide behind an old build);
2. runs dist/Rotary/Rotary --self-test from a folder outside the checkout, with a
   throw-away ROTARY_HOME and a PYTHONPATH that does not reach the source tree, offscreen
   and, where xvfb-run exists, once more on a virtual X display (Qt's xcb plugin);
3. with --packages, the tarball and .deb (installer/linux/make_packages.py).
With --cuda (needs nvcc; CI does not pass it) the bundle also carries the CUDA back-end for
every shipped GPU generation (llama_build.CUDA_SHIPPED_ARCHS, or $ROTARY_CUDA_ARCHS), built
into the build cache first (~30 min for one architecture on 2 cores) with NVIDIA's runtime.
Prints the build time, the bundle size and the self-test line; exits non-zero when any
step fails.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIST = ROOT / "dist"
BUNDLE = DIST / "Rotary"
SELF_TEST_TIMEOUT_S = 300


def ensure_pyinstaller() -> None:
    """The test extra lists it; a plain install gets it here."""
    try:
        import PyInstaller  # noqa: F401, PLC0415
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "pyinstaller>=6.10"],
                       check=True)


def cuda_backend() -> Path:
    """The CUDA back-end's folder (runtime and licences inside), from the build cache or
    built now; stops with the reason when this machine cannot build it."""
    sys.path.insert(0, str(ROOT))
    import llama_build  # noqa: PLC0415 - only with --cuda

    started = time.perf_counter()
    folder = llama_build.ensure_backend(Path(sys.executable), "cuda")
    if folder is None:
        raise SystemExit("--cuda: this machine cannot build the CUDA back-end (the line above says why)")
    print(f"CUDA back-end ({llama_build.cuda_archs()}): {folder} "
          f"({folder_size(folder) / 2**20:.0f} MiB, {time.perf_counter() - started:.0f} s)")
    return folder


def build(backends: tuple[Path, ...] = ()) -> float:
    ensure_pyinstaller()
    work = Path(tempfile.mkdtemp(prefix="rotary-pyinstaller-"))
    started = time.perf_counter()
    env = dict(os.environ, ROTARY_BUNDLE_BACKENDS=os.pathsep.join(map(str, backends)))
    try:
        subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean",
                        "--log-level", "WARN", "--distpath", str(DIST), "--workpath", str(work),
                        str(ROOT / "build.spec")], cwd=ROOT, check=True, env=env)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return time.perf_counter() - started


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def executable(bundle: Path) -> Path:
    return bundle / ("Rotary.exe" if sys.platform == "win32" else "Rotary")


def self_test(bundle: Path, platform: str = "offscreen", console: bool = True,
              extra_env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Run the bundled app with nothing of the checkout or the venv within reach.

    ``platform="xcb"`` shows the window on a virtual X display (xvfb-run), as on a desktop;
    ``console=False`` closes its stdout and stderr, so that Python hands the app
    ``sys.stdout = sys.stderr = None`` as in a windowed Windows build.
    Returns the exit code, the verdict line and the bundled app's log.
    """
    command = [str(executable(bundle)), "--self-test"]
    if platform == "xcb":
        command = ["xvfb-run", "-a", *command]
    if not console:
        command = ["sh", "-c", 'exec "$@" >&- 2>&-', "sh", *command]
    with tempfile.TemporaryDirectory(prefix="rotary-selftest-") as scratch:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("PYTHON", "VIRTUAL_ENV", "LD_LIBRARY_PATH", "GGML_VK_"))}
        # A check, not a use: no processor calibration left running behind it (CI's benchmarks
        # follow; engine/runtime/devices/cpu_calibration.py).
        env.update(ROTARY_HOME=str(Path(scratch) / "home"), QT_QPA_PLATFORM=platform,
                   ROTARY_CPU_CALIBRATION="0", **(extra_env or {}))
        result = subprocess.run(command, cwd=scratch, env=env, capture_output=True, text=True,
                                timeout=SELF_TEST_TIMEOUT_S)
        log_file = Path(scratch) / "home" / "data" / "logs" / "rotary.log"
        log = log_file.read_text(encoding="utf-8", errors="replace") if log_file.exists() else ""
    # A windowed Windows build has no stdout at all: its verdict is in the log file.
    lines = [line for line in result.stdout.splitlines() if line.startswith("ROTARY SELF-TEST")]
    lines = lines or [line[line.index("ROTARY SELF-TEST"):] for line in log.splitlines()
                      if "rotary.selftest: ROTARY SELF-TEST" in line]
    if result.returncode != 0 or not lines:
        print(result.stdout[-3000:], result.stderr[-3000:], sep="\n")
        print("---- bundled app's log (last lines)", *log.splitlines()[-40:], sep="\n")
    return result.returncode, lines[-1] if lines else "no self-test line", log


def bundle_problems(bundle: Path, log: str) -> list[str]:
    """What the self-test line cannot show: the C helpers came prebuilt, not compiled."""
    problems = []
    prebuilt = bundle / "_internal" / "engine" / "native" / "lib"
    for helper, what in (("rotary_routing", "routing helper"), ("rotary_policy", "rotary policy step")):
        if len(list(prebuilt.glob(f"{helper}-*.*"))) != 1:
            problems.append(f"the bundle does not carry exactly one prebuilt {what}")
    # The self-test loads both helpers: from the bundle, not a cache or a compiler.
    for helper, what in (("rotary_routing", "routing helper"), ("rotary_policy", "rotary policy step")):
        if f"native helper {helper} loaded from {prebuilt}" not in log:
            problems.append(f"the self-test did not load the {what} the bundle carries")
    problems += second_copies(bundle)
    if (bundle / "_internal" / "engine" / "native" / "csrc").exists():
        problems.append("the bundle carries the C sources (it would compile them, not use its copies)")
    # Native parts the self-test does not run: PDF reading (documents) needs pdfium.
    if not any((bundle / "_internal").rglob("*pdfium*.*")):
        problems.append("pdfium (PDF reading) is missing from the bundle")
    if "falls back to Python" in log or "falling back to Python" in log:
        problems.append("the bundled engine fell back to Python: " + next(
            line for line in log.splitlines() if "back to Python" in line))
    source = [str(ROOT / part) + os.sep for part in ("engine", "app", ".venv")]
    if any(folder in log for folder in source):
        problems.append(f"the bundled app reached the source tree ({ROOT}) at run time")
    return problems


def processor_variant_problems(bundle: Path, log: str) -> list[str]:
    """The bundle carries the processor variants of the CPU back-end, and its self-test ran
    the one this processor runs best from the bundle's own folder (engine/native/cpu_isa.py)."""
    sys.path.insert(0, str(ROOT))
    from engine.native import cpu_isa  # noqa: PLC0415 - the build machine's processor

    root = bundle / "_internal" / "rotary-backends"
    if not cpu_isa.supported_here():
        return []
    if not cpu_isa.installed(root):
        return ["the bundle carries no processor variant of the CPU back-end"]
    wanted = cpu_isa.plan(root, wanted="")
    line = next((text for text in log.splitlines() if "processor code: " in text), "")
    print(f"bundled self-test, {line[line.find('processor code: '):] if line else 'processor code not logged'}")
    if wanted.variant is not None and f"processor code: {wanted.label} from {wanted.variant.folder}" not in line:
        return [f"the self-test did not run the bundled {wanted.name} processor variant"]
    return []


def second_copies(bundle: Path) -> list[str]:
    """A back-end's library also at the top of _internal would be a dead copy (cuBLASLt: 517
    MiB), or worse, the one the loader finds first; the back-ends' libraries that the wheel's
    own folder also has (libggml-base, ...) are fine there."""
    internal = bundle / "_internal"
    wheel = {p.name for p in (internal / "llama_cpp" / "lib").glob("*")}
    backend = {p.name for p in (internal / "rotary-backends").glob("*/*")} - wheel
    return [f"a second copy of {name} at the top of _internal" for name in sorted(backend)
            if (internal / name).exists()]


def self_test_all(bundle: Path) -> int:
    """Offscreen, then (Linux) on an X display and without any console; 0 when all pass."""
    code, line, log = self_test(bundle)
    print(f"bundled self-test (exit {code}): {line}")
    problems, first_log = bundle_problems(bundle, log) + processor_variant_problems(bundle, log), log
    if sys.platform.startswith("linux"):
        if shutil.which("xvfb-run"):
            xcb_code, line, _log = self_test(bundle, "xcb")
            print(f"bundled self-test on an X display (exit {xcb_code}): {line}")
            code = code or xcb_code
        quiet_code, line, log = self_test(bundle, console=False)
        print(f"bundled self-test without stdout/stderr (exit {quiet_code}): {line}")
        code = code or quiet_code
        if "rotary.stdout: ROTARY SELF-TEST PASSED" not in log or " rotary.llama: " not in log:
            problems.append("without a console, the verdict or llama.cpp's lines missed the log")
    code = code or _device_self_tests(bundle, first_log, problems)
    for problem in problems:
        print(f"bundle problem: {problem}")
    return code or (1 if problems else 0)


def _device_self_tests(bundle: Path, first_log: str, problems: list[str]) -> int:
    """Where the bundled app says the model ran: on the processor with no device visible,
    and, where the bundle carries the Vulkan back-end and Mesa's software Vulkan device is
    installed, on that device once ggml is told to use it (GGML_VK_VISIBLE_DEVICES=0)."""
    code, where = 0, next((text for text in first_log.splitlines() if " ran on " in text), "")
    print(f"bundled self-test, no GPU visible: {where or 'no line says where the model ran'}")
    if "ran on the processor" not in where:
        problems.append("with no GPU visible the self-test did not say the model ran on the processor")
    carried = (bundle / "_internal" / "rotary-backends" / "vulkan" / "variant.json").exists()
    software = list(Path("/usr/share/vulkan/icd.d").glob("lvp_icd*.json"))
    if not carried:
        problems.append("the bundle carries no Vulkan back-end")
        return code
    if not software:
        print("bundled self-test on the Vulkan device: skipped (Mesa's software Vulkan device "
              "is not installed: apt-get install mesa-vulkan-drivers)")
        return code
    # A software device is never chosen for the user (engine/native/device_kinds.py): the model
    # must run on the processor, and nothing may call the device a graphics card ...
    vk_code, line, log = self_test(bundle, extra_env={"GGML_VK_VISIBLE_DEVICES": "0"})
    where = next((text for text in log.splitlines() if " ran on " in text), "")
    print(f"bundled self-test, software Vulkan device visible (exit {vk_code}): {where or line}")
    if "ran on the processor" not in where or "graphics card" in where:
        problems.append("with the software Vulkan device visible the self-test did not run the "
                        "model on the processor, or called the device a graphics card")
    # ... and, told that it may stand in for a card, the bundle's Vulkan back-end runs the
    # model's expert slots on it.
    forced_code, line, log = self_test(bundle, extra_env={"GGML_VK_VISIBLE_DEVICES": "0",
                                                          "ROTARY_SOFTWARE_GPU": "1"})
    where = next((text for text in log.splitlines() if " ran on " in text), "")
    print(f"bundled self-test on the software Vulkan device (exit {forced_code}): {where or line}")
    if "ran on Vulkan0" not in where or "expert slots" not in where:
        problems.append("with ROTARY_SOFTWARE_GPU=1 the self-test did not run the model's "
                        "expert slots on the software Vulkan device")
    vk_code = vk_code or forced_code
    return code or vk_code


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-build", action="store_true", help="self-test dist/Rotary as is")
    parser.add_argument("--packages", action="store_true", help="also make the tarball and .deb")
    parser.add_argument("--cuda", action="store_true",
                        help="also carry the CUDA back-end (built first; needs nvcc)")
    args = parser.parse_args(argv)
    extra = (cuda_backend(),) if args.cuda and not args.skip_build else ()
    seconds = None if args.skip_build else build(extra)
    if not executable(BUNDLE).exists():
        print(f"no bundle at {BUNDLE}")
        return 1
    size = folder_size(BUNDLE)
    if seconds is not None:     # the load says how shared the machine was meanwhile
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"bundle build time: {seconds:.0f} s (load average {load:.1f}, "
              f"{os.cpu_count()} cores)")
    print(f"bundle size: {size / 2**20:.0f} MiB ({BUNDLE})")
    code = self_test_all(BUNDLE)
    if code == 0 and args.packages:
        started = time.perf_counter()
        code = subprocess.call([sys.executable, str(ROOT / "installer" / "linux" /
                                                    "make_packages.py")])
        print(f"packages time: {time.perf_counter() - started:.0f} s")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
