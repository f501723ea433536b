"""Routing traces: which experts each token used in each MoE layer.

File format (``.npz``, written by ``python -m engine trace`` and by ``synth``):

* ``ids``      int16   [tokens, layers, k]  expert ids chosen by the router, distinct per row
* ``weights``  float32 [tokens, layers, k]  optional router weights (same order as ``ids``)
* ``meta``     str     JSON object: ``model``, ``architecture``, ``n_expert``, ``k``, ``source``
* ``pred``     int16   [tokens, layers, k]  optional cross-layer prediction: ``pred[t, i]`` are the
  experts predicted for MoE layer ``i`` of token ``t`` from the hidden state of MoE layer
  ``i - 1`` of the same token (in the engine: layer i's router applied to layer i-1's
  normalised hidden state). Row ``i = 0`` is all -1 (nothing comes before the first MoE
  layer); elsewhere -1 means "no prediction" for that position. Same shape as ``ids``.
* ``probs``    float32 [tokens, layers, n_expert]  optional full router softmax of every
  token and MoE layer (``python -m engine trace`` records it); policies may use it.
* ``hidden``   float16 [tokens, layers, n_embd]  optional: the normalised hidden state entering
  each MoE layer's router (``python -m engine trace --hidden``), for studies of prediction
  from hidden states (tools/hidden_prediction.py); policies never read it.

Optional meta keys the simulator understands:

* ``prompt_spans``  [[start, stop], ...]  token ranges that were prompt processing; the simulator
  hands each span to ``policy.observe_prompt`` (the warm start) and counts no hits there
* ``contexts``      [[start, context_id], ...]  where a conversation/topic starts; ids may repeat

Inside a prompt span a (token, layer) row may be all -1: that layer did not route that token
(llama.cpp runs the last layer for the output row only). Decode rows are always complete.

``load_trace`` also reads the raw chat-style routing logs of ``shared/traces/chat``
(``*.route.csv``, see ``read_route_csv``), prompt phase marked.
"""

from __future__ import annotations

import csv
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.errors import TraceFormatError

ID_DTYPE = np.int16
WEIGHT_DTYPE = np.float32
META_DEFAULTS = {"model": "", "architecture": "", "source": ""}


@dataclass(frozen=True)
class Trace:
    ids: np.ndarray                 # int16 [tokens, layers, k]
    weights: np.ndarray | None      # float32 [tokens, layers, k] or None
    meta: dict = field(default_factory=dict)
    path: str = ""
    pred: np.ndarray | None = None  # int16 [tokens, layers, k] or None; -1 = no prediction
    probs: np.ndarray | None = None  # float32 [tokens, layers, n_expert] or None
    hidden: np.ndarray | None = None  # float16 [tokens, layers, n_embd] or None

    @property
    def n_tokens(self) -> int:
        return int(self.ids.shape[0])

    @property
    def n_layers(self) -> int:
        return int(self.ids.shape[1])

    @property
    def k(self) -> int:
        return int(self.ids.shape[2])

    @property
    def n_expert(self) -> int:
        return int(self.meta["n_expert"])

    @property
    def name(self) -> str:
        return self.meta.get("name") or os.path.basename(self.path) or self.meta.get("model", "trace")

    def prompt_mask(self) -> np.ndarray:
        """bool [tokens]: True where the token was read during prompt processing."""
        mask = np.zeros(self.n_tokens, dtype=bool)
        for start, stop in self.meta.get("prompt_spans", []):
            mask[int(start):int(stop)] = True
        return mask

    def context_starts(self) -> dict[int, str]:
        """token index -> context id, for the tokens where a conversation (re)starts."""
        return {int(start): str(ctx) for start, ctx in self.meta.get("contexts", [])}


