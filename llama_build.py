"""How Rotary builds llama.cpp: the facts shared by bootstrap.py and bench/cuda_build.py.

Standard library only (bootstrap.py imports it before anything is installed).

- The llama-cpp-python wheel (the CPU back-end and the Python package) is built by pip from
  the sdist with the engine's patch series applied, and kept in a wheelhouse keyed by
  version, CMake flags and the patches' bytes.
- GPU back-ends are *variants*: folders of llama.cpp shared libraries (libllama, libggml*)
  built from the same patched sources with one GPU back-end switched on, plus a
  ``variant.json``. The engine chooses one before llama_cpp loads (``LLAMA_CPP_LIB_PATH``,
  engine/native/backends.py). Separate folders rather than ggml's loadable back-ends
  (``GGML_BACKEND_DL``): the patch series calls the CPU back-end directly
  (``ggml_backend_cpu_buffer_type``), which libllama cannot link to when the CPU back-end is
  a loadable module, and llama-cpp-python would look for modules beside python's executable.
- A variant's CMake tree is kept (keyed by its flags), and llama.cpp's ``llama-server`` for
  the office-server tests is built in that same configured tree, so the libraries it shares
  with the variant are compiled once.
"""

from __future__ import annotations

import ctypes.util
import hashlib
import json
import os
import pathlib
import platform
import re
import shutil
import subprocess
import sys
import tarfile
import time

ROOT = pathlib.Path(__file__).resolve().parent
PATCHES = ROOT / "engine" / "native" / "patches"   # applied to the sdist, in name order


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
# Portable CPU build: the cached wheel stays valid on any x86-64 of this image. Only what
# the Python package loads (libllama, ggml): not llama.cpp's common library nor libmtmd
# (images), about 40% of the wheel's compile time (patch 0000 lets common be switched off).
CPU_CMAKE_ARGS = ("-DGGML_NATIVE=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF "
                  "-DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF "
                  "-DLLAMA_BUILD_COMMON=OFF -DLLAVA_BUILD=OFF")
# ROTARY_CUDA_ARCH=90 (say) builds for one GPU generation only: much faster than all of them.
CUDA_CMAKE_ARGS = CPU_CMAKE_ARGS + " -DGGML_CUDA=on" + (
    f" -DCMAKE_CUDA_ARCHITECTURES={os.environ['ROTARY_CUDA_ARCH']}"
    if os.environ.get("ROTARY_CUDA_ARCH") else "")

# A variant's tree: shared libraries that find each other beside themselves ($ORIGIN), the
# tools (llama-server) switched on but built only when asked for, no web UI (nothing is
# downloaded while building), no OpenSSL or curl.
TREE_CMAKE_ARGS = ("-DCMAKE_BUILD_TYPE=Release", "-DGGML_NATIVE=OFF", "-DBUILD_SHARED_LIBS=ON",
                   "-DLLAMA_BUILD_TESTS=OFF", "-DLLAMA_BUILD_EXAMPLES=OFF",
                   "-DLLAMA_BUILD_TOOLS=ON", "-DLLAMA_BUILD_SERVER=ON", "-DLLAMA_BUILD_APP=OFF",
                   "-DLLAMA_BUILD_UI=OFF", "-DLLAMA_USE_PREBUILT_UI=OFF", "-DLLAMA_OPENSSL=OFF",
                   "-DLLAMA_CURL=OFF", "-DCMAKE_INSTALL_RPATH=$ORIGIN",
                   "-DCMAKE_BUILD_WITH_INSTALL_RPATH=ON")
VARIANT_FLAGS = {"cpu": (), "vulkan": ("-DGGML_VULKAN=ON",),
                 # + the architectures and the VMM choice: cuda_flags() below
                 "cuda": ("-DGGML_CUDA=ON", "-DGGML_CUDA_NCCL=OFF")}
SERVER_NAME = "llama-server.exe" if sys.platform == "win32" else "llama-server"
# Debian's libvulkan-dev of this version (or newer) has the headers this llama.cpp needs
# (bookworm's 1.3.239 lacks vk::LayerSettingEXT), and ggml-vulkan wants SPIR-V headers with
# their CMake package: both fetched, headers only, from Debian's package registry.
VULKAN_HEADERS_MIN = 309          # VK_HEADER_VERSION of 1.4.309
VULKAN_HEADERS_SUITE = "trixie"
VULKAN_HEADER_PACKAGES = ("libvulkan-dev", "spirv-headers")


def cache_root() -> pathlib.Path:
    if sys.platform == "win32":
        root = pathlib.Path(os.environ.get("LOCALAPPDATA", pathlib.Path.home()))
    else:
        root = pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"))
    return root / "rotary"


