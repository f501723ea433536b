"""The processor build chosen by measurement (engine/native/cpu_isa.py, cpu_isa_record.py,
engine/runtime/devices/cpu_calibration.py).

The choice is read from fake /proc/cpuinfo text and a calibration file written here: the
measured fastest for the model's weight kind runs, the flags' choice while this machine (its
processor model, flags and installed variants) has no measurement. The background start is
checked with a fake process (it never waits, one at a time); the real calibration runs once,
with a very short workload, against the installed variants (bootstrap.py test builds them).
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.native import backends, cpu_isa
from engine.native import cpu_isa_record as record
from engine.runtime.devices import cpu_calibration

ZEN5 = ("processor : 0\nmodel name : AMD EPYC 9R45\nflags : fpu sse4_2 avx f16c fma avx2 bmi2 "
        "avx_vnni avx512f avx512dq avx512cd avx512bw avx512vl avx512vbmi avx512_vnni\n")
FLAGS = {"alderlake": ["avx", "avx2", "avx_vnni", "bmi2", "f16c", "fma", "sse4_2"],
         "icelake": ["avx", "avx2", "avx512bw", "avx512cd", "avx512dq", "avx512f", "avx512vl",
                     "avx512vbmi", "avx512_vnni", "bmi2", "f16c", "fma", "sse4_2"]}
# Tokens/s as measured on this machine's Zen 4 class EPYC: icelake reads f16 prompts slower.
SPEEDS = {"F16": {"baseline": {"prompt": 2800, "decode": 800},
                  "alderlake": {"prompt": 2850, "decode": 790},
                  "icelake": {"prompt": 2300, "decode": 880}},
          "Q4_K": {"baseline": {"prompt": 4400, "decode": 1700},
                   "alderlake": {"prompt": 4500, "decode": 1700},
                   "icelake": {"prompt": 5400, "decode": 1850}}}


def _root(tmp_path: Path) -> Path:
    for name, flags in FLAGS.items():
        folder = tmp_path / "root" / cpu_isa.FOLDER / name
        folder.mkdir(parents=True)
        (folder / cpu_isa.DESCRIPTION).write_text(json.dumps(
            {"name": name, "label": name.upper(), "cpu_flags": flags, "key": "k1"}))
        (folder / cpu_isa.CPU_LIBRARY).write_bytes(b"")
    return tmp_path / "root"


def _measured(tmp_path: Path, root: Path, cpuinfo: str = ZEN5, speeds=None) -> Path:
    path = tmp_path / record.FILE
    key = cpu_isa.machine_key(cpu_isa.installed(root), cpu_isa.processor_flags(cpuinfo),
                              cpu_isa.processor_model(cpuinfo))
    record.write(path, key, {"speeds": SPEEDS if speeds is None else speeds})
    return path


@pytest.mark.parametrize(("type_name", "kind"), [("Q4_K", "Q4_K"), ("Q6_K", "Q4_K"),
                                                 ("IQ4_XS", "Q4_K"), ("Q8_0", "Q8_0"),
                                                 ("Q4_0", "Q8_0"), ("MXFP4", "Q8_0"),
                                                 ("F16", "F16"), ("BF16", "F16"), ("", ""),
                                                 ("I32", "")])
def test_each_weight_type_is_read_by_the_kernels_of_one_calibrated_kind(type_name, kind):
    assert cpu_isa.weight_kind(type_name) == kind


def test_the_measured_fastest_for_the_models_weights_runs(tmp_path):
    root = _root(tmp_path)
    path = _measured(tmp_path, root)
    f16 = cpu_isa.plan(root, wanted="", cpuinfo=ZEN5, weights="F16", measurements=path)
    assert f16.name == "alderlake" and f16.basis == cpu_isa.MEASURED and f16.weights == "F16"
    assert f16.score == pytest.approx(2850 / 2800)        # the prompt chooses
    q4 = cpu_isa.plan(root, wanted="", cpuinfo=ZEN5, weights="Q6_K", measurements=path)
    assert q4.name == "icelake" and q4.basis == cpu_isa.MEASURED and "measured" in q4.reason
    # Q8_0 was not measured in this file: the flags decide, and say so.
    q8 = cpu_isa.plan(root, wanted="", cpuinfo=ZEN5, weights="Q8_0", measurements=path)
    assert q8.name == "icelake" and q8.basis == cpu_isa.FLAGS and "not measured" in q8.reason
    # ROTARY_CPU_ISA still wins over a measurement.
    assert cpu_isa.plan(root, wanted="baseline", cpuinfo=ZEN5, weights="F16",
                        measurements=path).name == "baseline"


def test_the_baseline_runs_where_it_measured_fastest(tmp_path):
    root = _root(tmp_path)
    slower = {"F16": {"baseline": {"prompt": 2800, "decode": 800},
                      "icelake": {"prompt": 2300, "decode": 820}}}     # alderlake: its child failed
    path = _measured(tmp_path, root, speeds=slower)
    choice = cpu_isa.plan(root, wanted="", cpuinfo=ZEN5, weights="F16", measurements=path)
    assert choice.variant is None and choice.basis == cpu_isa.MEASURED and choice.score == 1.0


def test_in_a_near_tie_the_flags_choice_stays(tmp_path):
    """Within ``NOISE`` of the fastest, the flags' choice (icelake here) is kept: the
    calibration's noise must not flip the build from run to run."""
    root = _root(tmp_path)
    near = {"Q8_0": {"baseline": {"prompt": 3200, "decode": 1000},
                     "alderlake": {"prompt": 3400, "decode": 1040},
                     "icelake": {"prompt": 3350, "decode": 1030}}}
    path = _measured(tmp_path, root, speeds=near)
    choice = cpu_isa.plan(root, wanted="", cpuinfo=ZEN5, weights="Q8_0", measurements=path)
    assert choice.name == "icelake" and choice.basis == cpu_isa.MEASURED


