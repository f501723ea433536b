"""The slot cache on an NVIDIA GPU: stock whole-layer placement vs slots with LRU and rotary.

One command on the GPU machine (no network there; Python with numpy, nvcc, CMake, ninja):

    python3 bench/gpu_slotcache.py --limit-s 540 --out $OUT

It builds the patched libllama for one architecture (sm_90 unless --arch), writes a
synthetic model with the exact tensor shapes and quantization types of Qwen3.6-35B-A3B
Q4_K_M (engine/fixtures/loadable_shapes.py: sparse zeros, random routers), plans it for an
8 GB card with the project's planner, replays a synthetic routing trace (the residency
simulator's generator, Qwen3.6 shape) through the cache, and prints decode tokens/s for
stock / LRU / rotary at the same VRAM budget, the host->device bandwidth of slot uploads,
and prompt reading tokens/s for a 4,096-token prompt at micro-batch 512 and 2,048.
Everything it needs travels in .gpu/native.tar.gz (3.5 MiB, git-ignored), made here first:

    python3 bench/gpu_slotcache.py --prepare [--sdist llama_cpp_python-0.3.36.tar.gz]
    # device tool: run(command="python3 bench/gpu_slotcache.py --limit-s 540 --out $OUT",
    #                  carry=[".gpu"], timeout_s=600)

The measuring half runs on the CPU too: --smoke (a scaled-down model, CPU recipes). The full
Qwen3.6-shaped file (19.7 GiB apparent, ~360 MB on disk) loaded and decoded with 8 slots on
all 40 layers and replayed routing on the CPU build here; the CUDA build has not run yet.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys
import tarfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CARRY = ROOT / ".gpu"
PURE_DEPS = ("jinja2", "markupsafe", "diskcache", "typing_extensions.py", "gguf", "platformdirs",
             "yaml", "tqdm")
TRIM_OUT = ("ggml/src/ggml-vulkan", "ggml/src/ggml-metal", "ggml/src/ggml-sycl",
            "ggml/src/ggml-opencl", "ggml/src/ggml-cann", "ggml/src/ggml-webgpu",
            "ggml/src/ggml-zdnn", "ggml/src/ggml-musa", "ggml/src/ggml-rpc", "ggml/src/ggml-hexagon",
            "ggml/src/ggml-openvino", "ggml/src/ggml-zendnn", "ggml/src/ggml-virtgpu")
CMAKE = ["-DCMAKE_BUILD_TYPE=Release", "-DBUILD_SHARED_LIBS=ON", "-DGGML_NATIVE=OFF",
         "-DGGML_CUDA=ON", "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF",
         "-DLLAMA_BUILD_TOOLS=OFF", "-DLLAMA_BUILD_SERVER=OFF", "-DLLAMA_BUILD_COMMON=OFF",
         "-DLLAMA_CURL=OFF", "-DLLAMA_BUILD_APP=OFF"]


# ---- here: what travels ----------------------------------------------------------------------

def prepare(sdist: pathlib.Path | None) -> pathlib.Path:
    """.gpu/native.tar.gz: the patched, trimmed llama.cpp sources, llama_cpp's Python
    package and the pure-Python modules it imports."""
    import tempfile  # noqa: PLC0415

    import bootstrap  # noqa: PLC0415

    CARRY.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        if sdist is None:
            source = bootstrap.fetch_sdist(pathlib.Path(sys.executable), tmp)
        else:
            with tarfile.open(sdist) as tar:
                tar.extractall(tmp)
            source = next(p for p in tmp.iterdir() if p.is_dir())
        bootstrap.apply_patches(source)
        archive = CARRY / "native.tar.gz"
        with tarfile.open(archive, "w:gz") as tar:
            llama = source / "vendor" / "llama.cpp"
            for part in ("CMakeLists.txt", "cmake", "include", "src", "ggml", "vendor", "app",
                         "licenses", "LICENSE"):
                if (llama / part).exists():
                    tar.add(llama / part, f"llama.cpp/{part}", filter=_trimmed)
            tar.add(source / "llama_cpp", "python/llama_cpp", filter=_no_binaries)
            site = pathlib.Path(__import__("jinja2").__file__).parents[1]
            for dep in PURE_DEPS:
                if (site / dep).exists():
                    tar.add(site / dep, f"python/{dep}", filter=_no_binaries)
    print(f"{archive}: {archive.stat().st_size / 2**20:.1f} MiB")
    return archive


def _trimmed(info: tarfile.TarInfo):
    name = info.name.removeprefix("llama.cpp/")
    return None if any(name.startswith(t) for t in TRIM_OUT) or "/.git" in name else info


def _no_binaries(info: tarfile.TarInfo):
    return None if info.name.endswith((".so", ".pyc", ".dylib", ".dll")) else info


# ---- there: build ------------------------------------------------------------------------------

def build(work: pathlib.Path, arch: str) -> pathlib.Path:
    """Unpack .gpu/native.tar.gz, build libllama + ggml (CUDA, one arch); the Python path."""
    with tarfile.open(CARRY / "native.tar.gz") as tar:
        tar.extractall(work)
    build_dir = work / "build"
    subprocess.run(["cmake", "-S", str(work / "llama.cpp"), "-B", str(build_dir), "-G", "Ninja",
                    *CMAKE, f"-DCMAKE_CUDA_ARCHITECTURES={arch}"], check=True)
    subprocess.run(["ninja", "-C", str(build_dir), "llama"], check=True)
    lib = work / "python" / "llama_cpp" / "lib"
    lib.mkdir(parents=True, exist_ok=True)
    for so in (build_dir / "bin").glob("*.so*"):
        target = lib / so.name
        if not target.exists():
            target.symlink_to(so.resolve())
    return work / "python"


# ---- there (or --smoke here): measure --------------------------------------------------------

def main() -> int:
    args = _parser().parse_args()
    if args.prepare:
        prepare(pathlib.Path(args.sdist) if args.sdist else None)
        return 0
    started = time.monotonic()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    work = pathlib.Path(args.work)
    env = dict(os.environ)
    if not args.smoke:
        python_path = build(work, args.arch)
        env["PYTHONPATH"] = os.pathsep.join([str(python_path), str(ROOT)])
        print(f"[build {time.monotonic() - started:.0f} s]", flush=True)
    left = args.limit_s - (time.monotonic() - started)
    command = [sys.executable, str(pathlib.Path(__file__).resolve().parent / "gpu_slotcache_run.py"),
               "--out", str(out), "--work", str(work), "--limit-s", str(int(left))]
    return subprocess.call(command + (["--smoke"] if args.smoke else []), env=env)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--prepare", action="store_true", help="here: write .gpu/native.tar.gz")
    parser.add_argument("--sdist", help="with --prepare: a local llama-cpp-python sdist")
    parser.add_argument("--limit-s", type=float, default=540)
    parser.add_argument("--out", default="artifacts/gpu")
    parser.add_argument("--work", default="/tmp/rotary-gpu")
    parser.add_argument("--arch", default="90")
    parser.add_argument("--smoke", action="store_true", help="CPU: no build, a small model")
    return parser


if __name__ == "__main__":
    sys.exit(main())
