"""Next-layer expert prediction from the current layer's hidden state.

The published technique (anchors.md: 80–89% accurate on real models): apply layer l+1's
router to layer l's router input. The engine's recorder captures that input (the last
row of the node named below); the routers are read straight from the GGUF file.
"""

from __future__ import annotations

import numpy as np
from gguf import GGMLQuantizationType
from gguf.quants import dequantize

from engine.model.gguf_header import read_header
from engine.model.facts import ModelFacts

# The node that holds the normalised input of a layer's router, by architecture.
HIDDEN_NODE = {"qwen35moe": "attn_post_norm", "gpt-oss": "attn_post_norm"}
DEFAULT_HIDDEN_NODE = "ffn_norm"


def hidden_node_name(architecture: str) -> str:
    return HIDDEN_NODE.get(architecture, DEFAULT_HIDDEN_NODE)


def read_tensor_f32(path: str, name: str) -> np.ndarray:
    """One tensor from a GGUF file as float32, numpy shape = GGUF shape reversed."""
    header = read_header(path)
    entry = next(t for t in header.tensors if t.name == name)
    with open(path, "rb") as f:
        f.seek(header.data_offset + entry.offset)
        raw = np.frombuffer(f.read(entry.n_bytes), dtype=np.uint8)
    shape = tuple(reversed(entry.shape))
    return dequantize(raw, GGMLQuantizationType(entry.type_id)).reshape(shape).astype(np.float32)


class RouterPredictor:
    """Predicts MoE layer i+1's top-k experts from MoE layer i's router input."""

    def __init__(self, routers: list[np.ndarray], layers: list[int], k: int) -> None:
        self.routers = routers      # per MoE layer: [n_expert, n_embd]
        self.layers, self.k = layers, k

    @classmethod
    def from_gguf(cls, facts: ModelFacts) -> "RouterPredictor":
        layers = list(facts.moe_layers)
        routers = [read_tensor_f32(facts.path, f"blk.{layer}.ffn_gate_inp.weight")
                   for layer in layers]
        return cls(routers, layers, facts.n_expert_used)

    def predict_token(self, hidden: dict[int, np.ndarray]) -> np.ndarray:
        """pred int16 [layers, k]: row i from layer i-1's hidden state, best first; row 0 (and
        gaps) are -1."""
        pred = np.full((len(self.layers), self.k), -1, dtype=np.int16)
        for i in range(1, len(self.layers)):
            state = hidden.get(self.layers[i - 1])
            if state is not None:
                logits = self.routers[i] @ state                       # [n_expert]
                best = np.argpartition(-logits, self.k - 1)[:self.k]
                pred[i] = best[np.argsort(-logits[best], kind="stable")]
        return pred


def prediction_accuracy(pred: np.ndarray, ids: np.ndarray) -> float:
    """Mean share of the true experts that were predicted (rows with a prediction only)."""
    hits, total = 0, 0
    for p_row, t_row in zip(pred.reshape(-1, pred.shape[-1]), ids.reshape(-1, ids.shape[-1])):
        if p_row[0] >= 0:
            hits += len(set(p_row.tolist()) & set(t_row.tolist()))
            total += len(t_row)
    return hits / total if total else 0.0