def test_another_processor_or_a_rebuilt_variant_is_not_served_an_old_measurement(tmp_path):
    root = _root(tmp_path)
    path = _measured(tmp_path, root)
    other = ZEN5.replace("9R45", "9654")
    assert cpu_isa.plan(root, wanted="", cpuinfo=other, weights="F16",
                        measurements=path).basis == cpu_isa.FLAGS
    fewer = ZEN5.replace(" avx_vnni", "")
    assert cpu_isa.plan(root, wanted="", cpuinfo=fewer, weights="F16",
                        measurements=path).basis == cpu_isa.FLAGS
    library = root / cpu_isa.FOLDER / "icelake" / cpu_isa.CPU_LIBRARY
    library.write_bytes(b"rebuilt")
    assert cpu_isa.plan(root, wanted="", cpuinfo=ZEN5, weights="F16",
                        measurements=path).basis == cpu_isa.FLAGS


def test_the_load_says_its_weights_before_the_choice(tmp_path):
    """``expect_weights`` (the loader, before llama_cpp loads) steers every later plan."""
    root = _root(tmp_path)
    path = _measured(tmp_path, root)
    try:
        cpu_isa.expect_weights("F16", path)
        assert cpu_isa.plan(root, wanted="", cpuinfo=ZEN5).name == "alderlake"
        cpu_isa.expect_weights("Q4_K", path)
        assert cpu_isa.plan(root, wanted="", cpuinfo=ZEN5).name == "icelake"
    finally:
        cpu_isa._forget()


def test_the_main_weight_type_is_the_type_of_most_multiplied_weights(tiny_moe_path):
    from engine.model.facts import TensorInfo
    from engine.model.inspect_gguf import inspect_model

    facts = inspect_model(tiny_moe_path)
    assert facts.main_weight_type == "F16"
    mixed = (TensorInfo("token_embd.weight", "Q8_0", (64, 100_000), 1, None, False),
             TensorInfo("blk.0.ffn_up_exps.weight", "Q4_K", (64, 32, 8), 1, 0, True),
             TensorInfo("blk.0.ffn_down_exps.weight", "Q6_K", (32, 64, 4), 1, 0, True),
             TensorInfo("blk.0.attn_norm.weight", "F32", (100_000,), 1, 0, False))
    assert dataclasses.replace(facts, tensors=mixed).main_weight_type == "Q4_K"
    assert dataclasses.replace(facts, tensors=()).main_weight_type == ""


