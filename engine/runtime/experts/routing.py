"""Routing record: which experts every MoE layer selected for every token.

llama.cpp names the router's top-k node ``ffn_moe_topk-<layer>``, its gate weights
``ffn_moe_weights-<layer>`` and its scores over all experts ``ffn_moe_probs-<layer>``
(recorded only on request, by the Python recorder). The scheduler's eval callback (context param
``cb_eval``) asks us, node by node, whether we want a node's data; we say yes only
for those two and copy the few bytes out. Everything else runs unobserved. On request both
recorders also keep the normalised hidden state entering each MoE layer's router (the node named
by ``predictor.hidden_node_name``); the Python one can hand it, while the step still runs, to a
hook (``on_hidden``: the engine's hidden-state prefetch, engine/runtime/experts/prefetch.py).
"""

from __future__ import annotations

import ctypes
import logging
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from gguf import GGMLQuantizationType

from engine.native.abi import check_struct, read_table
from engine.native.build import load_library
from engine.runtime.bindings import (GGML_MAX_DIMS, TENSOR_NAME_OFFSET, GgmlTensor, ggml,
                           llama_cpp_module)

TOPK = b"ffn_moe_topk"
WEIGHTS = b"ffn_moe_weights"
PROBS = b"ffn_moe_probs"
MISS_IDS = b"ffn_moe_miss_ids"   # slot-cache decode graphs: per routed expert, -1 when read from a slot
GGML_TYPE_I32 = int(GGMLQuantizationType.I32)    # ggml's enum, as gguf mirrors it

log = logging.getLogger("rotary.routing")


@dataclass
class TokenRouting:
    """One batch (a prompt chunk or one decoded token) of routing, keyed by layer."""

    ids: dict[int, np.ndarray] = field(default_factory=dict)      # layer → [n_tokens, k] int32
    weights: dict[int, np.ndarray] = field(default_factory=dict)  # layer → [n_tokens, k] float32
    hidden: dict[int, np.ndarray] = field(default_factory=dict)   # layer → [n_embd] router input
    probs: dict[int, np.ndarray] = field(default_factory=dict)    # layer → [n_tokens, n_expert] float32


class RoutingRecorder:
    """Owns the ``cb_eval`` callback; collects routing for the batch being decoded.

    ``begin()`` before ``llama_decode``, ``take()`` after it. Runs on the engine thread.
    """

    def __init__(self, with_weights: bool = False, with_probs: bool = False,
                 hidden_name: str = "") -> None:
        self.enabled = True
        self.with_weights = with_weights
        self.with_probs = with_probs
        self.hidden_name = hidden_name.encode()
        # (layer, hidden state [n_embd]) of a single-token step, called while the step runs:
        # the later layers are not computed yet
        self.on_hidden: Callable[[int, np.ndarray], None] | None = None
        # counting the slot reads the decode graph itself made (ffn_moe_miss_ids): a check that
        # tables published while a step runs are the ones its later layers read
        self.count_slot_reads = False
        self.slot_reads = 0
        self.slot_misses = 0
        self._current = TokenRouting()
        self._lib = ggml()
        self._callback = llama_cpp_module().ggml_backend_sched_eval_callback(self._on_node)

    @property
    def callback(self):
        """The ctypes function pointer to put in ``llama_context_params.cb_eval``."""
        return self._callback

    def begin(self) -> None:
        self._current = TokenRouting()

    def take(self) -> TokenRouting:
        routing, self._current = self._current, TokenRouting()
        return routing

    def _on_node(self, tensor: int, ask: bool, _user_data) -> bool:
        # ask=True: "do you want this node's data?"; ask=False: it is computed, read it.
        # Returning False on ask=False would abort the graph, so errors are only logged.
        if not self.enabled:
            return not ask
        try:
            kind, layer = parse_node_name(ctypes.string_at(tensor + TENSOR_NAME_OFFSET),
                                          self.hidden_name)
            wanted = (kind == TOPK or (kind == WEIGHTS and self.with_weights)
                      or (kind == PROBS and self.with_probs)
                      or (bool(kind) and kind == self.hidden_name)
                      or (kind == MISS_IDS and self.count_slot_reads))
            if not ask and wanted:
                self._store(tensor, kind, layer)
            return wanted if ask else True
        except Exception:  # must never propagate into C
            log.exception("routing record failed")
            return not ask

    def _store(self, tensor: int, kind: bytes, layer: int) -> None:
        array = read_tensor(self._lib, tensor)           # [ne3, ne2, ne1, ne0]
        if kind == TOPK:                                  # [n_tokens, k]
            self._current.ids[layer] = array.reshape(-1, array.shape[-1])
        elif kind == PROBS:                               # [n_tokens, n_expert]
            self._current.probs[layer] = array.reshape(-1, array.shape[-1])
        elif kind == MISS_IDS:                            # [1, k]: -1 = read from a slot
            self.slot_reads += int((array == -1).sum())
            self.slot_misses += int((array != -1).sum())
        elif kind == self.hidden_name:                    # [n_tokens, n_embd]: the last row
            rows = array.reshape(-1, array.shape[-1])
            self._current.hidden[layer] = rows[-1]
            if self.on_hidden is not None and len(rows) == 1:
                self.on_hidden(layer, rows[0])
        else:                                             # [n_tokens, k, 1]
            self._current.weights[layer] = array.reshape(-1, array.shape[-2])


