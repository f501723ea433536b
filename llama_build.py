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
VARIANT_FLAGS = {"cpu": (), "vulkan": ("-DGGML_VULKAN=ON",)}
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

def _tree_flags(variant: str, toolchain: tuple[str, ...]) -> tuple[str, ...]:
    return TREE_CMAKE_ARGS + VARIANT_FLAGS[variant] + toolchain


def variant_key(variant: str) -> str:
    """What the variant's libraries are made of: the version, its defining flags (not this
    machine's paths) and the patches."""
    return wheel_key(" ".join(("tree", variant, *TREE_CMAKE_ARGS, *VARIANT_FLAGS[variant])))


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
    toolchain = vulkan_toolchain() if variant == "vulkan" else ()
    if toolchain is None:
        return None
    tree = _configured_tree(python, variant, toolchain)
    started = time.monotonic()
    _build(python, tree, "llama")
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    _copy_libraries(tree, partial)
    (partial / "variant.json").write_text(json.dumps({
        "variant": variant, "key": variant_key(variant), "llama_cpp_python": LLAMA_REQUIREMENT,
        "build_seconds": round(time.monotonic() - started)}, indent=1))
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(partial, folder)                  # a concurrent run never sees half a folder
    return folder


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
    toolchain = vulkan_toolchain() if variant == "vulkan" else ()
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
