"""The slot cache on an NVIDIA GPU against a tuned stock llama.cpp: one prepared run.

Here (no GPU), in this order:

    python3 bench/gpu_slotcache.py --build-wheel --arch 89,90   # the patched CUDA wheel
    python3 bench/gpu_slotcache.py --prepare --arch 90          # .gpu/: what travels
    python3 bench/gpu_slotcache.py --smoke                      # every phase, on the CPU,
                                                                # with the carried CUDA wheel

On the GPU machine (no network; numpy, jinja2, psutil and cuBLAS come with its Python):

    device tool: run(command="python3 bench/gpu_slotcache.py --limit-s 480 --out $OUT",
                     carry=[".gpu"], timeout_s=600)

``--build-wheel`` compiles the CUDA side of the patch series here (bench/cuda_build.py),
keyed and cached like bootstrap's CPU wheel. ``--prepare`` puts that wheel (one
architecture keeps it under the 64 MiB a device call may carry), the pure-Python packages
the GPU machine lacks, and the real gpt-oss-20b routing trace into .gpu/ (git-ignored).
The run installs them into a private folder, finds the machine's cuBLAS, and runs
bench/gpu_slotcache_run.py: decode and prompt speeds of tuned stock, slots + LRU and slots +
rotary for the Qwen3.6-35B-A3B and gpt-oss-20b shapes at an 8 GB budget; then the same
phases on the Vulkan back-end that bootstrap.py installed (carried as vulkan.tar.gz, with a
Vulkan loader), so the two back-ends are measured side by side on one card. Without a carried
wheel it falls back to building libllama from the patched sources there (minutes of GPU time).
``--smoke`` runs the same phases on a scaled-down model on the CPU; when .gpu/ holds a CUDA
wheel it runs that wheel's libraries (CUDA reports no device here and ggml uses the CPU), and
first checks that they route every token exactly as the CPU build does. Its Vulkan pass runs
on Mesa's software Vulkan device where one is installed, with the slots on that device.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CARRY = ROOT / ".gpu"
CARRY_LIMIT = 60 * 2**20          # the device call carries 64 MiB with the working tree
# Pure-Python packages the engine and llama_cpp import that the GPU machine's image lacks.
PURE_WHEELS = ("gguf==0.19.0", "diskcache", "platformdirs")
TRIM_OUT = ("ggml/src/ggml-vulkan", "ggml/src/ggml-metal", "ggml/src/ggml-sycl",
            "ggml/src/ggml-opencl", "ggml/src/ggml-cann", "ggml/src/ggml-webgpu",
            "ggml/src/ggml-zdnn", "ggml/src/ggml-musa", "ggml/src/ggml-rpc", "ggml/src/ggml-hexagon",
            "ggml/src/ggml-openvino", "ggml/src/ggml-zendnn", "ggml/src/ggml-virtgpu")
SOURCE_CMAKE = ["-DCMAKE_BUILD_TYPE=Release", "-DBUILD_SHARED_LIBS=ON", "-DGGML_NATIVE=OFF",
                "-DGGML_CUDA=ON", "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF",
                "-DLLAMA_BUILD_TOOLS=OFF", "-DLLAMA_BUILD_SERVER=OFF", "-DLLAMA_BUILD_COMMON=OFF",
                "-DLLAMA_CURL=OFF", "-DLLAMA_BUILD_APP=OFF"]


# ---- here: what travels ------------------------------------------------------------------------

def prepare(arch: str, with_sources: bool) -> None:
    """.gpu/: the CUDA wheel, the pure-Python wheels, the routing trace (and the sources)."""
    from bench.cuda_build import build_cuda_wheel

    shutil.rmtree(CARRY, ignore_errors=True)
    (CARRY / "wheels").mkdir(parents=True)
    slim_wheel(build_cuda_wheel(arch), CARRY / "wheels")
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
                    "--dest", str(CARRY / "wheels"), *PURE_WHEELS], check=True)
    traces = ROOT.parent / "shared" / "traces"
    (CARRY / "traces").mkdir()
    if (traces / "gptoss_all.npz").exists():
        shutil.copy2(traces / "gptoss_all.npz", CARRY / "traces" / "gptoss_all.npz")
    if with_sources:
        _pack_sources()
    _pack_vulkan()
    size = sum(p.stat().st_size for p in CARRY.rglob("*") if p.is_file())
    print(f"{CARRY}: {size / 2**20:.1f} MiB", flush=True)
    if size > CARRY_LIMIT:
        raise SystemExit(f".gpu/ is {size / 2**20:.1f} MiB, over the {CARRY_LIMIT / 2**20:.0f} MiB "
                         "a device call may carry: prepare one architecture (--arch 90).")


def slim_wheel(wheel: pathlib.Path, folder: pathlib.Path) -> pathlib.Path:
    """The wheel with each shared library once: the build installs every library twice
    (llama_cpp/lib and a top-level lib/) and each as three full files (libggml-cuda.so,
    .so.0, .so.0.25.3: 3 x 92 MB). Kept: llama_cpp/lib's names that llama_cpp opens
    (libX.so) and the sonames the libraries need (libX.so.0); the CUDA library only by its
    soname, as libggml links it."""
    import re
    import zipfile

    def keep(name: str) -> bool:
        if name.startswith("lib/") or re.search(r"\.so\.\d+\.\d+", name):
            return False          # a second copy outside the package; libX.so.0.25.3 (links)
        return not name.endswith("/libggml-cuda.so")     # opened by the soname only
    out = folder / wheel.name
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        names = [n for n in src.namelist() if keep(n)]
        for name in names:
            data = src.read(name)
            if name.endswith(".dist-info/RECORD"):
                data = "".join(line + "\n" for line in data.decode().splitlines()
                               if keep(line.split(",")[0])).encode()
            dst.writestr(src.getinfo(name), data)
    print(f"{out.name}: {wheel.stat().st_size / 2**20:.0f} MiB -> {out.stat().st_size / 2**20:.0f} MiB "
          "(each library once)", flush=True)
    return out


def _pack_vulkan() -> None:
    """The Vulkan back-end bootstrap installed (.venv/rotary-backends/vulkan), each library
    once, and this machine's Vulkan loader in case the GPU machine's image lacks one (the
    NVIDIA driver's own Vulkan driver is found through the loader's usual search)."""
    import ctypes.util

    folder = pathlib.Path(sys.prefix) / "rotary-backends" / "vulkan"
    if not (folder / "variant.json").exists():
        print("[no Vulkan back-end installed: the run measures CUDA only]", flush=True)
        return
    loader = ctypes.util.find_library("vulkan")
    with tarfile.open(CARRY / "vulkan.tar.gz", "w:gz") as tar:
        for path in sorted(folder.iterdir()):
            if not re.search(r"\.so\.\d+\.\d+", path.name):     # libX.so and libX.so.0 only
                tar.add(path, f"vulkan/{path.name}")
        for directory in ("/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"):
            if loader and (pathlib.Path(directory) / loader).exists():
                tar.add(pathlib.Path(directory) / loader, f"vulkan-loader/{loader}")
                break


def unpack_vulkan(work: pathlib.Path) -> pathlib.Path | None:
    """.gpu/vulkan.tar.gz unpacked under work; the library folder, or None if not carried."""
    if not (CARRY / "vulkan.tar.gz").exists():
        return None
    with tarfile.open(CARRY / "vulkan.tar.gz") as tar:
        tar.extractall(work)
    return work / "vulkan"


def _pack_sources() -> None:
    """The patched, trimmed llama.cpp sources: the fallback when no wheel could travel."""
    import tempfile

    import llama_build

    with tempfile.TemporaryDirectory() as tmp:
        source = llama_build.fetch_sdist(pathlib.Path(sys.executable), pathlib.Path(tmp))
        llama_build.apply_patches(source)
        with tarfile.open(CARRY / "native.tar.gz", "w:gz") as tar:
            llama = source / "vendor" / "llama.cpp"
            for part in ("CMakeLists.txt", "cmake", "include", "src", "ggml", "vendor", "licenses",
                         "LICENSE"):
                if (llama / part).exists():
                    tar.add(llama / part, f"llama.cpp/{part}", filter=_trimmed)
            tar.add(source / "llama_cpp", "python/llama_cpp",
                    filter=lambda i: None if i.name.endswith((".so", ".pyc")) else i)


def _trimmed(info: tarfile.TarInfo):
    name = info.name.removeprefix("llama.cpp/")
    return None if any(name.startswith(t) for t in TRIM_OUT) or "/.git" in name else info


# ---- there: install what travelled ---------------------------------------------------------------

def install_carried(site: pathlib.Path) -> bool:
    """The carried wheels into ``site`` (pip, no index, no dependencies); False if none."""
    wheels = sorted((CARRY / "wheels").glob("*.whl")) if (CARRY / "wheels").exists() else []
    if not any(w.name.startswith("llama_cpp_python") for w in wheels):
        return False
    shutil.rmtree(site, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                    "--no-compile", "--target", str(site), *map(str, wheels)], check=True)
    return True


def cuda_library_dirs() -> list[str]:
    """Folders holding cuBLAS and the CUDA runtime for the wheel (it carries neither):
    PyTorch's nvidia wheels, the CUDA toolkit."""
    candidates = [pathlib.Path("/usr/local/cuda/lib64")]
    from bench.cuda_build import CUBLAS_REQUIREMENT, cache_root
    # here (smoke runs): the registry's cuBLAS that --build-wheel unpacked
    candidates.append(cache_root() / "cublas" / CUBLAS_REQUIREMENT.split("==")[1] / "nvidia"
                      / "cu13" / "lib")
    try:
        import nvidia  # PyTorch's CUDA libraries, where it is installed
        candidates += [pathlib.Path(p) / "cu13" / "lib" for p in nvidia.__path__]
    except ImportError:
        pass
    return [str(c) for c in candidates
            if (c / "libcublas.so.13").exists() or (c / "libcudart.so.13").exists()]