def wheelhouse(variant: str) -> pathlib.Path:
    base = os.environ.get("ROTARY_WHEELHOUSE")
    return pathlib.Path(base) / variant if base else cache_root() / "wheels" / variant


def run(*args: str, env: dict | None = None, cwd: pathlib.Path | None = None) -> None:
    print("+", " ".join(args), flush=True)
    subprocess.run(args, check=True, env=env, cwd=cwd)


def patch_series() -> list[pathlib.Path]:
    return sorted(PATCHES.glob("*.patch"))


def wheel_key(cmake_args: str) -> str:
    """Version + build flags + the patches' bytes: a stock or stale build never matches."""
    digest = hashlib.sha256(f"{LLAMA_REQUIREMENT}\n{cmake_args}\n".encode())
    for patch in patch_series():
        digest.update(patch.name.encode() + b"\n" + hashlib.sha256(patch.read_bytes()).digest())
    return digest.hexdigest()[:16]


def fetch_sdist(python: pathlib.Path, directory: pathlib.Path) -> pathlib.Path:
    run(str(python), "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
        "--dest", str(directory), LLAMA_REQUIREMENT)
    archive = next(directory.glob("llama_cpp_python-*.tar.gz"))
    with tarfile.open(archive) as tar:
        kwargs = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(directory, **kwargs)
    archive.unlink()
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


def fresh_patched_source(python: pathlib.Path, folder: pathlib.Path) -> pathlib.Path:
    """The sdist, patched, in a stable folder: files the patches do not touch keep the
    archive's timestamps, so a kept build tree recompiles only what the patches changed."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    source = fetch_sdist(python, folder)
    apply_patches(source)
    return source


# ---- the Vulkan tool chain ------------------------------------------------------------

def _header_version(include: pathlib.Path) -> int:
    core = include / "vulkan" / "vulkan_core.h"
    found = re.search(r"#define VK_HEADER_VERSION (\d+)", core.read_text()) if core.exists() else None
    return int(found.group(1)) if found else 0


def _spirv_cmake(prefix: pathlib.Path) -> pathlib.Path | None:
    found = sorted(prefix.glob("*/cmake/SPIRV-Headers/SPIRV-HeadersConfig.cmake"))
    return found[0].parent if found else None


def vulkan_headers() -> pathlib.Path | None:
    """A prefix (include/, share/cmake/) new enough for this llama.cpp: the system's, or Debian's
    libvulkan-dev from the package registry, unpacked into the cache (Debian-based Linux
    only; None elsewhere, where the Vulkan SDK provides them)."""
    for system in (pathlib.Path("/usr"), pathlib.Path(os.environ.get("VULKAN_SDK", "/-"))):
        if _header_version(system / "include") >= VULKAN_HEADERS_MIN and _spirv_cmake(system):
            return system
    folder = cache_root() / "vulkan-headers" / VULKAN_HEADERS_SUITE
    if _header_version(folder / "usr" / "include") >= VULKAN_HEADERS_MIN and _spirv_cmake(folder / "usr"):
        return folder / "usr"
    if not (shutil.which("apt-get") and shutil.which("dpkg-deb")):
        return None
    return _debian_vulkan_headers(folder)


def _debian_vulkan_headers(folder: pathlib.Path) -> pathlib.Path | None:
    """Download (not install) libvulkan-dev from the newer Debian suite with a private apt
    state, so the system's package lists and installed packages stay as they are."""
    state = folder / "apt"
    for sub in ("lists/partial", "cache/archives/partial", "parts"):
        (state / sub).mkdir(parents=True, exist_ok=True)
    sources = state / "sources.list"
    sources.write_text("deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] "
                       f"http://deb.debian.org/debian {VULKAN_HEADERS_SUITE} main\n")
    options = [f"-oDir::Etc::SourceList={sources}", f"-oDir::Etc::SourceParts={state / 'parts'}",
               f"-oDir::State::Lists={state / 'lists'}", f"-oDir::Cache={state / 'cache'}",
               "-oDir::Etc::Preferences=/dev/null", f"-oDir::Etc::PreferencesParts={state / 'parts'}"]
    try:
        run("apt-get", *options, "-qq", "update")
        run("apt-get", *options, "download", *VULKAN_HEADER_PACKAGES, cwd=folder)
        for deb in folder.glob("*.deb"):
            run("dpkg-deb", "-x", str(deb), str(folder))
            deb.unlink()
    except subprocess.CalledProcessError as error:
        print(f"+ no Vulkan headers from the package registry ({error})", flush=True)
        return None
    prefix = folder / "usr"
    return prefix if _header_version(prefix / "include") >= VULKAN_HEADERS_MIN and _spirv_cmake(prefix) else None


