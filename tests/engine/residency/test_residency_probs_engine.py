"""Router probabilities recorded by the engine (fixture model) reach the trace and the policy.

Real traces with probabilities cannot be obtained here: this shows the mechanism only; its
effect on real models' hit rates is unmeasured."""

import numpy as np

from engine.__main__ import main
from engine.residency.budget import Budget
from engine.residency.policy import make_policy
from tools.residency_sim.simulate import run_policy
from engine.residency.trace import load_trace


def test_trace_records_the_full_router_distribution(capsys, tiny_moe_path, tmp_path):
    out_file = tmp_path / "probs.npz"
    code = main(["trace", str(tiny_moe_path), "--prompt", "the document", "--out", str(out_file),
                 "--max-tokens", "24", "--probs", "--temperature", "1.0", "--seed", "3"])
    capsys.readouterr()
    trace = load_trace(out_file)
    assert code == 0 and trace.probs is not None
    assert trace.probs.shape == (*trace.ids.shape[:2], trace.n_expert)     # [tokens, layers, n_expert]
    assert np.allclose(trace.probs.sum(axis=2), 1.0, atol=1e-4)
    # the recorded top-k are the k most probable experts of the recorded distribution
    top = np.sort(np.argsort(-trace.probs, axis=2, kind="stable")[:, :, : trace.k], axis=2)
    assert np.array_equal(top, np.sort(trace.ids, axis=2))
    budget = Budget.uniform(trace.n_layers, trace.k + 1)
    fed = run_policy(trace, make_policy("rotary", budget, trace.n_expert, trace.k))
    assert fed.decode.hits + fed.decode.misses == trace.ids.size             # the simulator ran it
