"""Readers for routing logs written by other tools, converted into a ``Trace``.

JSONL: one object per line with ``layer``, ``experts`` (list) and optionally ``token``
(or ``token_idx``), ``weights`` (or ``gating_probs``), and a sequence key (``sequence``,
``problem_id`` or ``context``) whose changes become ``meta['contexts']``.
CSV: a header with ``layer`` (or ``layer_id``) and ``experts`` (or ``expert_ids``,
space-separated), optionally ``token``/``token_idx`` and ``weights``. Without a token
column a new token starts whenever the layer number does not increase.
"""

from __future__ import annotations

import csv
import json

import numpy as np

from engine.errors import TraceFormatError
from engine.residency.trace import Trace, validate

SEQUENCE_KEYS = ("sequence", "problem_id", "context")


def read_routing_log(path: str, n_expert: int | None = None, model: str = "") -> Trace:
    """Read a .jsonl or .csv routing log; ``n_expert`` defaults to the largest id + 1."""
    records = _jsonl_records(path) if path.endswith((".jsonl", ".json")) else _csv_records(path)
    if not records:
        raise TraceFormatError(f"Routing log {path} holds no records")
    return _to_trace(records, path, n_expert, model)


def _jsonl_records(path: str) -> list[dict]:
    records = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise TraceFormatError(f"{path} line {number} is not JSON", str(exc)) from exc
            records.append(_record(obj, path, number))
    return records


def _csv_records(path: str) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    records = []
    for number, row in enumerate(rows, 2):
        row = dict(row)
        for key in ("experts", "expert_ids", "weights"):
            if row.get(key) is not None:
                row[key] = [float(x) if key == "weights" else int(x) for x in str(row[key]).split()]
        records.append(_record(row, path, number))
    return records


def _record(obj: dict, path: str, number: int) -> dict:
    layer = obj.get("layer", obj.get("layer_id"))
    experts = obj.get("experts", obj.get("expert_ids"))
    if layer is None or experts is None:
        raise TraceFormatError(f"{path} record {number} lacks 'layer' or 'experts'")
    token = obj.get("token", obj.get("token_idx"))
    sequence = next((obj[k] for k in SEQUENCE_KEYS if k in obj), None)
    weights = obj.get("weights", obj.get("gating_probs"))
    return {"layer": int(layer), "experts": [int(e) for e in experts],
            "token": None if token in (None, "") else int(token),
            "sequence": sequence, "weights": weights}


def _to_trace(records: list[dict], path: str, n_expert: int | None, model: str) -> Trace:
    layers = sorted({r["layer"] for r in records})
    layer_index = {layer: i for i, layer in enumerate(layers)}
    token_keys = _token_keys(records)
    order = list(dict.fromkeys(token_keys))                    # tokens in first-seen order
    token_index = {key: i for i, key in enumerate(order)}
    k = len(records[0]["experts"])
    ids = np.full((len(order), len(layers), k), -1, dtype=np.int64)   # [tokens, layers, k]
    weights = np.zeros(ids.shape, dtype=np.float32) if all(r["weights"] for r in records) else None
    for record, key in zip(records, token_keys):
        if len(record["experts"]) != k:
            raise TraceFormatError(f"{path}: records mix {k} and {len(record['experts'])} experts per token")
        slot = (token_index[key], layer_index[record["layer"]])
        ids[slot] = record["experts"]
        if weights is not None:
            weights[slot] = record["weights"][:k]
    if (ids < 0).any():
        t, layer, _ = np.argwhere(ids < 0)[0]
        raise TraceFormatError(f"{path}: token {t} has no record for layer {layers[layer]}")
    meta = {"model": model, "architecture": "", "source": path, "k": k,
            "n_expert": int(n_expert or ids.max() + 1), "layers": layers,
            "contexts": _contexts(order)}
    return validate(Trace(ids.astype(np.int16), weights, meta, path))


def _token_keys(records: list[dict]) -> list[tuple]:
    """(sequence, token) per record; infers tokens when the log has no token column."""
    if all(r["token"] is not None for r in records):
        return [(r["sequence"], r["token"]) for r in records]
    keys, token, previous = [], -1, None
    for r in records:
        if previous is None or r["layer"] <= previous or r["sequence"] != keys[-1][0]:
            token += 1
        previous = r["layer"]
        keys.append((r["sequence"], token))
    return keys


def _contexts(order: list[tuple]) -> list[list]:
    starts, last = [], object()
    for index, (sequence, _) in enumerate(order):
        if sequence is not None and sequence != last:
            starts.append([index, str(sequence)])
        last = sequence
    return starts