def test_engine_devices_says_which_build_runs_and_why(tmp_path, monkeypatch):
    from engine.cli.devices import processor_code

    root = _root(tmp_path)
    path = _measured(tmp_path, root, speeds={"F16": SPEEDS["F16"]})
    real_flags, real_model = cpu_isa.processor_flags, cpu_isa.processor_model
    monkeypatch.setattr(cpu_isa, "processor_flags", lambda text=None: real_flags(text or ZEN5))
    monkeypatch.setattr(cpu_isa, "processor_model", lambda text=None: real_model(text or ZEN5))
    monkeypatch.setattr(cpu_isa, "supported_here", lambda: True)
    monkeypatch.setattr(backends, "backends_root", lambda: root)
    monkeypatch.setattr(backends, "calibration_path", lambda: path)
    code = processor_code()
    rows = {row["weights"]: row for row in code["by_weights"]}
    assert rows["F16"]["variant"] == "alderlake" and rows["F16"]["basis"] == "measured"
    assert rows["F16"]["prompt"] == pytest.approx(2850 / 2800, abs=1e-3)
    assert rows["Q4_K"]["basis"] == "flags" and rows["Q4_K"]["variant"] == "icelake"
    lines = code["lines"]
    assert any(line.startswith("F16 weights: ALDERLAKE (alderlake), measured: it reads a prompt "
                               "1.02× as fast as the portable build") for line in lines), lines
    assert any("Q4_K weights: ICELAKE (icelake), by the processor's flags, not measured yet"
               in line for line in lines), lines


# ---- the background start ------------------------------------------------------------------

class FakeDriver:
    """A driver process that runs until released (the load must not wait for it)."""

    def __init__(self, command, **kwargs) -> None:
        self.command, self.kwargs, self.pid, self.returncode = command, kwargs, 4242, None
        self.release = threading.Event()

    def communicate(self):
        self.release.wait(10)
        self.returncode = 0
        return b"", b"F16: baseline"


def test_after_a_load_the_calibration_starts_once_in_the_background(tmp_path, monkeypatch):
    started: list[FakeDriver] = []

    def popen(command, **kwargs):
        started.append(FakeDriver(command, **kwargs))
        return started[-1]

    path = tmp_path / "cache" / record.FILE
    monkeypatch.setattr(cpu_calibration, "measurements_path", lambda: path)
    monkeypatch.setattr(cpu_calibration, "candidates", lambda *a, **k: ("baseline", "icelake"))
    monkeypatch.setattr(cpu_calibration, "current_key", lambda *a: "key")
    monkeypatch.setattr(cpu_calibration.subprocess, "Popen", popen)
    monkeypatch.setenv(cpu_calibration.SWITCH_ENV, "0")
    assert not cpu_calibration.after_load() and not started      # tests and benchmarks
    monkeypatch.delenv(cpu_calibration.SWITCH_ENV)
    begun = time.perf_counter()
    assert cpu_calibration.after_load()
    assert time.perf_counter() - begun < 1.0                     # it never waits for the driver
    driver = started[0]
    assert driver.command[-1] == "driver" and driver.kwargs["start_new_session"]
    assert driver.kwargs["env"][cpu_calibration.SWITCH_ENV] == "0"     # no grandchild starts one
    assert not cpu_calibration.after_load() and len(started) == 1   # one at a time (the lock)
    driver.release.set()
    record.write(path, "key", {"speeds": SPEEDS, "attempts": 1})
    (path.parent / cpu_calibration.LOCK_FILE).unlink()             # the driver removes it
    assert not cpu_calibration.after_load() and len(started) == 1   # measured: never again


def test_a_failing_calibration_is_tried_a_limited_number_of_times(tmp_path, monkeypatch):
    path = tmp_path / record.FILE
    monkeypatch.setattr(cpu_calibration, "candidates", lambda *a, **k: ("baseline", "icelake"))
    monkeypatch.setattr(cpu_calibration, "current_key", lambda *a: "key")
    assert cpu_calibration.wanted(path)
    record.write(path, "key", {"speeds": {}, "attempts": 1, "errors": {"baseline": "crashed"}})
    assert cpu_calibration.wanted(path)
    record.write(path, "key", {"speeds": {}, "attempts": record.MAX_ATTEMPTS})
    assert not cpu_calibration.wanted(path)
    monkeypatch.setattr(cpu_calibration, "candidates", lambda *a, **k: ())
    assert not cpu_calibration.wanted(tmp_path / "none.json")     # nothing to choose between


def test_the_driver_runs_idle_and_releases_its_lock(tmp_path, monkeypatch):
    path = tmp_path / record.FILE
    (tmp_path / cpu_calibration.LOCK_FILE).write_text("1")
    monkeypatch.setattr(cpu_calibration, "_idle_priority", lambda: None)

    def failing(where, *args, **kwargs):
        raise RuntimeError("no")

    monkeypatch.setattr(cpu_calibration, "calibrate", failing)
    with pytest.raises(RuntimeError):
        cpu_calibration.driver_main(path)
    assert not (tmp_path / cpu_calibration.LOCK_FILE).exists()


