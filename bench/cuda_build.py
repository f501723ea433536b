"""The patched llama-cpp-python CUDA wheel, built on a machine with nvcc but no GPU or cuBLAS.

    python3 bench/gpu_slotcache.py --build-wheel --arch 89,90

This is how the CUDA side of the patch series gets compiled before any GPU runs it: the
machines the project is developed and tested on have nvcc and the CUDA runtime headers but
no driver and no cuBLAS. cuBLAS's headers and libraries come from the package registry's
``nvidia-cublas`` wheel (kept in the cache folder); the built wheel links it by its soname and
does not carry it, so on a GPU machine the system's (or PyTorch's) cuBLAS is loaded at run
time. ``-DGGML_CUDA_NO_VMM=ON`` drops the one call into the driver library, which is absent
here. The wheel goes to ``<wheelhouse>/cuda/<key>/`` with the same key rule as bootstrap's (llama_build.py)
(version, build flags, patches); the CMake build folder is kept beside it, keyed by the
flags only, so a changed patch recompiles only the files it touches (a full build for two
architectures is the slow part: ggml's CUDA kernels).
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import shutil
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import llama_build  # noqa: E402

# One cuBLAS for this wheel and the CUDA back-end variant (llama_build: CUDA 13, as nvcc 13.0).
CUBLAS_REQUIREMENT = llama_build.CUBLAS_REQUIREMENT
# Everything the Python package needs and nothing else (no tools, examples or app).
CUDA_FLAGS = ("-DGGML_CUDA=on -DGGML_CUDA_NO_VMM=ON -DLLAMA_BUILD_APP=OFF "
              + llama_build.CPU_CMAKE_ARGS)


def cache_root() -> pathlib.Path:
    return llama_build.wheelhouse("cuda").parent.parent


def cublas_root(python: pathlib.Path) -> pathlib.Path:
    """nvidia/cu13 of the unpacked nvidia-cublas wheel: include/ and lib/ (llama_build's)."""
    return llama_build.cublas_root(python)


def cmake_args(arch: str, cublas: pathlib.Path) -> tuple[str, str]:
    """(the flags that define the build, the same plus this machine's cuBLAS paths)."""
    archs = ";".join(a.strip() for a in arch.split(","))
    flags = f"{CUDA_FLAGS} -DCMAKE_CUDA_ARCHITECTURES={archs} ({CUBLAS_REQUIREMENT} headers)"
    lib, include = cublas / "lib", cublas / "include"
    local = (f"{CUDA_FLAGS} -DCMAKE_CUDA_ARCHITECTURES={archs} "
             f"-DCUDA_cublas_LIBRARY={lib / 'libcublas.so.13'} "
             f"-DCUDA_cublasLt_LIBRARY={lib / 'libcublasLt.so.13'} "
             f"-DCMAKE_CUDA_FLAGS=-I{include} -DCMAKE_CXX_FLAGS=-I{include}")
    return flags, local


def build_cuda_wheel(arch: str) -> pathlib.Path:
    """The wheel for these architectures, from the wheelhouse or built now (timed)."""
    python = pathlib.Path(sys.executable)
    cublas = cublas_root(python)
    flags, local = cmake_args(arch, cublas)
    house = llama_build.wheelhouse("cuda") / llama_build.wheel_key(flags)
    built = sorted(house.glob("llama_cpp_python-*.whl"))
    if built:
        print(f"+ reusing {built[-1]}", flush=True)
        return built[-1]
    # Stable folders keyed by the flags alone: unchanged sources keep their tar timestamps,
    # so ninja rebuilds only what the patches changed.
    work = cache_root() / "build" / f"cuda-{hashlib.sha256(flags.encode()).hexdigest()[:12]}"
    source = llama_build.fresh_patched_source(python, work / "src")
    env = dict(os.environ, CMAKE_ARGS=local, CMAKE_BUILD_PARALLEL_LEVEL=str(os.cpu_count() or 2))
    started = time.monotonic()
    llama_build.run(str(python), "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(house),
                  "--config-settings", f"build-dir={work / 'build'}", str(source), env=env)
    wheel = sorted(house.glob("llama_cpp_python-*.whl"))[-1]
    print(f"built {wheel.name} in {time.monotonic() - started:.0f} s, "
          f"{wheel.stat().st_size / 2**20:.1f} MiB", flush=True)
    return wheel


def library_path(cublas: pathlib.Path) -> str:
    """LD_LIBRARY_PATH for loading a CUDA build here (smoke runs): cuBLAS and the runtime."""
    cuda = pathlib.Path(shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc").resolve().parents[1]
    return os.pathsep.join(str(p) for p in (cublas / "lib", cuda / "lib64") if p.exists())
