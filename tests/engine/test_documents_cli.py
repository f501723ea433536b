"""``python -m engine summarize``: JSON for scripts, a plain message and status 2 on bad input."""

from __future__ import annotations

import json

from engine.__main__ import main


def test_summarize_json(tiny_moe_path, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ROTARY_HOME", str(tmp_path / "home"))
    path = tmp_path / "Protokoll ü.md"
    path.write_text("# Budget\nTravel rose by 4%.\n\n# Staff\nTwo hires in March.\n", encoding="utf-8")
    assert main(["summarize", str(path), "--model", str(tiny_moe_path), "--json",
                 "--preset", "actions"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [f["label"] for f in out["found"]] == ["section 'Budget'", "section 'Staff'"]
    assert len(out["parts"]) == 1 and [c["kind"] for c in out["calls"]] == ["whole"]
    summary = out["summary"]
    assert summary["parts_read"] == 1 and summary["model_calls"] == 1 and not summary["partial"]
    assert summary["preset"] == "actions" and summary["text"].endswith(summary["read_note"])
    assert (tmp_path / "home" / "data" / "documents").is_dir()     # the text cache


def test_bad_input_exits_2_with_a_plain_message(tiny_moe_path, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ROTARY_HOME", str(tmp_path / "home"))
    (tmp_path / "scan.pdf").write_bytes(b"not a pdf at all")
    assert main(["summarize", str(tmp_path / "scan.pdf"), "--model", str(tiny_moe_path)]) == 2
    assert "This file is not a PDF" in capsys.readouterr().err