def build_from_sources(work: pathlib.Path, arch: str) -> pathlib.Path:
    """The fallback: unpack .gpu/native.tar.gz and build libllama there; the Python path."""
    with tarfile.open(CARRY / "native.tar.gz") as tar:
        tar.extractall(work)
    build_dir = work / "build"
    subprocess.run(["cmake", "-S", str(work / "llama.cpp"), "-B", str(build_dir), "-G", "Ninja",
                    *SOURCE_CMAKE, f"-DCMAKE_CUDA_ARCHITECTURES={arch}"], check=True)
    subprocess.run(["ninja", "-C", str(build_dir), "llama"], check=True)
    lib = work / "python" / "llama_cpp" / "lib"
    lib.mkdir(parents=True, exist_ok=True)
    for so in (build_dir / "bin").glob("*.so*"):
        if not (lib / so.name).exists():
            (lib / so.name).symlink_to(so.resolve())
    return work / "python"


# ---- the run ---------------------------------------------------------------------------------------

def routing_check(work: pathlib.Path, env: dict) -> bool:
    """The carried CUDA libraries, run here on the CPU, route and write exactly as the CPU build:
    the same tokens and the same routing of every cached layer for 32 greedy tokens."""
    script = ROOT / "bench" / "gpu_slotcache_check.py"
    out = {}
    for name, run_env in (("cpu build", dict(os.environ)), ("cuda wheel", env)):
        target = work / f"routing-{name.replace(' ', '-')}.json"
        subprocess.run([sys.executable, str(script), str(work), str(target)], env=run_env,
                       check=True)
        out[name] = json.loads(target.read_text())
    same = out["cpu build"] == out["cuda wheel"]
    print(f"routing of the CUDA wheel's libraries (no device) vs the CPU build: "
          f"{'identical' if same else 'DIFFERENT'} ({len(out['cpu build']['tokens'])} tokens)",
          flush=True)
    return same


