import json

import numpy as np
import pytest

from tools.residency_sim.__main__ import main
from tools.residency_sim.logs import read_routing_log
from tools.residency_sim.synth import SynthSpec, reuse_stats, synth_trace
from engine.residency.trace import load_trace


@pytest.fixture(scope="module")
def traces(tmp_path_factory):
    folder = tmp_path_factory.mktemp("traces")
    small = folder / "small.npz"
    assert main(["synth", str(small), "--n-tokens", "120", "--n-layers", "2", "--n-expert", "32",
                 "--k", "4", "--segment", "40", "--prompt", "8"]) == 0
    tiny = folder / "tiny.npz"
    assert main(["synth", str(tiny), "--preset", "e8-k2", "--n-tokens", "60", "--n-layers", "2"]) == 0
    return small, tiny


def test_simulate_writes_table_json_and_plot(traces, tmp_path, capsys):
    small, tiny = traces
    out, png = tmp_path / "r.json", tmp_path / "r.png"
    code = main(["simulate", str(small), str(tiny), "--fractions", "0.125,0.25,0.5",
                 "--json", str(out), "--plot", str(png)])
    text = capsys.readouterr().out
    assert code == 0 and "rotary" in text and "gap to OPT" in text
    report = json.loads(out.read_text())
    policies = {r["policy"] for r in report["results"]}
    assert {"rotary", "lru", "lfu", "lfru", "static", "layer", "opt"} <= policies
    assert any("fewer than the 2 experts" in s for s in report["skipped"])    # 12.5% of 8 < k
    assert png.stat().st_size > 1000


def test_impossible_budget_is_a_plain_error_with_exit_2(traces, capsys):
    small, _ = traces
    assert main(["simulate", str(small), "--slots", "2", "--policies", "lru"]) == 2
    err = capsys.readouterr().err
    assert "fewer than the 4 experts" in err and "Traceback" not in err


def test_bad_trace_is_a_plain_error_with_exit_2(tmp_path, capsys):
    bad = tmp_path / "bad.npz"
    with open(bad, "wb") as handle:
        np.savez(handle, ids=np.zeros((2, 2), np.int16))
    assert main(["simulate", str(bad)]) == 2
    assert "lacks the 'meta'" in capsys.readouterr().err
    assert main(["simulate", str(tmp_path / "missing.npz")]) == 2
    assert main(["stats", str(bad)]) == 2


def test_unknown_policy_exit_2(traces, capsys):
    assert main(["simulate", str(traces[0]), "--policies", "mru"]) == 2
    assert "Unknown policy 'mru'" in capsys.readouterr().err


def test_synth_is_deterministic_and_local():
    spec = SynthSpec(n_expert=128, n_tokens=300, n_layers=3, seed=4)
    a, b = synth_trace(spec), synth_trace(spec)
    assert np.array_equal(a.ids, b.ids) and a.ids.shape == (300, 3, 8)
    stats = reuse_stats(a.ids)
    assert 0.3 < stats["repeat_next"] < 0.6 and stats["median_distance"] <= 3
    assert a.meta["contexts"][0][0] == 0 and a.meta["prompt_spans"][0] == [0, 48]


def test_jsonl_and_csv_logs_convert(tmp_path, capsys):
    jsonl = tmp_path / "r.jsonl"
    lines = [{"problem_id": p, "token_idx": t, "layer": layer, "experts": [t % 8, (t + layer + 1) % 8],
              "gating_probs": [0.6, 0.4]} for p in range(2) for t in range(3) for layer in (3, 5)]
    jsonl.write_text("\n".join(json.dumps(x) for x in lines))
    trace = read_routing_log(str(jsonl), n_expert=8)
    assert trace.ids.shape == (6, 2, 2) and trace.meta["contexts"] == [[0, "0"], [3, "1"]]
    csv_path = tmp_path / "r.csv"
    csv_path.write_text("layer_id,expert_ids\n3,1 2\n5,3 4\n3,2 5\n5,6 7\n")
    assert read_routing_log(str(csv_path)).ids.tolist() == [[[1, 2], [3, 4]], [[2, 5], [6, 7]]]
    out = tmp_path / "c.npz"
    assert main(["convert", str(jsonl), str(out), "--n-expert", "8"]) == 0
    assert load_trace(out).n_expert == 8


def test_byte_budget_across_layers(traces, tmp_path):
    small, _ = traces
    out = tmp_path / "g.json"
    assert main(["simulate", str(small), "--gib", "0.05", "--policies", "rotary,lru",
                 "--split", "diversity", "--expert-bytes", str(2**20), "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["results"]
    assert {r["policy"] for r in rows} == {"rotary", "lru"}
    assert rows[0]["slots_per_layer"] == pytest.approx(51 / 2, abs=0.6)
    even = tmp_path / "e.json"
    assert main(["simulate", str(small), "--gib", "0.05", "--policies", "rotary",
                 "--expert-bytes", str(2**20), "--json", str(even)]) == 0
    assert json.loads(even.read_text())["results"][0]["slots_per_layer"] == pytest.approx(25.5, abs=0.6)
