"""`bootstrap.py start` starts offline when nothing changed since the last install, and
installs again (saying why, in one line) when something did; `test` always installs."""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import time

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
# Nothing listens on port 9 (discard) of this machine: any pip call fails at once.
UNREACHABLE_INDEX = "http://127.0.0.1:9/simple"


def _bootstrap():
    spec = importlib.util.spec_from_file_location("bootstrap_under_test", ROOT / "bootstrap.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def fake_checkout(tmp_path, monkeypatch):
    """bootstrap.py pointed at a copy of its install inputs and an empty .venv."""
    bootstrap = _bootstrap()
    for name in bootstrap.INSTALL_INPUTS:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes((ROOT / name).read_bytes())
    venv = tmp_path / ".venv"
    monkeypatch.setattr(bootstrap, "ROOT", tmp_path)
    monkeypatch.setattr(bootstrap, "VENV", venv)
    monkeypatch.setattr(bootstrap, "STAMP", venv / "rotary-install.json")
    monkeypatch.setattr(bootstrap, "BACKENDS", venv / "rotary-backends")
    # ... and the folders under it (module constants): the real .venv is never touched.
    monkeypatch.setattr(bootstrap, "CPU_ISA", venv / "rotary-backends" / "cpu-isa")
    monkeypatch.setattr(bootstrap, "CHAT_LAYER", venv / "rotary-backends" / "chat")
    # GPU back-ends and llama-server are built by llama_build (tested by running them).
    monkeypatch.setattr(bootstrap, "install_backends", lambda python, variants: variants)
    monkeypatch.setattr(bootstrap, "install_cpu_isa", lambda python, names, required: None)
    monkeypatch.setattr(bootstrap, "graphics_driver", lambda: "")
    monkeypatch.setattr(bootstrap.llama_build, "ensure_llama_server",
                        lambda python, variant: tmp_path / "llama-server")
    commands: list[tuple[str, ...]] = []

    def record(*args, env=None):
        commands.append(args)
    monkeypatch.setattr(bootstrap, "run", record)
    monkeypatch.setattr(bootstrap, "ensure_venv", lambda: _fake_python(venv))
    monkeypatch.setattr(bootstrap, "ensure_llama_wheel",
                        lambda python: tmp_path / "llama_cpp_python-0.3.36-py3-none-any.whl")
    monkeypatch.setattr(bootstrap.subprocess, "call", lambda args, cwd=None, env=None:
                        commands.append(("launch", *args)) or 0)
    return bootstrap, commands, tmp_path


def _fake_python(venv: pathlib.Path) -> pathlib.Path:
    scripts = venv / ("Scripts" if sys.platform == "win32" else "bin")
    scripts.mkdir(parents=True, exist_ok=True)
    python = scripts / ("python.exe" if sys.platform == "win32" else "python")
    python.write_text("")
    return python


def _pip_calls(commands) -> int:
    return sum(1 for c in commands if "pip" in c)


def test_start_installs_once_then_starts_without_installing(fake_checkout, capsys):
    bootstrap, commands, _ = fake_checkout
    assert bootstrap.main(["bootstrap.py", "start", "--no-wizard"]) == 0
    assert "+ installing: nothing is installed yet" in capsys.readouterr().out
    assert _pip_calls(commands) == 2 and commands[-1][-2:] == ("app", "--no-wizard")
    commands.clear()
    assert bootstrap.main(["bootstrap.py", "start"]) == 0
    assert _pip_calls(commands) == 0 and commands == [("launch", str(bootstrap.venv_python()),
                                                       "-m", "app")]
    assert "installing" not in capsys.readouterr().out


@pytest.mark.parametrize("change, reason", [
    ("pyproject", "pyproject.toml changed since the last install"),
    ("patches", "the llama-cpp-python build changed (its version, flags or patches)"),
    ("python", "Python changed (3.0.0 -> "),
    ("half-done", "no record of a finished install was found"),
])
def test_start_installs_again_and_says_why_when_something_changed(fake_checkout, capsys,
                                                                   monkeypatch, change, reason):
    bootstrap, commands, root = fake_checkout
    bootstrap.main(["bootstrap.py", "start"])
    commands.clear()
    capsys.readouterr()
    if change == "pyproject":
        (root / "pyproject.toml").write_text("# edited\n", encoding="utf-8")
    elif change == "patches":
        monkeypatch.setattr(bootstrap, "wheel_key", lambda args: "another-key")
    elif change == "python":
        stamp = json.loads(bootstrap.STAMP.read_text())
        bootstrap.STAMP.write_text(json.dumps(stamp | {"python": "3.0.0"}))
    else:
        bootstrap.STAMP.unlink()
    bootstrap.main(["bootstrap.py", "start"])
    lines = [line for line in capsys.readouterr().out.splitlines() if "installing" in line]
    assert len(lines) == 1 and lines[0].startswith(f"+ installing: {reason}")
    assert _pip_calls(commands) == 2


def test_test_installs_every_time_even_with_a_matching_stamp(fake_checkout, monkeypatch):
    bootstrap, commands, _ = fake_checkout
    monkeypatch.setattr(bootstrap, "ensure_test_system_packages", lambda: None)
    bootstrap.main(["bootstrap.py", "start"])
    for _ in range(2):
        commands.clear()
        bootstrap.main(["bootstrap.py", "test", "-q"])
        assert _pip_calls(commands) == 2 and commands[-1][-4:] == ("-m", "pytest", "--durations=25", "-q")
    assert bootstrap.stamp_difference() == ""       # and a start after it needs nothing


@pytest.mark.skipif(os.environ.get("ROTARY_EXPECT_SLOT_CACHE") != "1",
                    reason="needs the .venv that 'bootstrap.py test' installed (and stamped)")
def test_the_real_start_launches_offline_when_nothing_changed(tmp_path):
    """The README's start command, with every package index unreachable: the app starts
    (its self-test, which exits at once) without a single install step."""
    assert (ROOT / ".venv" / "rotary-install.json").is_file(), "bootstrap.py test stamps .venv"
    # No pip configuration (it may name local indexes or wheel folders), one dead index.
    env = {name: value for name, value in os.environ.items() if not name.startswith("PIP_")}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_INDEX_URL=UNREACHABLE_INDEX, PIP_RETRIES="0",
               PIP_TIMEOUT="1", ROTARY_HOME=str(tmp_path / "home"), QT_QPA_PLATFORM="offscreen")
    started = time.perf_counter()
    result = subprocess.run([sys.executable, str(ROOT / "bootstrap.py"), "start", "--self-test"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    elapsed = time.perf_counter() - started
    assert result.returncode == 0, result.stdout + result.stderr
    assert "+ " not in result.stdout, result.stdout          # no install step ran
    assert "ROTARY SELF-TEST PASSED" in result.stdout, result.stdout
    assert elapsed < 60, elapsed


def test_start_builds_the_vulkan_back_end_where_a_graphics_driver_is_installed(fake_checkout,
                                                                              monkeypatch, capsys):
    bootstrap, _, _ = fake_checkout
    wanted: list[tuple[str, ...]] = []
    monkeypatch.setattr(bootstrap, "install_backends",
                        lambda python, variants: wanted.append(variants) or variants)
    bootstrap.main(["bootstrap.py", "start"])
    assert wanted == [()] and "no graphics driver found" in capsys.readouterr().out
    monkeypatch.setattr(bootstrap, "graphics_driver", lambda: "a graphics driver with Vulkan")
    monkeypatch.setattr(bootstrap.shutil, "which", lambda name: None)     # no CUDA compiler
    bootstrap.main(["bootstrap.py", "start"])
    out = capsys.readouterr().out
    assert "+ installing: a graphics driver was found (the vulkan back-end is not built yet)" in out
    assert "building the vulkan back-end" in out and wanted[-1] == ("vulkan",)
    wanted.clear()
    bootstrap.main(["bootstrap.py", "start"])       # tried once: not again at every start
    assert wanted == []


def test_a_start_after_the_test_install_needs_nothing(fake_checkout, monkeypatch):
    """The tests' Vulkan back-end on a machine without a GPU is no reason to install again."""
    bootstrap, _, _ = fake_checkout
    monkeypatch.setattr(bootstrap, "ensure_test_system_packages", lambda: None)
    bootstrap.main(["bootstrap.py", "test", "-q"])
    assert json.loads(bootstrap.STAMP.read_text())["backends_wanted"] == ["vulkan"]
    assert bootstrap.stamp_difference() == ""


# Linux /proc/cpuinfo flags lines (abridged to what the variants ask about).
ZEN4_FLAGS = ("flags : sse4_2 avx f16c fma avx2 bmi2 avx512f avx512cd avx512vl avx512dq avx512bw "
              "avx512vbmi avx512_vnni avx512_bf16")
RAPTOR_LAKE_FLAGS = "flags : sse4_2 avx f16c fma avx2 bmi2 avx_vnni"
SKYLAKE_FLAGS = "flags : sse4_2 avx f16c fma avx2 bmi2"
ZEN5_FLAGS = ZEN4_FLAGS + " avx_vnni"       # this CI machine's kind: both variants run


@pytest.mark.parametrize(("cpuinfo", "built"), [(ZEN4_FLAGS, ("icelake",)),
                                                 (ZEN5_FLAGS, ("alderlake", "icelake")),
                                                 (RAPTOR_LAKE_FLAGS, ("alderlake",)),
                                                 (SKYLAKE_FLAGS, ())])
def test_start_builds_every_processor_variant_this_processor_runs(fake_checkout, monkeypatch,
                                                                  capsys, cpuinfo, built):
    """``start`` builds the CPU back-end variants this processor runs (which is fastest is
    measured after a load); ``test`` all of them."""
    from engine.native import cpu_isa

    bootstrap, _, _ = fake_checkout
    monkeypatch.setattr(bootstrap.llama_build, "cpu_isa_buildable", lambda: True)
    real = cpu_isa.processor_flags
    monkeypatch.setattr(cpu_isa, "processor_flags", lambda text=None: real(cpuinfo))
    asked: list[tuple[tuple[str, ...], bool]] = []
    monkeypatch.setattr(bootstrap, "install_cpu_isa",
                        lambda python, names, required: asked.append((names, required)))
    bootstrap.main(["bootstrap.py", "start"])
    assert asked == [(built, False)]
    out = capsys.readouterr().out
    assert "+ processor: " in out and (f"building the {', '.join(built)} variant" in out
                                       if built else "portable build" in out)
    monkeypatch.setattr(bootstrap, "ensure_test_system_packages", lambda: None)
    bootstrap.main(["bootstrap.py", "test", "-q"])
    assert asked[-1] == (tuple(bootstrap.llama_build.CPU_ISA_VARIANTS), True)



def test_processor_variants_switch_every_x86_feature_and_name_their_cpuinfo_flags(monkeypatch):
    """Each variant's CMake flags set all of ggml's x86 features (ON for its own, OFF for the
    rest, as ggml's variant function does: the tree's defaults never leak in), every feature
    has the /proc/cpuinfo flags the engine checks, and the cache key follows the flag sets."""
    import llama_build

    for name, (_, features) in llama_build.CPU_ISA_VARIANTS.items():
        flags = llama_build.cpu_isa_cmake_flags(name)
        assert len(flags) == len(llama_build.CPU_ISA_FEATURES)
        assert {f.split("=")[0][len("-DGGML_"):] for f in flags if f.endswith("=ON")} == set(features)
        assert set(features) <= set(llama_build.CPU_ISA_FLAGS)
    assert "avx512_vnni" in llama_build.cpu_isa_cpu_flags("icelake")
    assert "avx512f" not in llama_build.cpu_isa_cpu_flags("alderlake")
    before = llama_build.cpu_isa_key()
    monkeypatch.setitem(llama_build.CPU_ISA_VARIANTS, "icelake", ("x", ("SSE42", "AVX512")))
    assert llama_build.cpu_isa_key() != before
