"""Routing record: which experts every MoE layer selected for every token.

llama.cpp names the router's top-k node ``ffn_moe_topk-<layer>`` and its gate
weights ``ffn_moe_weights-<layer>``. The scheduler's eval callback (context param
``cb_eval``) asks us, node by node, whether we want a node's data; we say yes only
for those two and copy the few bytes out. Everything else runs unobserved.
"""

from __future__ import annotations

import ctypes
import logging
from dataclasses import dataclass, field

import numpy as np

from engine.native import (GGML_MAX_DIMS, TENSOR_NAME_OFFSET, GgmlTensor, ggml,
                           llama_cpp_module)

TOPK = b"ffn_moe_topk"
WEIGHTS = b"ffn_moe_weights"
GGML_TYPE_I32 = 26

log = logging.getLogger("rotary.routing")


@dataclass
class TokenRouting:
    """One batch (a prompt chunk or one decoded token) of routing, keyed by layer."""

    ids: dict[int, np.ndarray] = field(default_factory=dict)      # layer → [n_tokens, k] int32
    weights: dict[int, np.ndarray] = field(default_factory=dict)  # layer → [n_tokens, k] float32


class RoutingRecorder:
    """Owns the ``cb_eval`` callback; collects routing for the batch being decoded.

    ``begin()`` before ``llama_decode``, ``take()`` after it. Runs on the engine thread.
    """

    def __init__(self, with_weights: bool = False) -> None:
        self.enabled = True
        self.with_weights = with_weights
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
            kind, layer = parse_node_name(ctypes.string_at(tensor + TENSOR_NAME_OFFSET))
            wanted = kind == TOPK or (kind == WEIGHTS and self.with_weights)
            if not ask and wanted:
                self._store(tensor, kind, layer)
            return wanted if ask else True
        except Exception:  # noqa: BLE001 - must never propagate into C
            log.exception("routing record failed")
            return not ask

    def _store(self, tensor: int, kind: bytes, layer: int) -> None:
        array = read_tensor(self._lib, tensor)           # [ne3, ne2, ne1, ne0]
        if kind == TOPK:                                  # [n_tokens, k]
            self._current.ids[layer] = array.reshape(-1, array.shape[-1])
        else:                                             # [n_tokens, k, 1]
            self._current.weights[layer] = array.reshape(-1, array.shape[-2])


def parse_node_name(name: bytes) -> tuple[bytes, int]:
    """b"ffn_moe_topk-12" → (b"ffn_moe_topk", 12); anything else → (b"", -1)."""
    kind, dash, layer = name.rpartition(b"-")
    if dash and layer.isdigit() and kind in (TOPK, WEIGHTS):
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