def main() -> int:
    args = _parser().parse_args()
    if args.build_wheel:
        from bench.cuda_build import build_cuda_wheel
        build_cuda_wheel(args.arch)
        return 0
    if args.prepare:
        prepare(args.arch, args.with_sources)
        return 0
    started = time.monotonic()
    work, env = pathlib.Path(args.work), dict(os.environ, PYTHONUNBUFFERED="1")
    work.mkdir(parents=True, exist_ok=True)
    site = work / "site"
    if install_carried(site):
        libs = cuda_library_dirs()
        env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
        env["LD_LIBRARY_PATH"] = os.pathsep.join(libs + [env.get("LD_LIBRARY_PATH", "")])
        print(f"[carried wheel installed; CUDA libraries from {libs or 'the system'}]", flush=True)
        if args.smoke and not routing_check(work, env):
            return 1
    elif not args.smoke:
        env["PYTHONPATH"] = os.pathsep.join([str(build_from_sources(work, args.arch)), str(ROOT)])
        print(f"[built from sources in {time.monotonic() - started:.0f} s]", flush=True)
    vulkan = unpack_vulkan(work)
    # CUDA first; the Vulkan back-end (same shapes, same phases) gets what is left, at least 40%.
    left = args.limit_s - (time.monotonic() - started)
    code = _run_phases(args, work, env, args.out, left * (0.6 if vulkan else 1.0))
    if vulkan is None:
        return code
    vk_env = dict(env, LLAMA_CPP_LIB_PATH=str(vulkan), LD_LIBRARY_PATH=os.pathsep.join(
        [str(work / "vulkan-loader"), env.get("LD_LIBRARY_PATH", "")]))
    if args.smoke:
        vk_env["GGML_VK_VISIBLE_DEVICES"] = "0"     # here: Mesa's software device, if installed
    print("[the same phases on the Vulkan back-end]", flush=True)
    left = args.limit_s - (time.monotonic() - started)
    return _run_phases(args, work, vk_env, f"{args.out}/vulkan", left) or code