# ---- the real calibration, very short -------------------------------------------------------

def test_a_short_calibration_measures_each_kind_in_each_build(tmp_path):
    names = cpu_calibration.candidates()
    if len(names) < 2:
        if os.environ.get("ROTARY_EXPECT_CPU_ISA") == "1" and cpu_isa.installed(backends.backends_root()) \
                and cpu_isa.plan(backends.backends_root(), wanted="").variant is not None:
            pytest.fail("bootstrap.py test installed the processor variants, but none is a candidate")
        pytest.skip("no installed processor variant runs here: nothing to calibrate")
    spec = dataclasses.replace(cpu_calibration.CALIBRATION_SPEC, n_layer=1, n_embd=256, n_expert=4,
                               n_ff_exp=256, n_head=4, head_dim=64)
    short = cpu_calibration.Workload(rounds=1, prompt=16, decode=2, spec=spec, passes=1)
    path = tmp_path / record.FILE
    found = cpu_calibration.calibrate(path, short, names=names[:2])
    assert not found["errors"], found["errors"]
    assert set(found["speeds"]) == set(cpu_isa.WEIGHT_KINDS)
    for kind in cpu_isa.WEIGHT_KINDS:
        assert set(found["speeds"][kind]) == set(names[:2])
        assert all(row["prompt"] > 0 and row["decode"] > 0 for row in found["speeds"][kind].values())
    kept = record.entry(path, cpu_calibration.current_key())
    assert kept is not None and kept["attempts"] == 1
    root = backends.backends_root()
    choice = cpu_isa.plan(root, wanted="", weights="F16", measurements=path)
    assert choice.basis == cpu_isa.MEASURED and choice.name in names[:2]
    print(f"\ncalibration ({found['seconds']:.1f} s): {cpu_calibration.describe(found)}")


# ---- where it sits -----------------------------------------------------------------------------

def test_the_loader_names_the_weights_before_llama_cpp_loads(monkeypatch, tiny_moe_path):
    from engine.api import LoadRequest
    from engine.runtime import loader

    order = []
    monkeypatch.setattr(loader.backends, "expect_processor_weights",
                        lambda type_name: order.append(("weights", type_name)))

    def llama():
        order.append(("llama_cpp",))
        raise KeyboardInterrupt   # stop the load here

    monkeypatch.setattr(loader, "llama_cpp_module", llama)
    with pytest.raises(KeyboardInterrupt):
        loader.load_with_fallback(LoadRequest(str(tiny_moe_path)), lambda *_: None,
                                  lambda *_: None)
    assert order == [("weights", "F16"), ("llama_cpp",)]


def test_the_bundle_runs_the_calibration_with_the_flag_the_app_knows(monkeypatch):
    root = Path(__file__).parents[2]
    source = (root / "app" / "bridge" / "facade.py").read_text()
    assert f'CPU_CALIBRATION_FLAG = "{cpu_calibration.CALIBRATE_FLAG}"' in source
    assert "calibrate_cpu_child(argv[1:])" in (root / "app" / "__main__.py").read_text()
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert cpu_calibration._command(["driver"])[1:] == [cpu_calibration.CALIBRATE_FLAG, "driver"]


def test_planning_a_model_names_its_weights_before_llama_cpp_loads(monkeypatch, tiny_moe_path):
    """The app plans a model (its list, the wizard) before it loads one, and planning asks
    libllama whether it has the slot cache: the build is fixed then, for that model's weights."""
    from engine.model.inspect_gguf import inspect_model
    from engine.plan.hardware import HardwareInfo
    from engine.runtime import planning

    order = []
    monkeypatch.setattr(planning.backends, "llama_loaded", lambda: False)
    monkeypatch.setattr(planning.backends, "expect_processor_weights",
                        lambda type_name: order.append(("weights", type_name)))
    monkeypatch.setattr(planning, "this_build",
                        lambda: order.append(("llama_cpp",)) or planning.BuildAbilities(False))
    planning.plan_recipe(inspect_model(tiny_moe_path), HardwareInfo.pretend(vram_gb=0))
    assert order == [("weights", "F16"), ("llama_cpp",)]
