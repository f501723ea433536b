"""The CUDA back-end's build facts (llama_build.py): its flags, key and architectures, the tool
chain check, the redistributable runtime copied with its licences (from a fake wheel), and
bootstrap's choice of when to build it (fake nvidia-smi and nvcc on PATH)."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import shutil
import stat
import sys
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _load(name: str, path: pathlib.Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def lb(monkeypatch, tmp_path):
    """llama_build with no CUDA settings from outside and a private cache."""
    for name in ("ROTARY_CUDA_ARCHS", "CUDA_HOME", "CUDA_PATH"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return _load("llama_build_under_test", ROOT / "llama_build.py")


def _script(path: pathlib.Path, text: str) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


# ---- flags, key, architectures --------------------------------------------------------------

def test_the_shipped_architectures_cover_rtx_20_to_50_with_ptx_for_the_rest(lb):
    archs = lb.cuda_archs().split(";")
    assert archs == ["75", "86-real", "89-real", "120-real"]   # 75 = machine code and PTX
    assert all(arch.split("-")[0].isdigit() for arch in archs)


def test_rotary_cuda_archs_builds_fewer_and_keys_them_apart(lb, monkeypatch):
    shipped = lb.variant_key("cuda")
    vulkan = lb.variant_key("vulkan")
    monkeypatch.setenv("ROTARY_CUDA_ARCHS", "86-real")
    assert "-DCMAKE_CUDA_ARCHITECTURES=86-real" in lb.variant_flags("cuda")
    assert lb.variant_key("cuda") != shipped
    monkeypatch.setenv("ROTARY_CUDA_ARCHS", "75,89-real")        # commas as CMake's ;
    assert lb.cuda_archs() == "75;89-real"
    assert lb.variant_key("vulkan") == vulkan                    # not a Vulkan matter


def test_vmm_only_where_a_driver_stub_can_be_linked_and_the_key_says_which(lb, monkeypatch, tmp_path):
    monkeypatch.setattr(lb, "cuda_driver_stub", lambda root=None: None)
    flags, key = lb.variant_flags("cuda"), lb.variant_key("cuda")
    assert "-DGGML_CUDA_NO_VMM=ON" in flags and "-DGGML_CUDA=ON" in flags
    assert "-DGGML_CUDA_NCCL=OFF" in flags            # nothing outside the folder to link
    monkeypatch.setattr(lb, "cuda_driver_stub", lambda root=None: tmp_path / "libcuda.so")
    assert "-DGGML_CUDA_NO_VMM=OFF" in lb.variant_flags("cuda")
    assert lb.variant_key("cuda") != key


def test_the_driver_stub_is_found_in_a_toolkit(lb, tmp_path):
    assert lb.cuda_driver_stub(tmp_path) is None
    stub = tmp_path / "lib64" / "stubs" / "libcuda.so"
    stub.parent.mkdir(parents=True)
    stub.write_bytes(b"")
    assert lb.cuda_driver_stub(tmp_path) == stub


def test_the_runtime_wheels_are_part_of_the_key(lb, monkeypatch):
    key = lb.variant_key("cuda")
    monkeypatch.setattr(lb, "CUDA_RUNTIME_WHEELS", ("nvidia-cuda-runtime==13.0.48",
                                                    lb.CUBLAS_REQUIREMENT))
    assert lb.variant_key("cuda") != key


# ---- the tool chain ---------------------------------------------------------------------------

def test_no_nvcc_no_cuda_back_end_and_one_line_why(lb, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert lb.cuda_toolchain(pathlib.Path(sys.executable)) is None
    assert "no CUDA back-end: nvcc" in capsys.readouterr().out


def test_nvcc_from_a_wrapper_and_cublas_from_the_wheel(lb, monkeypatch, tmp_path):
    toolkit = tmp_path / "cuda-13.0"
    _script(toolkit / "bin" / "nvcc", "exit 0\n")
    _script(tmp_path / "bin" / "nvcc", f"exec {toolkit}/bin/nvcc \"$@\"\n")   # like /usr/local/bin
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    cublas = tmp_path / "wheel" / "nvidia" / "cu13"
    monkeypatch.setattr(lb, "cublas_root", lambda python: cublas)
    flags = lb.cuda_toolchain(pathlib.Path(sys.executable))
    assert f"-DCUDAToolkit_ROOT={toolkit}" in flags
    assert f"-DCMAKE_CUDA_COMPILER={toolkit / 'bin' / 'nvcc'}" in flags
    assert f"-DCUDA_cublasLt_LIBRARY={cublas / 'lib' / 'libcublasLt.so.13'}" in flags
    assert f"-DCMAKE_CUDA_FLAGS=-I{cublas / 'include'}" in flags
    # a toolkit with its own cuBLAS needs no wheel
    (toolkit / "lib64").mkdir()
    (toolkit / "lib64" / "libcublas.so.13").write_bytes(b"")
    (toolkit / "include").mkdir()
    (toolkit / "include" / "cublas_v2.h").write_text("")
    assert not any("cublas" in flag for flag in lb.cuda_toolchain(pathlib.Path(sys.executable)))


def test_cuda_home_is_used_when_nvcc_is_not_on_path(lb, monkeypatch, tmp_path):
    _script(tmp_path / "toolkit" / "bin" / "nvcc", "exit 0\n")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert lb.nvcc_path() is None
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "toolkit"))
    assert lb.nvcc_path() == tmp_path / "toolkit" / "bin" / "nvcc"


# ---- the runtime copied into the variant, with its licences ----------------------------------

def _fake_wheel(folder: pathlib.Path, requirement: str, libraries: tuple[str, ...]) -> pathlib.Path:
    name, version = requirement.split("==")
    dist = f"{name.replace('-', '_')}-{version}"
    wheel = folder / f"{dist}-py3-none-manylinux_2_27_x86_64.whl"
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel, "w") as archive:
        for library in libraries:
            archive.writestr(f"nvidia/cu13/lib/{library}", f"fake {library}")
        archive.writestr("nvidia/cu13/include/cuda_runtime.h", "")
        archive.writestr(f"{dist}.dist-info/licenses/License.txt", f"NVIDIA licence of {name}")
        archive.writestr(f"{dist}.dist-info/METADATA", "Name: " + name)
    return wheel


@pytest.fixture
def fake_registry(lb, monkeypatch, tmp_path):
    """pip download answered from fake wheels (libraries per requirement); records requests."""
    libraries = {lb.CUDA_RUNTIME_WHEELS[0]: ("libcudart.so.13",),
                 lb.CUBLAS_REQUIREMENT: ("libcublas.so.13", "libcublasLt.so.13", "libnvblas.so.13")}
    asked = []

    def pip(*args, env=None, cwd=None):
        requirement, dest = args[-1], pathlib.Path(args[args.index("--dest") + 1])
        asked.append(requirement)
        wheel = _fake_wheel(tmp_path / "registry", requirement, libraries[requirement])
        shutil.copy(wheel, dest / wheel.name)

    monkeypatch.setattr(lb, "run", pip)
    monkeypatch.setattr(lb, "needed", lambda library: ["libc.so.6", "libcuda.so.1"]
                        + (["libcublasLt.so.13"] if library.name == "libcublas.so.13" else []))
    return libraries, asked


def test_the_runtime_and_its_licences_go_into_the_variant_folder(lb, fake_registry, tmp_path):
    _, asked = fake_registry
    target = tmp_path / "variant"
    target.mkdir()
    described = lb.add_cuda_runtime(pathlib.Path(sys.executable), target)
    files = sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file())
    assert files == ["libcublas.so.13", "libcublasLt.so.13", "libcudart.so.13",
                     "licenses/nvidia-cublas/License.txt",
                     "licenses/nvidia-cuda-runtime/License.txt"]      # not libnvblas, not headers
    assert (target / "licenses" / "nvidia-cublas" / "License.txt").read_text().startswith("NVIDIA")
    assert described["cuda_runtime"] == list(lb.CUDA_RUNTIME_WHEELS)
    assert described["licenses"] == ["licenses/nvidia-cuda-runtime/License.txt",
                                     "licenses/nvidia-cublas/License.txt"]
    assert described["cuda_vmm"] in (True, False) and described["cuda_architectures"]
    again = tmp_path / "again"
    again.mkdir()
    lb.add_cuda_runtime(pathlib.Path(sys.executable), again)
    assert asked == list(lb.CUDA_RUNTIME_WHEELS)            # each wheel fetched once, then kept


def test_a_wheel_without_the_library_stops_the_build(lb, fake_registry, tmp_path):
    libraries, _ = fake_registry
    libraries[lb.CUBLAS_REQUIREMENT] = ("libcublas.so.13",)          # no cuBLASLt
    target = tmp_path / "variant"
    target.mkdir()
    with pytest.raises(SystemExit, match="libcublasLt.so.13"):
        lb.add_cuda_runtime(pathlib.Path(sys.executable), target)


def test_a_need_from_outside_the_folder_stops_the_build(lb, fake_registry, tmp_path, monkeypatch):
    target = tmp_path / "variant"
    target.mkdir()
    monkeypatch.setattr(lb, "needed", lambda library: ["libnccl.so.2"]
                        if library.name == "libcudart.so.13" else ["libm.so.6"])
    with pytest.raises(SystemExit, match="libcudart.so.13 needs libnccl.so.2"):
        lb.add_cuda_runtime(pathlib.Path(sys.executable), target)


def test_the_driver_and_the_c_runtime_may_come_from_the_system():
    lb = _load("llama_build_plain", ROOT / "llama_build.py")
    for name in ("libcuda.so.1", "libc.so.6", "libstdc++.so.6", "ld-linux-x86-64.so.2",
                 "libgomp.so.1", "libvulkan.so.1"):
        assert lb.SYSTEM_LIBS.match(name), name
    for name in ("libcudart.so.13", "libcublas.so.13", "libnccl.so.2", "libggml-cuda.so"):
        assert not lb.SYSTEM_LIBS.match(name), name


# ---- bootstrap: `start` builds CUDA for the card here, `test` never --------------------------

@pytest.fixture
def machine(monkeypatch, tmp_path):
    """bootstrap with a PATH of fakes: nvidia-smi (one card of compute capability `cap`)
    and, when asked for, nvcc."""
    for name in ("ROTARY_CUDA_ARCHS", "CUDA_HOME", "CUDA_PATH", "ROTARY_CPU_ONLY"):
        monkeypatch.delenv(name, raising=False)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    bootstrap = _load("bootstrap_cuda_under_test", ROOT / "bootstrap.py")

    def card(cap: str | None, nvcc: bool) -> None:
        if cap:
            _script(bin_dir / "nvidia-smi",
                    'case "$1" in -L) echo "GPU 0: NVIDIA GeForce RTX 3060 Laptop GPU (UUID: x)";;\n'
                    f'*) echo "{cap}";; esac\n')
        if nvcc:
            _script(bin_dir / "nvcc", "exit 0\n")
    return bootstrap, card


def test_start_builds_cuda_for_the_cards_own_architecture(machine, monkeypatch, capsys):
    bootstrap, card = machine
    card("8.6", nvcc=True)
    assert bootstrap.cuda_build_choice() == ("86-real", "")
    assert bootstrap.gpu_variants("start") == ("vulkan", "cuda")
    assert os.environ["ROTARY_CUDA_ARCHS"] == "86-real"        # what llama_build then builds
    assert bootstrap.gpu_variants("test") == ("vulkan",)          # the tests never build CUDA
    bootstrap.say_cuda(("vulkan", "cuda"))
    assert "for this card only (CUDA architectures 86-real)" in capsys.readouterr().out


def test_the_stamp_records_the_cuda_back_end_for_this_card(machine):
    bootstrap, card = machine
    card("8.9", nvcc=True)
    wanted = bootstrap.gpu_variants("start")
    stamp = bootstrap.install_fingerprint("", wanted, wanted)
    assert stamp["backends_wanted"] == ["cuda", "vulkan"]
    assert stamp["backends"]["cuda"] == bootstrap.llama_build.variant_key("cuda")
    os.environ["ROTARY_CUDA_ARCHS"] = "86-real"                   # another card: another key
    assert stamp["backends"]["cuda"] != bootstrap.llama_build.variant_key("cuda")


@pytest.mark.parametrize("cap, nvcc, why", [
    (None, True, "no NVIDIA card found"),
    ("8.6", False, "no CUDA toolkit (nvcc): the Vulkan back-end serves it"),
    ("6.1", True, "older than CUDA 13 supports (7.5): the Vulkan back-end serves it"),
])
def test_otherwise_one_line_says_why_not(machine, monkeypatch, capsys, cap, nvcc, why):
    bootstrap, card = machine
    card(cap, nvcc)
    monkeypatch.setattr(bootstrap, "graphics_driver", lambda: "an NVIDIA graphics driver")
    variants = bootstrap.gpu_variants("start")
    assert variants == ("vulkan",) and "ROTARY_CUDA_ARCHS" not in os.environ
    bootstrap.say_cuda(variants)
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.startswith("+ no CUDA back-end: ") and why in out


def test_a_set_architecture_list_is_kept(machine, monkeypatch):
    bootstrap, card = machine
    card("8.6", nvcc=True)
    monkeypatch.setenv("ROTARY_CUDA_ARCHS", "75;86-real")
    assert bootstrap.cuda_build_choice() == ("75;86-real", "")


# ---- the bundle: no second copy of a back-end's library at the top ---------------------------

def test_the_bundle_check_names_a_second_copy_at_the_top(tmp_path):
    build_bundle = _load("build_bundle_under_test", ROOT / "installer" / "build_bundle.py")
    internal = tmp_path / "Rotary" / "_internal"
    for path in ("llama_cpp/lib/libggml-base.so.0", "rotary-backends/cuda/libggml-base.so.0",
                 "rotary-backends/cuda/libcublasLt.so.13", "rotary-backends/cuda/variant.json",
                 "libggml-base.so.0", "libpython3.11.so.1.0"):
        (internal / path).parent.mkdir(parents=True, exist_ok=True)
        (internal / path).write_bytes(b"x")
    assert build_bundle.second_copies(tmp_path / "Rotary") == []
    (internal / "libcublasLt.so.13").write_bytes(b"x")
    assert build_bundle.second_copies(tmp_path / "Rotary") == [
        "a second copy of libcublasLt.so.13 at the top of _internal"]