def _run_phases(args: argparse.Namespace, work: pathlib.Path, env: dict, out: str,
                limit_s: float) -> int:
    command = [sys.executable, str(ROOT / "bench" / "gpu_slotcache_run.py"), "--out", out,
               "--work", str(work), "--limit-s", str(int(limit_s)), "--shapes", args.shapes]
    command += ["--smoke"] if args.smoke else []
    command += ["--trace", args.trace] if args.trace else []
    return subprocess.call(command, env=env)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build-wheel", action="store_true",
                        help="here: build the patched CUDA wheel for --arch (e.g. 89,90)")
    parser.add_argument("--prepare", action="store_true", help="here: fill .gpu/ for the GPU run")
    parser.add_argument("--with-sources", action="store_true",
                        help="with --prepare: also carry the patched sources (build fallback)")
    parser.add_argument("--arch", default="90", help="CUDA architectures, e.g. 89,90")
    parser.add_argument("--limit-s", type=float, default=480)
    parser.add_argument("--out", default="artifacts/gpu")
    parser.add_argument("--work", default="/tmp/rotary-gpu")
    parser.add_argument("--shapes", default="qwen3.6,gpt-oss-20b")
    parser.add_argument("--trace", help="replay this routing trace where its shape matches")
    parser.add_argument("--smoke", action="store_true", help="here: every phase on a scaled-down model, without a GPU")
    return parser


if __name__ == "__main__":
    sys.exit(main())