def parse_node_name(name: bytes, hidden: bytes = b"") -> tuple[bytes, int]:
    """b"ffn_moe_topk-12" → (b"ffn_moe_topk", 12), the same for the ``hidden`` node's name;
    anything else → (b"", -1)."""
    kind, dash, layer = name.rpartition(b"-")
    if dash and layer.isdigit() and (kind in (TOPK, WEIGHTS, PROBS, MISS_IDS)
                                     or (hidden and kind == hidden)):
        return kind, int(layer)
    return b"", -1


def read_tensor(lib: ctypes.CDLL, tensor: int) -> np.ndarray:
    """Copy a (possibly strided view) tensor of 4-byte elements to numpy [ne3, ne2, ne1, ne0]."""
    t = GgmlTensor.from_address(tensor)
    n_bytes = lib.ggml_nbytes(tensor)
    buffer = ctypes.create_string_buffer(n_bytes)
    lib.ggml_backend_tensor_get(tensor, buffer, 0, n_bytes)
    dtype = np.int32 if t.type == GGML_TYPE_I32 else np.float32
    # ffn_moe_topk is a view of the whole argsort: rows are nb[1] bytes apart.
    shape = tuple(reversed(t.ne[:GGML_MAX_DIMS]))
    strides = tuple(reversed(t.nb[:GGML_MAX_DIMS]))
    return np.ndarray(shape, dtype=dtype, buffer=buffer.raw, strides=strides).copy()


def stack_decode_steps(steps: list[TokenRouting], layers: list[int]) -> np.ndarray:
    """Decode-step records → ``ids`` int16 [tokens, layers, k] for the trace format."""
    rows = [np.stack([step.ids[layer][-1] for layer in layers]) for step in steps]
    return np.stack(rows).astype(np.int16) if rows else np.zeros((0, len(layers), 0), np.int16)


def stack_decode_weights(steps: list[TokenRouting], layers: list[int]) -> np.ndarray | None:
    if not steps or not all(step.weights for step in steps):
        return None
    rows = [np.stack([step.weights[layer][-1] for layer in layers]) for step in steps]
    return np.stack(rows).astype(np.float32)


def stack_decode_hidden(steps: list[TokenRouting], layers: list[int]) -> np.ndarray | None:
    """Decode-step router inputs → float32 [tokens, layers, n_embd], or None where any is missing."""
    if not steps or not all(all(layer in step.hidden for layer in layers) for step in steps):
        return None
    return np.stack([np.stack([step.hidden[layer] for layer in layers]) for step in steps])


def stack_decode_probs(steps: list[TokenRouting], layers: list[int]) -> np.ndarray | None:
    """Decode-step scores → ``probs`` float32 [tokens, layers, n_expert], as a distribution:
    gating that hands raw logits (gpt-oss) gets a softmax, sigmoid scores are normalised."""
    if not steps or not all(step.probs for step in steps):
        return None
    scores = np.stack([np.stack([step.probs[layer][-1] for layer in layers]) for step in steps])
    scores = scores.astype(np.float64)
    if scores.min() < 0:
        scores = np.exp(scores - scores.max(axis=2, keepdims=True))
    return (scores / scores.sum(axis=2, keepdims=True)).astype(np.float32)


# ---- the same recorder with its per-node work done in C (engine/native/csrc/rotary_routing.c) ----