def vulkan_loader() -> str | None:
    """The Vulkan loader every GPU driver installs (libvulkan.so.1, vulkan-1.dll)."""
    return ctypes.util.find_library("vulkan") or ctypes.util.find_library("vulkan-1")


def vulkan_toolchain() -> tuple[str, ...] | None:
    """The CMake flags that build the Vulkan back-end here, or None (and why, in one line)."""
    glslc, loader = shutil.which("glslc"), vulkan_loader()
    prefix = vulkan_headers() if glslc and loader else None
    if not (glslc and loader and prefix):
        missing = [what for what, have in (("glslc (the shader compiler)", glslc),
                                           ("the Vulkan loader", loader),
                                           ("Vulkan headers >= 1.4", prefix)) if not have]
        print(f"+ no Vulkan back-end: {', '.join(missing)} not found", flush=True)
        return None
    library = loader if os.path.isabs(loader) else _loader_path(loader)
    return (f"-DVulkan_INCLUDE_DIR={prefix / 'include'}", f"-DVulkan_LIBRARY={library}",
            f"-DVulkan_GLSLC_EXECUTABLE={glslc}", f"-DSPIRV-Headers_DIR={_spirv_cmake(prefix)}")


def _loader_path(name: str) -> str:
    """find_library gives a soname on Linux; CMake wants a path."""
    for folder in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"):
        if (pathlib.Path(folder) / name).exists():
            return str(pathlib.Path(folder) / name)
    return name


# ---- variant trees ----------------------------------------------------------------------

def variant_flags(variant: str) -> tuple[str, ...]:
    """The flags that define a variant (no paths of this machine)."""
    return VARIANT_FLAGS[variant] + (cuda_flags() if variant == "cuda" else ())


def _tree_flags(variant: str, toolchain: tuple[str, ...]) -> tuple[str, ...]:
    return TREE_CMAKE_ARGS + variant_flags(variant) + toolchain


def variant_key(variant: str) -> str:
    """What the variant's libraries are made of: the version, its defining flags (not this
    machine's paths) and the patches (and, for CUDA, the runtime wheels it carries)."""
    extra = CUDA_RUNTIME_WHEELS if variant == "cuda" else ()
    return wheel_key(" ".join(("tree", variant, *TREE_CMAKE_ARGS, *variant_flags(variant),
                               *extra)))


def _configured_tree(python: pathlib.Path, variant: str, toolchain: tuple[str, ...]) -> pathlib.Path:
    """The variant's build folder with freshly patched sources, configured (kept between
    builds, keyed by the flags only: a changed patch recompiles what it touches)."""
    flags = _tree_flags(variant, toolchain)
    work = cache_root() / "build" / f"{variant}-{hashlib.sha256(' '.join(flags).encode()).hexdigest()[:12]}"
    stamp, key = work / "source-key.txt", variant_key(variant)
    if (work / "build" / "CMakeCache.txt").exists() and stamp.exists() and stamp.read_text() == key:
        return work / "build"            # these very sources, configured: build in it as it is
    source = fresh_patched_source(python, work / "src") / "vendor" / "llama.cpp"
    cmake = shutil.which("cmake") or pip_cmake(python)
    generator = ("-G", "Ninja") if shutil.which("ninja") and not (work / "build" / "CMakeCache.txt").exists() else ()
    run(cmake, "-S", str(source), "-B", str(work / "build"), *generator, *flags)
    stamp.write_text(key)
    return work / "build"


def _build(python: pathlib.Path, tree: pathlib.Path, *targets: str) -> None:
    cmake = shutil.which("cmake") or pip_cmake(python)
    started = time.monotonic()
    run(cmake, "--build", str(tree), "--config", "Release", "--parallel", str(os.cpu_count() or 2),
        *[arg for target in targets for arg in ("--target", target)])
    print(f"+ built {', '.join(targets)} in {time.monotonic() - started:.0f} s "
          f"on {os.cpu_count()} cores", flush=True)


def _copy_libraries(tree: pathlib.Path, target: pathlib.Path) -> None:
    """The tree's shared libraries, each once: the soname (libX.so.0, what the libraries
    link) as the file and libX.so (what llama_cpp opens) as a link to it; libX.so.0.25.3 is
    dropped. A library without a version (llama-server's libllama-server-impl.so) is its own
    soname and is copied as it is. Windows DLLs have one name each."""
    target.mkdir(parents=True, exist_ok=True)
    names = {path.name for path in (tree / "bin").iterdir()}
    for path in sorted((tree / "bin").iterdir()):
        if path.suffix in (".dll", ".dylib") and path.is_file():
            shutil.copy2(path, target / path.name)
        elif re.fullmatch(r"lib[\w.-]+?\.so\.\d+", path.name):
            shutil.copy2(path.resolve(), target / path.name)
            (target / path.name.rsplit(".", 1)[0]).symlink_to(path.name)
        elif path.suffix == ".so" and not any(name.startswith(path.name + ".") for name in names):
            shutil.copy2(path.resolve(), target / path.name)


