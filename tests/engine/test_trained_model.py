"""The committed trained MoE (resources/models): its checksum is the one its README states, it
is the Mixtral-style model the docs describe, and its held-out routing trace loads."""

from __future__ import annotations

import hashlib
import pathlib
import re

from engine.model.inspect_gguf import inspect_model
from engine.residency.trace import load_trace

FOLDER = pathlib.Path(__file__).resolve().parents[2] / "resources" / "models"


def test_the_model_matches_its_readme_checksum_and_shape():
    model = FOLDER / "rotary-tiny-moe.gguf"
    stated = re.search(r"sha256 \| `([0-9a-f]{64})`", (FOLDER / "README.md").read_text(encoding="utf-8"))
    assert stated and hashlib.sha256(model.read_bytes()).hexdigest() == stated.group(1)
    facts = inspect_model(str(model))
    assert (facts.architecture, facts.n_layers, facts.n_expert, facts.n_expert_used) == ("llama", 8, 32, 4)
    assert facts.moe_layers == tuple(range(8)) and not facts.looks_like_base_model


def test_the_held_out_trace_records_the_engines_predictions():
    trace = load_trace(str(FOLDER / "rotary-tiny-moe.heldout.npz"))
    assert trace.pred is not None and trace.n_expert == 32 and trace.k == 4
    decode = ~trace.prompt_mask()
    found = (trace.pred[decode, 1:, :, None] == trace.ids[decode, 1:, None, :]).any(axis=2).mean()
    assert 0.6 < found < 1.0           # pre-gating on held-out text (docs/residency.md: ~77%)