def save_trace(path, ids: np.ndarray, weights: np.ndarray | None, meta: dict,
               pred: np.ndarray | None = None, probs: np.ndarray | None = None,
               hidden: np.ndarray | None = None) -> None:
    """Validate and write a trace; ``meta`` must name ``n_expert`` (``k`` is taken from ids)."""
    meta = {**META_DEFAULTS, **dict(meta)}
    ids, weights = _coerce_arrays(ids, weights)
    pred = None if pred is None else _coerce_ids(pred, "pred")
    probs = None if probs is None else _coerce_probs(probs)
    hidden = None if hidden is None else np.asarray(hidden, dtype=np.float16)
    meta.setdefault("k", int(ids.shape[2]) if ids.ndim == 3 else 0)
    trace = validate(Trace(ids, weights, meta, str(path), pred, probs, hidden))
    arrays: dict[str, Any] = {"ids": trace.ids, "meta": np.array(json.dumps(trace.meta))}
    for key in ("weights", "pred", "probs", "hidden"):
        if getattr(trace, key) is not None:
            arrays[key] = getattr(trace, key)
    with open(path, "wb") as handle:   # a file handle stops numpy appending ".npz"
        np.savez_compressed(handle, **arrays)


def load_trace(path) -> Trace:
    """Read and validate a trace file (.npz, or a ``.route.csv`` log); every problem is a
    TraceFormatError naming it."""
    if str(path).endswith(".csv"):
        return read_route_csv(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except FileNotFoundError as exc:
        raise TraceFormatError(f"Trace file not found: {path}") from exc
    except (OSError, ValueError, EOFError) as exc:
        raise TraceFormatError(f"Not a readable .npz trace: {path}", str(exc)) from exc
    for key in ("ids", "meta"):
        if key not in arrays:
            raise TraceFormatError(f"Trace {path} lacks the '{key}' array")
    meta = {**META_DEFAULTS, **_parse_meta(arrays["meta"], path)}
    ids, weights = _coerce_arrays(arrays["ids"], arrays.get("weights"))
    pred = _coerce_ids(arrays["pred"], "pred") if "pred" in arrays else None
    probs = _coerce_probs(arrays["probs"]) if "probs" in arrays else None
    hidden = arrays["hidden"].astype(np.float16, copy=False) if "hidden" in arrays else None
    return validate(Trace(ids, weights, meta, str(path), pred, probs, hidden))


ROUTE_CSV_COLUMNS = ("turn", "phase", "step", "layer", "slot", "expert", "weight")


def read_route_csv(path) -> Trace:
    """A ``route_trace v1`` CSV (one row per routed expert: turn, phase 0 prompt / 1 decode,
    step, layer, slot = rank, expert, weight; ``#`` lines name the model and its sizes) as a
    Trace: turns become contexts, each turn's prompt steps a prompt span, ids in rank order."""
    header, rows = _route_csv_rows(path)
    n_layers, k = int(header["n_layer"]), int(header["n_expert_used"])
    steps = list(dict.fromkeys((r[0], r[1], r[2]) for r in rows))      # (turn, phase, step) in order
    index = {step: i for i, step in enumerate(steps)}
    ids: np.ndarray = np.full((len(steps), n_layers, k), -1, dtype=np.int64)  # [tokens, layers, k]
    weights = np.zeros(ids.shape, dtype=np.float32)
    for turn, phase, step, layer, rank, expert, weight in rows:
        if not (0 <= layer < n_layers and 0 <= rank < k):
            raise TraceFormatError(f"{path}: layer {layer} or slot {rank} is outside the header's sizes")
        ids[index[(turn, phase, step)], layer, rank] = expert
        weights[index[(turn, phase, step)], layer, rank] = weight
    phases = np.array([phase for _, phase, _ in steps])
    partial = np.any(ids < 0, axis=2) & np.any(ids >= 0, axis=2)
    if partial.any() or (np.any(np.all(ids < 0, axis=2), axis=1) & (phases == 1)).any():
        raise TraceFormatError(f"{path}: a decode step lacks a layer, or a step a rank")
    meta = {"model": os.path.basename(header["model"]), "architecture": header["arch"],
            "source": str(path), "n_expert": header["n_expert"], "k": k,
            "prompt_spans": _runs([phase == 0 for phase in phases]),
            "contexts": [[i, f"turn {turn}"] for i, (turn, _, _) in enumerate(steps)
                         if i == 0 or steps[i - 1][0] != turn],
            "expert_bytes": header["expert_bytes"],
            "name": os.path.basename(str(path)).removesuffix(".csv").removesuffix(".route")}
    return validate(Trace(_coerce_ids(ids), weights, meta, str(path)))


def _route_csv_rows(path) -> tuple[dict, list[tuple]]:
    """The ``#`` header as a dict (model, arch, n_layer, n_expert, n_expert_used, expert_bytes
    [layers]) and the data rows as int tuples (weight a float), in file order."""
    header: dict = {"expert_bytes": {}}
    body = []
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            for line in handle:
                if line.startswith("#"):
                    fields = dict(re.findall(r"(\w+)=(\S+)", line))
                    if "layer" in fields and "expert_bytes" in fields:
                        header["expert_bytes"][int(fields["layer"])] = int(fields["expert_bytes"])
                    elif "model" in fields:
                        header.update(fields)
                else:
                    body.append(line)
    except OSError as exc:
        raise TraceFormatError(f"Routing log not readable: {path}", str(exc)) from exc
    reader = csv.DictReader(body)
    if reader.fieldnames is None or not set(ROUTE_CSV_COLUMNS) <= set(reader.fieldnames):
        raise TraceFormatError(f"{path}: expected the columns {', '.join(ROUTE_CSV_COLUMNS)}")
    try:
        for key in ("n_layer", "n_expert", "n_expert_used"):
            header[key] = int(header[key])
        rows = [tuple(int(r[c]) for c in ROUTE_CSV_COLUMNS[:-1]) + (float(r["weight"]),) for r in reader]
    except (KeyError, ValueError) as exc:
        raise TraceFormatError(f"{path}: a header size or a row is not a number", str(exc)) from exc
    if not rows:
        raise TraceFormatError(f"{path} holds no routing rows")
    header["expert_bytes"] = [header["expert_bytes"].get(i, 0) for i in range(header["n_layer"])]
    return header, rows


def _runs(flags: list[bool]) -> list[list[int]]:
    """[start, stop) runs where ``flags`` is True."""
    runs, start = [], None
    for i, flag in enumerate([*flags, False]):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            runs.append([start, i])
            start = None
    return runs


def validate(trace: Trace) -> Trace:
    """Check shapes, dtypes, ranges and meta; returns the trace unchanged when sound."""
    ids, weights, meta = trace.ids, trace.weights, trace.meta
    _check_ids_shape(ids)
    n_expert = _check_meta(meta, ids.shape[2])
    _check_spans(meta, ids.shape[0])
    _check_id_values(ids, n_expert, trace.prompt_mask())
    if weights is not None:
        _check_weights(weights, ids.shape)
    if trace.pred is not None:
        _check_pred(trace.pred, ids.shape, n_expert)
    if trace.probs is not None:
        _check_probs(trace.probs, ids, n_expert)
    if trace.hidden is not None:
        _check_hidden(trace.hidden, ids.shape)
    return trace


def _coerce_ids(values, name: str = "ids") -> np.ndarray:
    """Any integer array that fits int16 -> int16; anything else is a TraceFormatError."""
    values = np.asarray(values)
    if values.dtype.kind not in "iu":
        raise TraceFormatError(f"Trace {name} must be integers (int16), got dtype {values.dtype}")
    info = np.iinfo(ID_DTYPE)
    if values.size and (values.min() < info.min or values.max() > info.max):
        raise TraceFormatError(f"Trace {name} do not fit int16")
    return values.astype(ID_DTYPE, copy=False)


def _coerce_arrays(ids, weights):
    ids = _coerce_ids(ids)
    if weights is None:
        return ids, None
    weights = np.asarray(weights)
    if weights.dtype.kind != "f":
        raise TraceFormatError(f"Trace weights must be float32, got dtype {weights.dtype}")
    return ids, weights.astype(WEIGHT_DTYPE, copy=False)


def _coerce_probs(values) -> np.ndarray:
    values = np.asarray(values)
    if values.dtype.kind != "f":
        raise TraceFormatError(f"Trace probs must be float32, got dtype {values.dtype}")
    return values.astype(WEIGHT_DTYPE, copy=False)


def _check_probs(probs: np.ndarray, ids: np.ndarray, n_expert: int) -> None:
    want = (*ids.shape[:2], n_expert)
    if probs.shape != want:
        raise TraceFormatError(f"Trace probs shape {probs.shape} should be [tokens, layers, n_expert] {want}")
    if not np.all(np.isfinite(probs)) or probs.min() < 0:
        raise TraceFormatError("Trace probs must be finite and non-negative")


def _check_hidden(hidden: np.ndarray, shape: tuple) -> None:
    if hidden.ndim != 3 or hidden.shape[:2] != shape[:2]:
        raise TraceFormatError(f"Trace hidden shape {hidden.shape} should be [tokens, layers, "
                               f"n_embd] with tokens and layers of ids {shape[:2]}")
    if not np.all(np.isfinite(hidden)):
        raise TraceFormatError("Trace hidden states must be finite")


def _parse_meta(raw: np.ndarray, path) -> dict:
    if raw.dtype.kind not in "US" or raw.ndim != 0:
        raise TraceFormatError(f"Trace {path}: 'meta' must be one JSON string")
    try:
        meta = json.loads(str(raw.item() if raw.dtype.kind == "U" else raw.item().decode()))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise TraceFormatError(f"Trace {path}: 'meta' is not valid JSON", str(exc)) from exc
    if not isinstance(meta, dict):
        raise TraceFormatError(f"Trace {path}: 'meta' must be a JSON object")
    return meta


def _check_ids_shape(ids: np.ndarray) -> None:
    if ids.ndim != 3:
        raise TraceFormatError(f"Trace ids must have shape [tokens, layers, k], got {ids.shape}")
    if 0 in ids.shape:
        raise TraceFormatError(f"Trace is empty: ids shape {ids.shape}")


def _check_meta(meta: dict, k: int) -> int:
    n_expert = meta.get("n_expert")
    if not isinstance(n_expert, int) or isinstance(n_expert, bool) or n_expert < 1:
        raise TraceFormatError(f"Trace meta needs a positive integer 'n_expert', got {n_expert!r}")
    if meta.get("k", k) != k:
        raise TraceFormatError(f"Trace meta says k={meta['k']} but ids hold {k} experts per token")
    if k > n_expert:
        raise TraceFormatError(f"Trace has k={k} experts per token but only n_expert={n_expert}")
    return n_expert


def _check_id_values(ids: np.ndarray, n_expert: int, prompt: np.ndarray) -> None:
    unrouted = (ids == -1).all(axis=2) & prompt[:, None]       # [tokens, layers] allowed gaps
    low, high = int(ids[~unrouted].min(initial=0)), int(ids.max())
    if low < 0 or high >= n_expert:
        raise TraceFormatError(
            f"Trace ids out of range: found {low}..{high}, expected 0..{n_expert - 1}")
    ordered = np.sort(ids, axis=2)                        # [tokens, layers, k]
    repeats = np.argwhere((ordered[:, :, 1:] == ordered[:, :, :-1]) & ~unrouted[:, :, None])
    if len(repeats):
        token, layer, _ = repeats[0]
        raise TraceFormatError(
            f"Trace repeats an expert within one token: token {token}, layer {layer}")


def _check_weights(weights: np.ndarray, shape: tuple) -> None:
    if weights.shape != shape:
        raise TraceFormatError(f"Trace weights shape {weights.shape} differs from ids {shape}")
    if not np.all(np.isfinite(weights)):
        raise TraceFormatError("Trace weights contain NaN or infinity")


def _check_pred(pred: np.ndarray, shape: tuple, n_expert: int) -> None:
    if pred.shape != shape:
        raise TraceFormatError(f"Trace pred shape {pred.shape} differs from ids {shape}")
    low, high = int(pred.min()), int(pred.max())
    if low < -1 or high >= n_expert:
        raise TraceFormatError(
            f"Trace pred out of range: found {low}..{high}, expected -1..{n_expert - 1}")
    # Catches the off-by-one convention (row i predicting layer i + 1 instead of layer i).
    if np.any(pred[:, 0] != -1):
        raise TraceFormatError("Trace pred row 0 must be all -1: layer 0 has no earlier layer "
                               "to predict it from (pred[t, i] is the guess FOR layer i)")


def _check_spans(meta: dict, n_tokens: int) -> None:
    for key in ("prompt_spans", "contexts"):
        entries = meta.get(key, [])
        if not isinstance(entries, list) or any(
                not isinstance(e, list) or len(e) != 2 for e in entries):
            raise TraceFormatError(f"Trace meta '{key}' must be a list of [start, value] pairs")
    for start, stop in meta.get("prompt_spans", []):
        if not (isinstance(start, int) and isinstance(stop, int) and 0 <= start <= stop <= n_tokens):
            raise TraceFormatError(f"Trace meta prompt span [{start}, {stop}] is outside 0..{n_tokens}")