def ensure_backend(python: pathlib.Path, variant: str) -> pathlib.Path | None:
    """The variant's library folder from the cache, or built now; None when this machine
    cannot build it (the reason printed in one line)."""
    folder = cache_root() / "backends" / variant / variant_key(variant)
    if (folder / "variant.json").exists():
        print(f"+ reusing the {variant} back-end {folder}", flush=True)
        return folder
    toolchain = _toolchain(python, variant)
    if toolchain is None:
        return None
    tree = _configured_tree(python, variant, toolchain)
    started = time.monotonic()
    _build(python, tree, "llama")
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    _copy_libraries(tree, partial)
    described = {"variant": variant, "key": variant_key(variant),
                 "llama_cpp_python": LLAMA_REQUIREMENT,
                 "build_seconds": round(time.monotonic() - started)}
    if variant == "cuda":
        described.update(add_cuda_runtime(python, partial))
    (partial / "variant.json").write_text(json.dumps(described, indent=1))
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(partial, folder)                  # a concurrent run never sees half a folder
    return folder


def _toolchain(python: pathlib.Path, variant: str) -> tuple[str, ...] | None:
    """This machine's paths for building ``variant``; None (and why) where it cannot."""
    if variant == "vulkan":
        return vulkan_toolchain()
    return cuda_toolchain(python) if variant == "cuda" else ()


def llama_server_path(variant: str) -> pathlib.Path:
    """Where the llama-server of this version, variant tree and patches is kept."""
    return cache_root() / "llama-server" / f"{variant}-{variant_key(variant)}" / SERVER_NAME


