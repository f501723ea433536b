"""``python -m engine``: the same facts for scripts (JSON) and people (plain text)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np

from engine.__main__ import main
from engine.runtime.experts import slot_cache
from engine.residency.trace import load_trace


def run_cli(capsys, *args) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_info_json_reports_the_fixture(capsys, tiny_moe_path):
    code, out, _ = run_cli(capsys, "info", str(tiny_moe_path), "--json")
    facts = json.loads(out)
    assert code == 0
    assert (facts["architecture"], facts["n_layers"], facts["n_expert"], facts["n_expert_used"]) \
        == ("qwen3moe", 4, 8, 2)


def test_plan_json_for_the_8gb_laptop_case(capsys, shape_fixture):
    path = shape_fixture("qwen3.6-35b-a3b-q4_k_m")
    code, out, _ = run_cli(capsys, "plan", str(path), "--vram", "8", "--ram", "32", "--json")
    plan = json.loads(out)
    recipe = plan["recipe"]
    gpu_expert_layers = 40 - len(recipe["cpu_expert_layers"])
    vram_card = 8188 * 2**20
    vram_used = sum(recipe["vram"][part] for part in
                    ("dense_bytes", "expert_bytes", "kv_bytes", "compute_bytes"))
    assert code == 0 and plan["fit"] in ("green", "yellow")
    assert recipe["n_ctx"] >= 4096 and recipe["flash_attn"] is True
    if slot_cache.available():      # the slot layout the loader loads
        assert sum(1 for n in recipe["expert_slots"] if n) == 40 == len(recipe["cpu_expert_layers"])
    else:                           # the stock layout: whole expert layers on the card
        assert gpu_expert_layers >= 8 and recipe["expert_slots"] == []
    assert vram_card - vram_used >= 0.7e9


def test_trace_writes_the_shared_npz_format(capsys, tiny_moe_path, tmp_path):
    out_file = tmp_path / "trace.npz"
    code, out, _ = run_cli(capsys, "trace", str(tiny_moe_path), "--prompt", "the document",
                           "--out", str(out_file), "--max-tokens", "16", "--weights",
                           "--temperature", "1.0", "--seed", "4")
    trace = load_trace(out_file)
    assert code == 0 and "tokens" in out
    assert trace.ids.dtype == np.int16 and trace.ids.shape[1:] == (4, 2)
    assert 1 <= trace.ids.shape[0] <= 16
    assert trace.weights is not None and trace.weights.shape == trace.ids.shape
    assert trace.meta["n_expert"] == 8 and trace.meta["k"] == 2


def test_bad_file_prints_one_plain_sentence_and_exits_2(capsys, tmp_path):
    text = tmp_path / "letter.gguf"
    text.write_text("Dear colleague, …")
    code, out, err = run_cli(capsys, "info", str(text))
    assert code == 2 and out == ""
    assert "not a GGUF" in err and "Traceback" not in err


def test_module_entry_point_runs(tiny_moe_path):
    result = subprocess.run([sys.executable, "-m", "engine", "info", str(tiny_moe_path)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "qwen3moe" in result.stdout


def test_chat_streams_an_answer_and_reports_speeds(tiny_moe_path):
    result = subprocess.run([sys.executable, "-m", "engine", "chat", str(tiny_moe_path),
                             "--max-tokens", "8", "--temperature", "0"],
                            input="hello the model\n\n", capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert "reading" in result.stderr and "writing" in result.stderr and "tok/s" in result.stderr


def test_chat_json_says_what_each_turn_read_and_reused(tiny_merged_moe_path):
    result = subprocess.run([sys.executable, "-m", "engine", "chat", str(tiny_merged_moe_path),
                             "--max-tokens", "8", "--temperature", "0", "--json"],
                            input="hello the model\nand then?\n\n", capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    first, second = json.loads(result.stdout)["turns"]
    assert first["reuse"] == "none" and first["reused_tokens"] == 0
    # the hybrid model's checkpoint: only the new part is read
    assert second["reuse"] in ("in_place", "checkpoint") and second["reused_tokens"] > 0
    assert second["reused_tokens"] >= first["prompt_tokens"] - 1