class _RecorderState(ctypes.Structure):
    """rotary_routing.h's rr_state (checked against the library when it loads)."""

    _fields_ = [("tensor_get", ctypes.c_void_p), ("nbytes", ctypes.c_void_p),
                ("name_offset", ctypes.c_int64), ("enabled", ctypes.c_int32),
                ("with_weights", ctypes.c_int32), ("max_layers", ctypes.c_int32),
                ("max_rows", ctypes.c_int32), ("k_max", ctypes.c_int32),
                ("ids", ctypes.c_void_p), ("weights", ctypes.c_void_p), ("rows", ctypes.c_void_p),
                ("k", ctypes.c_void_p), ("nodes_seen", ctypes.c_int64),
                ("hidden_name", ctypes.c_char * 32), ("n_embd_max", ctypes.c_int32),
                ("hidden", ctypes.c_void_p), ("hidden_len", ctypes.c_void_p)]


class NativeRoutingRecorder:
    """Drop-in for RoutingRecorder: C answers the scheduler, numpy arrays hold the result."""

    def __init__(self, library: ctypes.CDLL, with_weights: bool = False, max_layers: int = 128,
                 max_rows: int = 512, k_max: int = 32, hidden_name: str = "",
                 n_embd: int = 0) -> None:
        lib = ggml()
        self._ids = np.zeros((max_layers, max_rows, k_max), np.int32)
        self._weights = np.zeros((max_layers, max_rows, k_max), np.float32)
        self._rows = np.zeros(max_layers, np.int32)
        self._k = np.zeros(max_layers, np.int32)
        self._hidden = np.zeros((max_layers, max(n_embd, 1)), np.float32)
        self._hidden_len = np.zeros(max_layers, np.int32)
        self._state = _RecorderState(
            ctypes.cast(lib.ggml_backend_tensor_get, ctypes.c_void_p).value,
            ctypes.cast(lib.ggml_nbytes, ctypes.c_void_p).value, TENSOR_NAME_OFFSET, 1,
            int(with_weights), max_layers, max_rows, k_max, self._ids.ctypes.data,
            self._weights.ctypes.data, self._rows.ctypes.data, self._k.ctypes.data, 0,
            hidden_name.encode() if n_embd else b"", max(n_embd, 1), self._hidden.ctypes.data,
            self._hidden_len.ctypes.data)
        callback_type = llama_cpp_module().ggml_backend_sched_eval_callback
        self._callback = ctypes.cast(library.rr_callback, callback_type)
        self._library = library               # keeps the shared library loaded

    @property
    def callback(self):
        return self._callback

    @property
    def user_data(self) -> int:
        return ctypes.addressof(self._state)

    @property
    def enabled(self) -> bool:
        return bool(self._state.enabled)

    @enabled.setter
    def enabled(self, value: bool) -> None:
        self._state.enabled = int(value)

    @property
    def with_weights(self) -> bool:
        return bool(self._state.with_weights)

    @property
    def nodes_seen(self) -> int:
        return self._state.nodes_seen

    def begin(self) -> None:
        self._rows[:] = 0
        self._hidden_len[:] = 0

    def take(self) -> TokenRouting:
        routing = TokenRouting()
        for layer in np.flatnonzero(self._rows):
            rows, k = int(self._rows[layer]), int(self._k[layer])
            routing.ids[int(layer)] = self._ids[layer, :rows, :k].copy()
            if self.with_weights:
                routing.weights[int(layer)] = self._weights[layer, :rows, :k].copy()
        for layer in np.flatnonzero(self._hidden_len):
            routing.hidden[int(layer)] = self._hidden[layer, :self._hidden_len[layer]].copy()
        self.begin()
        return routing


def make_recorder(with_weights: bool = False, max_rows: int = 512, hidden_name: str = "",
                  n_embd: int = 0, with_probs: bool = False):
    """The C recorder where it can be built, else the pure-Python one. Router probabilities
    (``with_probs``, for traces) are copied by the Python one only."""
    if with_probs:
        return RoutingRecorder(with_weights, with_probs=True, hidden_name=hidden_name if n_embd else "")
    library = routing_library()
    if library is None:
        return RoutingRecorder(with_weights, hidden_name=hidden_name if n_embd else "")
    return NativeRoutingRecorder(library, with_weights, max_rows=max_rows,
                                 hidden_name=hidden_name, n_embd=n_embd)


def routing_library() -> ctypes.CDLL | None:
    """rotary_routing's library, its layouts checked against _RecorderState and GgmlTensor
    (NativeAbiError when they differ), or None where it can't be built."""
    library = load_library("rotary_routing")
    if library is None:
        return None
    table = read_table(library, "rr_abi", "engine/native/csrc/rotary_routing.h")
    check_struct(table, "rr_state", _RecorderState)
    check_struct(table, "rr_tensor_head", GgmlTensor, fields_only=True)
    library.rr_callback.restype = ctypes.c_bool
    return library