def ensure_llama_server(python: pathlib.Path, variant: str) -> pathlib.Path:
    """llama.cpp's llama-server, built in the variant's tree (the libraries it shares with
    the variant are already compiled there) and kept with those libraries beside it."""
    target = llama_server_path(variant)
    if target.exists():
        print(f"+ reusing {target}", flush=True)
        return target
    toolchain = _toolchain(python, variant)
    tree = _configured_tree(python, variant, toolchain or ())
    _build(python, tree, "llama-server")
    partial = target.parent.with_name(target.parent.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    _copy_libraries(tree, partial)
    shutil.copy2(tree / "bin" / SERVER_NAME, partial / SERVER_NAME)
    shutil.rmtree(target.parent, ignore_errors=True)
    os.replace(partial, target.parent)
    return target


def pip_cmake(python: pathlib.Path) -> str:
    """No CMake on PATH (pip builds the wheel with its own): the cmake package in the venv."""
    run(str(python), "-m", "pip", "install", "--quiet", "cmake")
    return str(python.parent / ("cmake.exe" if sys.platform == "win32" else "cmake"))


# ---- processor instruction-set variants of the CPU back-end (cpuisa) ----------------------
# Without GGML_BACKEND_DL the CPU back-end is its own library with a stable soname
# (libggml-cpu.so.0), and builds for different instruction sets differ only in it: a variant
# is that one library, built in a tree of its own from the same patched sources, which the
# engine preloads where the processor runs it (engine/native/cpu_isa.py). Names and flag
# sets are ggml's own (ggml/src/CMakeLists.txt, ggml_add_cpu_backend_variant for x86); two
# chosen for office machines: Intel 12th-14th gen and Core Ultra (AVX-VNNI, no AVX-512) and
# AVX-512 with VNNI (Intel 10th gen mobile and 11th gen; AMD Zen 4/5). x86-64 Linux only.
CPU_ISA_FEATURES = ("SSE42", "AVX", "AVX2", "BMI2", "AVX_VNNI", "FMA", "F16C", "AVX512",
                    "AVX512_VBMI", "AVX512_VNNI", "AVX512_BF16", "AMX_TILE", "AMX_INT8", "AMX_BF16")
CPU_ISA_VARIANTS = {
    "alderlake": ("AVX2 with AVX-VNNI", ("SSE42", "AVX", "F16C", "FMA", "AVX2", "BMI2", "AVX_VNNI")),
    "icelake": ("AVX-512 with VNNI", ("SSE42", "AVX", "F16C", "FMA", "AVX2", "BMI2", "AVX512",
                                      "AVX512_VBMI", "AVX512_VNNI")),
}
# What Linux's /proc/cpuinfo calls each ggml feature (AVX512 is ggml's -mavx512f/cd/vl/dq/bw).
CPU_ISA_FLAGS = {"SSE42": ("sse4_2",), "AVX": ("avx",), "AVX2": ("avx2",), "BMI2": ("bmi2",),
                 "AVX_VNNI": ("avx_vnni",), "FMA": ("fma",), "F16C": ("f16c",),
                 "AVX512": ("avx512f", "avx512cd", "avx512vl", "avx512dq", "avx512bw"),
                 "AVX512_VBMI": ("avx512vbmi",), "AVX512_VNNI": ("avx512_vnni",),
                 "AVX512_BF16": ("avx512_bf16",), "AMX_TILE": ("amx_tile",),
                 "AMX_INT8": ("amx_int8",), "AMX_BF16": ("amx_bf16",)}
CPU_ISA_LIBRARY = "libggml-cpu.so.0"


def cpu_isa_buildable() -> bool:
    return sys.platform.startswith("linux") and platform.machine().lower() in ("x86_64", "amd64")


def cpu_isa_cmake_flags(name: str) -> tuple[str, ...]:
    """Every x86 feature switched explicitly, as ggml's own variant function does."""
    wanted = CPU_ISA_VARIANTS[name][1]
    return tuple(f"-DGGML_{feature}={'ON' if feature in wanted else 'OFF'}"
                 for feature in CPU_ISA_FEATURES)


def cpu_isa_cpu_flags(name: str) -> tuple[str, ...]:
    return tuple(sorted({flag for feature in CPU_ISA_VARIANTS[name][1]
                         for flag in CPU_ISA_FLAGS[feature]}))


def cpu_isa_key() -> str:
    """Version, tree flags, every variant's flags and the patches."""
    variants = [f"{name}={','.join(cpu_isa_cmake_flags(name))}" for name in sorted(CPU_ISA_VARIANTS)]
    return wheel_key(" ".join(("cpu-isa", *TREE_CMAKE_ARGS, *variants)))


def cpu_isa_folder(name: str) -> pathlib.Path:
    return cache_root() / "backends" / "cpu-isa" / cpu_isa_key() / name


def ensure_cpu_isa(python: pathlib.Path, name: str) -> pathlib.Path:
    """The variant's folder (libggml-cpu.so.0 and cpu-isa.json) from the cache, or built now:
    target ggml-cpu only, in its own tree."""
    folder = cpu_isa_folder(name)
    if (folder / "cpu-isa.json").exists():
        print(f"+ reusing the {name} processor variant {folder}", flush=True)
        return folder
    tree = _configured_tree(python, "cpu", cpu_isa_cmake_flags(name))
    started = time.monotonic()
    _build(python, tree, "ggml-cpu")
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    shutil.copy2((tree / "bin" / CPU_ISA_LIBRARY).resolve(), partial / CPU_ISA_LIBRARY)
    (partial / "cpu-isa.json").write_text(json.dumps({
        "name": name, "label": CPU_ISA_VARIANTS[name][0],
        "ggml_features": list(CPU_ISA_VARIANTS[name][1]), "cpu_flags": list(cpu_isa_cpu_flags(name)),
        "key": cpu_isa_key(), "llama_cpp_python": LLAMA_REQUIREMENT,
        "build_seconds": round(time.monotonic() - started)}, indent=1))
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(partial, folder)                  # a concurrent run never sees half a folder
    return folder


# ---- the CUDA back-end (NVIDIA): tool chain, architectures, redistributable runtime ------
# (issue 26, the cuda part.) Built like Vulkan, in a tree of its own; a user needs no CUDA
# toolkit: the variant's folder carries NVIDIA's redistributable runtime (cudart, cuBLAS,
# cuBLASLt, from the registry's wheels) and their licences. Never the driver (libcuda).

# The shipped build: machine code ("-real") for each targeted generation, so that a first
# start never waits for the driver to compile ggml's kernels (minutes on a laptop); 75 (no
# suffix) also carries PTX, so a card not listed (A100 sm_80, H100 sm_90, sm_121, ...) is
# compiled for once by the driver instead of failing with "no kernel image". CUDA 13 ends at
# sm_75 below; ggml turns 120 into 120a (Blackwell's FP4 tensor cores).
#   75 RTX 20 / GTX 16, 86 RTX 30, 89 RTX 40, 120 RTX 50
CUDA_SHIPPED_ARCHS = ("75", "86-real", "89-real", "120-real")
CUDA_ARCHS_ENV = "ROTARY_CUDA_ARCHS"       # e.g. "86-real": one generation (set-up: the card's)
# The runtime of the toolkit the kernels are compiled with (nvcc 13.0 Update 2: cudart 13.0.96,
# cuBLAS 13.1.0.3), soname .13; it needs an NVIDIA driver of the 580 series or newer.
CUBLAS_REQUIREMENT = "nvidia-cublas==13.1.0.3"
CUDA_RUNTIME_WHEELS = ("nvidia-cuda-runtime==13.0.96", CUBLAS_REQUIREMENT)
CUDA_RUNTIME_LIBS = ("libcudart.so.13", "libcublas.so.13", "libcublasLt.so.13")
LICENCE_FILE = re.compile(r"(licen[cs]e|notice|eula|copying)", re.IGNORECASE)
# What a variant's libraries may need from outside their folder: the C/C++ runtime of every
# Linux, OpenMP (the bundle carries it), and the drivers' own libraries (never shipped).
SYSTEM_LIBS = re.compile(r"^(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+|libgomp|"
                         r"ld-linux(-x86-64|-aarch64)?|libcuda|libvulkan)\.so(\.\d+)*$")


def cuda_archs() -> str:
    """CMAKE_CUDA_ARCHITECTURES: $ROTARY_CUDA_ARCHS ("86-real", "75;89") or the shipped set."""
    chosen = os.environ.get(CUDA_ARCHS_ENV, "").replace(",", ";").strip(" ;")
    return chosen or ";".join(CUDA_SHIPPED_ARCHS)


def nvcc_path() -> pathlib.Path | None:
    """nvcc on PATH, else in $CUDA_HOME (or $CUDA_PATH) / bin."""
    found = shutil.which("nvcc")
    if found:
        return pathlib.Path(found).resolve()        # /usr/local/bin/nvcc may be a wrapper
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")):
        candidate = pathlib.Path(home or "/-") / "bin" / ("nvcc.exe" if sys.platform == "win32" else "nvcc")
        if candidate.exists():
            return candidate
    return None


def _toolkit_root(nvcc: pathlib.Path) -> pathlib.Path:
    """bin/nvcc's toolkit; a shell wrapper (exec /usr/local/cuda-13.0/bin/nvcc) is followed."""
    text = nvcc.read_bytes()[:4096] if nvcc.stat().st_size < 4096 else b""
    wrapped = re.search(rb"exec\s+(\S+/bin/nvcc)\b", text)
    return pathlib.Path(wrapped.group(1).decode()).parents[1] if wrapped else nvcc.parents[1]


def cuda_driver_stub(root: pathlib.Path | None = None) -> pathlib.Path | None:
    """The toolkit's link-time stand-in for the driver library (lib64/stubs/libcuda.so)."""
    if root is None:
        nvcc = nvcc_path()
        root = _toolkit_root(nvcc) if nvcc else None
    if root is None:
        return None
    for pattern in ("lib64/stubs/libcuda.so", "lib/stubs/libcuda.so", "targets/*/lib/stubs/libcuda.so"):
        found = sorted(root.glob(pattern))
        if found:
            return found[0]
    return None


def cuda_flags() -> tuple[str, ...]:
    """The architectures, and VMM (ggml's virtual-memory pool: less fragmentation) only where
    the driver stub is there to link against: a build with VMM names libcuda.so.1, so on a
    computer without the NVIDIA driver it does not load at all (the engine then notes a
    failed back-end at every start); without VMM it loads and lists no device."""
    vmm = cuda_driver_stub() is not None
    return (f"-DCMAKE_CUDA_ARCHITECTURES={cuda_archs()}",
            f"-DGGML_CUDA_NO_VMM={'OFF' if vmm else 'ON'}")


def unpacked_wheel(python: pathlib.Path, requirement: str, folder: pathlib.Path) -> pathlib.Path:
    """A registry wheel unpacked into ``folder`` (kept): its nvidia/ tree and .dist-info."""
    if (folder / "unpacked.txt").exists():
        return folder
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    run(str(python), "-m", "pip", "download", "--no-deps", "--only-binary=:all:",
        "--dest", str(partial), requirement)
    import zipfile  # noqa: PLC0415 - only here

    wheel = next(partial.glob("*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(partial)
    wheel.unlink()
    (partial / "unpacked.txt").write_text(requirement)
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(partial, folder)
    return folder


def _wheel_folder(requirement: str) -> pathlib.Path:
    name, version = requirement.split("==")
    return cache_root() / name.removeprefix("nvidia-") / version     # cublas/13.1.0.3


def cublas_root(python: pathlib.Path) -> pathlib.Path:
    """nvidia/cu13 of the unpacked nvidia-cublas wheel: include/ and lib/."""
    return unpacked_wheel(python, CUBLAS_REQUIREMENT, _wheel_folder(CUBLAS_REQUIREMENT)) / "nvidia" / "cu13"


def _toolkit_cublas(root: pathlib.Path) -> bool:
    """The toolkit's own cuBLAS (a full install has it; a minimal one, like this image's, not)."""
    def has(*patterns: str) -> bool:
        return any(next(root.glob(pattern), None) for pattern in patterns)
    return (has("lib64/libcublas.so*", "lib/libcublas.so*", "targets/*/lib/libcublas.so*")
            and has("include/cublas_v2.h", "targets/*/include/cublas_v2.h"))


def cuda_toolchain(python: pathlib.Path) -> tuple[str, ...] | None:
    """The CMake flags that build the CUDA back-end here, or None (and why, in one line):
    nvcc, and cuBLAS from the toolkit or else from the registry's nvidia-cublas wheel."""
    nvcc = nvcc_path()
    if nvcc is None:
        print("+ no CUDA back-end: nvcc (the CUDA compiler) not found on PATH or in CUDA_HOME",
              flush=True)
        return None
    root = _toolkit_root(nvcc)
    flags = (f"-DCMAKE_CUDA_COMPILER={root / 'bin' / nvcc.name}", f"-DCUDAToolkit_ROOT={root}")
    if _toolkit_cublas(root):
        return flags
    cublas = cublas_root(python)
    lib, include = cublas / "lib", cublas / "include"
    print(f"+ cuBLAS from {CUBLAS_REQUIREMENT} (the toolkit has none)", flush=True)
    return flags + (f"-DCUDA_cublas_LIBRARY={lib / 'libcublas.so.13'}",
                    f"-DCUDA_cublasLt_LIBRARY={lib / 'libcublasLt.so.13'}",
                    f"-DCMAKE_CUDA_FLAGS=-I{include}", f"-DCMAKE_CXX_FLAGS=-I{include}")


def add_cuda_runtime(python: pathlib.Path, target: pathlib.Path) -> dict:
    """Copy what a computer without a CUDA toolkit needs into the variant's folder: cudart,
    cuBLAS, cuBLASLt from NVIDIA's wheels, their licences under licenses/<package>/; then
    check that every library there finds what it links beside itself (or is a system or
    driver library). Returns what variant.json records; stops the build on a gap."""
    licences = []
    for requirement in CUDA_RUNTIME_WHEELS:
        unpacked = unpacked_wheel(python, requirement, _wheel_folder(requirement))
        for name in CUDA_RUNTIME_LIBS:
            for found in sorted(unpacked.rglob(name)):
                shutil.copy2(found.resolve(), target / name)
        package = requirement.split("==")[0]
        for info in sorted(unpacked.glob("*.dist-info")):
            for path in sorted(p for p in info.rglob("*") if p.is_file() and LICENCE_FILE.search(p.name)):
                destination = target / "licenses" / package / path.name
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, destination)
                licences.append(f"licenses/{package}/{path.name}")
    missing = [name for name in CUDA_RUNTIME_LIBS if not (target / name).exists()]
    if missing or not licences:
        raise SystemExit(f"the CUDA runtime wheels {CUDA_RUNTIME_WHEELS} lack "
                         f"{', '.join(missing) or 'their licence files'}")
    gaps = unresolved_needs(target)
    if gaps:
        raise SystemExit("the CUDA back-end's libraries need what its folder lacks: "
                         + "; ".join(f"{lib} needs {need}" for lib, need in gaps))
    return {"cuda_architectures": cuda_archs(), "cuda_runtime": list(CUDA_RUNTIME_WHEELS),
            "cuda_vmm": cuda_driver_stub() is not None, "licenses": licences}


def needed(library: pathlib.Path) -> list[str]:
    """The NEEDED entries of an ELF shared library (readelf -d)."""
    out = subprocess.run(["readelf", "-d", str(library)], capture_output=True, text=True,
                         check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def unresolved_needs(folder: pathlib.Path) -> list[tuple[str, str]]:
    """(library, what it needs) for every need neither in the folder nor a system or driver
    library. Linux only (elsewhere, and without readelf, nothing is checked)."""
    if not sys.platform.startswith("linux") or not shutil.which("readelf"):
        return []
    present = {p.name for p in folder.iterdir()}
    return [(path.name, need) for path in sorted(folder.iterdir())
            if path.is_file() and not path.is_symlink() and ".so" in path.name
            for need in needed(path) if need not in present and not SYSTEM_LIBS.match(need)]


# ---- llama.cpp's chat layer: engine/native/chat, a shim over common/chat.cpp -------------
# One small library, librotary_chat, built from the shim and the part of llama.cpp's common
# library the chat layer needs (the CPU wheel leaves common out: patch 0000). It links libllama
# and ggml by soname, so the library llama_cpp has loaded (the wheel's, or a Vulkan or CUDA
# variant's: one version, one patch series) serves it: one build for every back-end.
CHAT_SHIM = ROOT / "engine" / "native" / "chat"
CHAT_SHIM_FILES = ("rotary_chat.cpp", "CMakeLists.txt")
CHAT_COMMON_SOURCES = (
    "chat.cpp", "chat-auto-parser-generator.cpp", "chat-auto-parser-helpers.cpp",
    "chat-diff-analyzer.cpp", "chat-peg-parser.cpp", "peg-parser.cpp", "json-schema-to-grammar.cpp",
    "json-schema.cpp", "json.cpp", "log.cpp", "unicode.cpp", "trie.cpp",
    # common.cpp (string helpers chat.cpp uses) reaches these; linking needs them
    "common.cpp", "sampling.cpp", "fit.cpp", "speculative.cpp", "reasoning-budget.cpp",
    "ngram-cache.cpp", "ngram-map.cpp", "ngram-mod.cpp", "llguidance.cpp")
CHAT_LIBRARY = {"win32": "rotary_chat.dll", "darwin": "librotary_chat.dylib"}.get(
    sys.platform, "librotary_chat.so")


def chat_shim_key() -> str:
    """The wheel's key (the libllama it links: version, flags, patches) and the shim's files."""
    digest = hashlib.sha256(f"{wheel_key(CPU_CMAKE_ARGS)}\n{';'.join(CHAT_COMMON_SOURCES)}\n".encode())
    for name in CHAT_SHIM_FILES:
        digest.update(name.encode() + b"\n" + hashlib.sha256((CHAT_SHIM / name).read_bytes()).digest())
    return digest.hexdigest()[:16]


def chat_shim_folder() -> pathlib.Path:
    """lib/ (what an install copies), templates/ (llama.cpp's models/templates, test data
    read where it is), chat.json (key, build time, size)."""
    return cache_root() / "chat" / chat_shim_key()


def _chat_source(python: pathlib.Path) -> pathlib.Path:
    """The patched sdist's vendor/llama.cpp, extracted once per wheel key."""
    work = cache_root() / "build" / "chat-source"
    stamp, key = work / "source-key.txt", wheel_key(CPU_CMAKE_ARGS)
    found = sorted(work.glob("src/llama_cpp_python-*/vendor/llama.cpp"))
    if found and stamp.exists() and stamp.read_text() == key:
        return found[0]
    source = fresh_patched_source(python, work / "src") / "vendor" / "llama.cpp"
    stamp.write_text(key)
    return source


def wheel_library_folder(python: pathlib.Path) -> pathlib.Path:
    """llama_cpp/lib of the venv's installed wheel (found without loading it)."""
    out = subprocess.run([str(python), "-c", "import importlib.util, pathlib; print(pathlib.Path("
                          "importlib.util.find_spec('llama_cpp').origin).parent / 'lib')"],
                         capture_output=True, text=True, check=True).stdout.strip()
    return pathlib.Path(out)


def ensure_chat_shim(python: pathlib.Path) -> pathlib.Path:
    """The chat layer's folder from the cache, or built now against the venv's wheel (which
    must be installed). Raises CalledProcessError when it does not build."""
    folder = chat_shim_folder()
    if (folder / "chat.json").exists():
        print(f"+ reusing llama.cpp's chat layer {folder}", flush=True)
        return folder
    source = _chat_source(python)
    work = cache_root() / "build" / f"chat-{chat_shim_key()}"
    cmake = shutil.which("cmake") or pip_cmake(python)
    generator = ("-G", "Ninja") if shutil.which("ninja") and not (work / "CMakeCache.txt").exists() else ()
    started = time.monotonic()
    run(cmake, "-S", str(CHAT_SHIM), "-B", str(work), *generator, "-DCMAKE_BUILD_TYPE=Release",
        f"-DLLAMA_SOURCE={source}", f"-DLLAMA_LIB_DIR={wheel_library_folder(python)}",
        f"-DROTARY_COMMON_SOURCES={';'.join(CHAT_COMMON_SOURCES)}")
    _build(python, work, "rotary_chat")
    built = next(p for p in work.rglob(CHAT_LIBRARY) if p.is_file())
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    (partial / "lib").mkdir(parents=True)
    shutil.copy2(built, partial / "lib" / CHAT_LIBRARY)
    shutil.copytree(source / "models" / "templates", partial / "templates")
    (partial / "chat.json").write_text(json.dumps({
        "key": chat_shim_key(), "llama_cpp_python": LLAMA_REQUIREMENT,
        "build_seconds": round(time.monotonic() - started),
        "library_bytes": (partial / "lib" / CHAT_LIBRARY).stat().st_size,
        "common_sources": list(CHAT_COMMON_SOURCES)}, indent=1))
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(partial, folder)                  # a concurrent run never sees half a folder
    return folder
