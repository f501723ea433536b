"""How well a MoE layer's hidden state predicts the experts of the next layers: recall of top-k.

Reads two traces with hidden states (``python -m engine trace --hidden`` or
``bench/bench_hidden_prefetch.py --record``): one of training text (the probe learns there
only) and one of held-out text (every figure is measured there), and the model's GGUF for its
routers. For each distance d (1: the next MoE layer, 2: two layers ahead) and layer i:

* pre-gating: layer i+d's router applied to layer i's hidden state (Pre-gated MoE, ProMoE,
  AdapMoE; what the engine's prefetch uses);
* a linear probe: softmax regression from layer i's hidden state to layer i+d's experts,
  trained on the training trace's decode tokens;
* for scale: the same layer's router on its own input (d = 0, should be ~100%: checks the
  recorded hidden state is the router's input), the previous token's experts of layer i+d,
  and layer i+d's most used experts in training (a static set).

Recall: the share of the true top-k found among the k predicted.

    python -m tools.hidden_prediction MODEL.gguf TRAIN.npz HELDOUT.npz [--json]
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from engine.residency.trace import Trace, load_trace
from engine.runtime.experts.predictor import read_tensor_f32

DISTANCES = (1, 2)


def recall(pred: np.ndarray, ids: np.ndarray) -> float:
    """pred, ids int [tokens, k]: mean share of each row's ids found in its pred row."""
    return float((pred[:, :, None] == ids[:, None, :]).any(axis=1).mean())


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    return np.argsort(-scores, axis=1, kind="stable")[:, :k]


def decode_rows(trace: Trace) -> tuple[np.ndarray, np.ndarray]:
    """(hidden float32 [tokens, layers, n_embd], ids [tokens, layers, k]) of decode tokens."""
    if trace.hidden is None:
        raise SystemExit(f"{trace.path} records no hidden states (trace it with --hidden)")
    keep = ~trace.prompt_mask()
    return trace.hidden[keep].astype(np.float32), trace.ids[keep].astype(np.int64)


def train_probe(x: np.ndarray, ids: np.ndarray, n_expert: int, steps: int = 300,
                lr: float = 0.05, l2: float = 1e-4) -> np.ndarray:
    """Softmax regression (Adam, full batch) of x [n, d] onto the k-hot rows of ids [n, k]
    spread evenly (each true expert 1/k); returns W [d + 1, n_expert] (last row: bias)."""
    xb = np.hstack([x / (np.linalg.norm(x, axis=1, keepdims=True) + 1e-6), np.ones((len(x), 1))])
    target = np.zeros((len(x), n_expert))
    np.put_along_axis(target, ids, 1.0 / ids.shape[1], axis=1)
    w = np.zeros((xb.shape[1], n_expert))
    m, v = np.zeros_like(w), np.zeros_like(w)
    for t in range(1, steps + 1):
        logits = xb @ w
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        grad = xb.T @ (p - target) / len(x) + l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad ** 2
        w -= lr * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    return w


def probe_scores(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    xb = np.hstack([x / (np.linalg.norm(x, axis=1, keepdims=True) + 1e-6), np.ones((len(x), 1))])
    return xb @ w


def measure(model: str, train: Trace, held: Trace) -> dict:
    """{"rows": [per (d, layer) recall of every predictor], "mean": {d: {predictor: recall}}}."""
    layers, k, n_expert = list(held.meta["layers"]), held.k, held.n_expert
    routers = [read_tensor_f32(model, f"blk.{layer}.ffn_gate_inp.weight") for layer in layers]
    x_train, ids_train = decode_rows(train)
    x_held, ids_held = decode_rows(held)
    rows = []
    for i in range(len(layers)):
        rows.append({"d": 0, "layer": layers[i],
                     "pre-gating": recall(top_k(x_held[:, i] @ routers[i].T, k), ids_held[:, i])})
    for d in DISTANCES:
        for i in range(len(layers) - d):
            truth = ids_held[:, i + d]
            w = train_probe(x_train[:, i], ids_train[:, i + d], n_expert)
            popular = np.bincount(ids_train[:, i + d].ravel(), minlength=n_expert)
            rows.append({
                "d": d, "layer": layers[i],
                "pre-gating": recall(top_k(x_held[:, i] @ routers[i + d].T, k), truth),
                "probe": recall(top_k(probe_scores(w, x_held[:, i]), k), truth),
                "previous token": recall(truth[:-1], truth[1:]),
                "static top-k": recall(np.tile(np.argsort(-popular)[:k], (len(truth), 1)), truth)})
    means = {}
    for d in (0, *DISTANCES):
        chosen = [r for r in rows if r["d"] == d]
        means[d] = {key: float(np.mean([r[key] for r in chosen])) for key in chosen[0] if key not in ("d", "layer")}
    return {"rows": rows, "mean": means, "k": k, "n_expert": n_expert,
            "tokens": {"train": len(x_train), "heldout": len(x_held)}}


def print_table(result: dict) -> None:
    k, n_expert = result["k"], result["n_expert"]
    print(f"Recall of top-{k} of {n_expert} experts, held-out decode tokens "
          f"({result['tokens']['heldout']}; probe trained on {result['tokens']['train']} "
          f"training tokens); chance {k / n_expert:.1%}")
    print(f"{'ahead':<8}{'layer':>6}{'pre-gating':>12}{'probe':>9}{'prev. token':>13}{'static':>9}")
    for r in result["rows"]:
        if r["d"] == 0:
            continue
        print(f"{r['d']:<8}{r['layer']:>6}{r['pre-gating']:>12.1%}{r['probe']:>9.1%}"
              f"{r['previous token']:>13.1%}{r['static top-k']:>9.1%}")
    for d, mean in result["mean"].items():
        print(f"mean, {d} layer(s) ahead: " + ", ".join(f"{key} {v:.1%}" for key, v in mean.items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.hidden_prediction",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("model")
    parser.add_argument("train")
    parser.add_argument("heldout")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = measure(args.model, load_trace(args.train), load_trace(args.heldout))
    if args.json:
        print(json.dumps({**result, "mean": {str(d): m for d, m in result["mean"].items()}}, indent=1))
    else:
        print_table(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
