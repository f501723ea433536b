"""The per-expert slot cache: bindings to the patched libllama and the between-token driver.

The patch series in engine/native/patches adds ``llama_slot_cache_*`` to libllama: slot
banks per RAM-resident MoE layer, lookup tables the decode graph reads, and the routing of
the last single-token decode step (and of prompt batches) kept in host memory. After every
decoded token the driver reads that routing, lets the residency policy (engine/residency)
decide, uploads what it chose and publishes the tables for the next token. On a GPU the
uploads run on a copy stream of their own and the next graph waits for them there, so
nothing here waits for the device. After a prompt, the policy sees the prompt's routing
(a warm start). Only the engine thread calls it.
"""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import logging
from dataclasses import dataclass

import numpy as np

from engine.errors import ModelLoadError
from engine.messages import msg
from engine.plan.transfer import upload_rule
from engine.recipe import Recipe, TransferFigures, TransferRule
from engine.residency.base import ResidencyPolicy
from engine.residency.budget import Budget
from engine.residency.native_rotary import SlotStepError
from engine.residency.policy import make_policy
from engine.runtime.bindings import llama_cpp_module

log = logging.getLogger("rotary.slot_cache")

STATUS_TEXT = {
    -1: "bad layer, slot or expert numbers",
    -2: "a requested layer has no routed experts",
    -3: "the experts of a requested layer are not in plain system memory (repacked or on the GPU)",
    -4: "the slot memory could not be allocated",
    -5: "fewer slots than the experts one token uses",
    -6: "a slot was published without its expert's weights",
    -7: "no slot cache on this context",
}
STOCK_MESSAGE = msg("runtime.stock_build")

_i32p, _f32p = ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(ctypes.c_float)
_i64p = ctypes.POINTER(ctypes.c_int64)
# enum llama_slot_cache_counter, in order
# (order_*: the ordering check, on with ROTARY_SLOT_CHECK=1; device_*: the banks' Vulkan
# back-end's events and command buffers created in this process, flat after warm-up)
COUNTERS = ("host_waits", "async_copies", "sync_copies", "upload_bytes", "staged_bytes",
            "graph_waits", "prompt_tokens", "order_checks", "order_violations",
            "staging_violations", "device_events", "device_cmd_buffers")
PROBE_BUDGET_MS = 160        # the bound is 200 ms for the whole probe
PROMPT_WARM_TOKENS = 4096    # the latest prompt tokens the policy sees before decoding
_SIGNATURES = {
    "llama_slot_cache_init": ([ctypes.c_void_p, _i32p, ctypes.c_int32], ctypes.c_int32),
    "llama_slot_cache_free": ([ctypes.c_void_p], None),
    "llama_slot_cache_expert_bytes": ([ctypes.c_void_p, ctypes.c_int32], ctypes.c_int64),
    "llama_slot_cache_bank_bytes": ([ctypes.c_void_p], ctypes.c_int64),
    "llama_slot_cache_read_routing": ([ctypes.c_void_p, _i32p, _f32p], ctypes.c_int32),
    "llama_slot_cache_upload": ([ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, _i32p, _i32p],
                                ctypes.c_int32),
    "llama_slot_cache_stage": ([ctypes.c_void_p, ctypes.c_int32, _i32p], ctypes.c_int32),
    "llama_slot_cache_commit": ([ctypes.c_void_p], ctypes.c_int32),
    "llama_slot_cache_force_routing": ([ctypes.c_void_p, _i32p], ctypes.c_int32),
    "llama_slot_cache_read_prompt_routing": ([ctypes.c_void_p, _i32p, ctypes.c_int32],
                                             ctypes.c_int32),
    "llama_slot_cache_counters": ([ctypes.c_void_p, _i64p, ctypes.c_int32], ctypes.c_int32),
    "llama_slot_cache_probe": ([ctypes.c_void_p, _f32p, ctypes.c_int32], ctypes.c_int32),
}


@functools.lru_cache(maxsize=1)
def native_api() -> ctypes.CDLL | None:
    """libllama with the slot-cache signatures declared, or None for a stock build."""
    lib = llama_cpp_module().llama_cpp._lib
    if not all(hasattr(lib, name) for name in _SIGNATURES):
        return None
    for name, (argtypes, restype) in _SIGNATURES.items():
        function = getattr(lib, name)
        function.argtypes, function.restype = argtypes, restype
    return lib


def available() -> bool:
    """Does this build's libllama carry the slot cache? The one availability check: False,
    never an exception, without llama-cpp-python, with a library that does not load, or with a
    stock build (the planner then keeps the stock layout)."""
    try:
        return native_api() is not None
    except (ImportError, OSError, AttributeError) as error:
        log.info("no slot cache in this build: %r", error)
        return False


def expert_bytes(model_ptr, layer: int) -> int:
    """Bytes of one routed expert of ``layer`` (gate, up and down together)."""
    api = native_api()
    return int(api.llama_slot_cache_expert_bytes(model_ptr, layer)) if api else 0


@dataclass(frozen=True)
class TokenResidency:
    """What the slot cache did for one decoded token, summed over the cached layers."""

    hits: int                 # routed experts computed from slots
    misses: int               # routed experts computed on the CPU
    uploads: int              # experts copied into slots for the next token
    uploaded_bytes: int
    layer_hits: tuple[int, ...] = ()   # [cached layer] hits of this token (of k each)
    host_waits: int = 0       # times the host waited for the GPU on the cache's behalf


@dataclass
class Totals:
    """Sums since the cache was set up (the CLI's --json and the benchmarks print them)."""

    steps: int = 0
    hits: int = 0
    misses: int = 0
    uploads: int = 0
    uploaded_bytes: int = 0
    restored_bytes: int = 0    # conversation switches
    prefetches: int = 0        # uploads made while a token ran (hidden-state prefetch)

    def add(self, step: TokenResidency) -> None:
        self.steps += 1
        self.hits += step.hits
        self.misses += step.misses
        self.uploads += step.uploads
        self.uploaded_bytes += step.uploaded_bytes

    @property
    def hit_rate(self) -> float | None:
        seen = self.hits + self.misses
        return self.hits / seen if seen else None


class SlotCacheError(RuntimeError):
    def __init__(self, status: int, what: str) -> None:
        super().__init__(f"{what}: {STATUS_TEXT.get(status, f'status {status}')}")
        self.status = status


E_ALLOC = -4

# The libllama calls of one engine step (native policies make them from C), and what a
# failure of each tells the user.
STEP_FAILURES = {"read_routing": "Reading the routing failed",
                 "upload": "Uploading experts failed",
                 "stage": "Staging the slot table failed",
                 "commit": "Publishing the slot tables failed"}


def _check(status: int, what: str) -> None:
    if status < 0:
        raise SlotCacheError(status, what)


def _i32(values) -> ctypes.Array:
    return (ctypes.c_int32 * len(values))(*values)


class SlotBanks:
    """The native handle: one context's slot banks (``llama_slot_cache_init`` .. ``_free``)
    and the checked calls that are not on the per-token path. The SlotCache owns it."""

    def __init__(self, api: ctypes.CDLL, ctx_ptr, model_ptr, layers: tuple[int, ...],
                 slots: tuple[int, ...], n_layer: int) -> None:
        self.api, self.ctx = api, ctx_ptr
        per_layer = [0] * n_layer
        for layer, count in zip(layers, slots):
            per_layer[layer] = count
        _check(api.llama_slot_cache_init(ctx_ptr, _i32(per_layer), n_layer),
               "The expert slot cache could not be set up")
        self.expert_bytes = [expert_bytes(model_ptr, layer) for layer in layers]
        self.bank_bytes = int(api.llama_slot_cache_bank_bytes(ctx_ptr))
        self._waits = (ctypes.c_int64 * 1)()          # counter 0: host waits, read every token

    def probe(self, budget_ms: int = PROBE_BUDGET_MS) -> TransferFigures:
        """The link probe: host->slot copies (pinned, pageable) and the CPU's expert work, in
        GB/s; run it before the first upload (it overwrites slots that hold nothing yet)."""
        out = (ctypes.c_float * 4)()
        _check(self.api.llama_slot_cache_probe(self.ctx, out, budget_ms),
               "Measuring the transfer speeds failed")
        return TransferFigures(pinned_gbs=round(out[0], 2), pageable_gbs=round(out[1], 2),
                               cpu_gbs=round(out[2], 2), probe_s=round(out[3], 3))

    def counters(self) -> dict[str, int]:
        """What the native cache has done since it was set up (enum llama_slot_cache_counter)."""
        values = (ctypes.c_int64 * len(COUNTERS))()
        _check(self.api.llama_slot_cache_counters(self.ctx, values, len(COUNTERS)),
               "Reading the slot cache's counters failed")
        return dict(zip(COUNTERS, values))

    def host_waits(self) -> int:
        self.api.llama_slot_cache_counters(self.ctx, self._waits, 1)
        return int(self._waits[0])

    def close(self) -> None:
        if self.ctx is not None:
            self.api.llama_slot_cache_free(self.ctx)
            self.ctx = None


def measured_upload_rule(banks: SlotBanks, k: int, pinned_weights: bool) -> TransferRule:
    """On a GPU, how many misses a token may upload per layer follows from the speeds the
    link probe measures (engine/plan/transfer.py); the SlotCache holds the rule."""
    return upload_rule(banks.probe(), k, pinned_weights)


def cache_policy(name: str, slots: tuple[int, ...], upload_cap: int | None, n_expert: int,
                 k: int) -> ResidencyPolicy:
    """The slot cache's residency policy, built by the registry (engine/residency/policy.py)."""
    return make_policy(name, Budget(slots, upload_cap), n_expert, k)


class SlotCache:
    """Drives one context's slot banks between tokens; ``close()`` frees them before the
    context goes. ``open`` builds one from a recipe.

    ``layers`` are the cached model layers in order; policy layer j is ``layers[j]``.
    """

    @classmethod
    def open(cls, ctx_ptr, model_ptr, recipe: Recipe, n_expert: int, k: int, *,
             gpu_banks: bool = False, pinned_weights: bool = False) -> "SlotCache":
        """The slot cache ``recipe`` asks for: banks (the native handle), on a GPU the
        measured upload cap (host banks, CPU builds, keep the recipe's) and the policy."""
        api = native_api() if available() else None   # the one check (planning asks it too)
        if api is None:
            raise ModelLoadError(STOCK_MESSAGE)
        layers = recipe.slot_layers
        slots = tuple(recipe.expert_slots[i] for i in layers)
        Budget(slots, recipe.upload_cap).check(n_expert, k)   # plain words before native errors
        banks = SlotBanks(api, ctx_ptr, model_ptr, layers, slots, len(recipe.expert_slots))
        try:
            transfer = measured_upload_rule(banks, k, pinned_weights) \
                if gpu_banks and recipe.upload_cap is None else None
            policy = cache_policy(recipe.residency_policy, slots,
                                  transfer.cap if transfer else recipe.upload_cap, n_expert, k)
            return cls(banks, layers, policy, router_probs=recipe.router_probs,
                       transfer=transfer)
        except BaseException:
            banks.close()
            raise

    def __init__(self, banks: SlotBanks, layers: tuple[int, ...], policy: ResidencyPolicy, *,
                 router_probs: bool = False, transfer: TransferRule | None = None,
                 verify: bool = False) -> None:
        self.banks, self._api, self._ctx = banks, banks.api, banks.ctx
        self.layers, self.policy, self.verify = tuple(layers), policy, verify
        self.slots, self.k, self.n_expert = policy.budget.slots, policy.k, policy.n_expert
        self.expert_bytes, self.bank_bytes = banks.expert_bytes, banks.bank_bytes
        # The measured upload cap and why (None: the recipe's cap, host banks): held here only.
        self.transfer = transfer
        # Reused argument buffers of upload/stage: experts, slots (<= a layer's slots), table.
        most = max(self.slots, default=1)
        self._up_experts, self._up_slots = (ctypes.c_int32 * most)(), (ctypes.c_int32 * most)()
        self._table = (ctypes.c_int32 * most)()
        self._resident_rows: list[tuple[int, ...]] = [() for _ in self.layers]  # = native tables
        self._bind_policy(router_probs)
        self._resident: tuple[tuple[int, ...], ...] | None = None     # built when asked
        self.totals = Totals()
        # When set to []: every decode step's (ids [layers, k], probs [layers, n_expert] or
        # None when the router's scores are not read), and every prompt's ids [tokens, layers, k].
        self.routing_log: list[tuple[np.ndarray, np.ndarray | None]] | None = None
        self.prompt_log: list[np.ndarray] | None = None
        self._host_waits = banks.host_waits()

    def _bind_policy(self, router_probs: bool) -> None:
        self._ids = np.zeros((len(self.layers), self.k), dtype=np.int32)       # [layers, k]
        self._ids_ptr = self._ids.ctypes.data_as(_i32p)
        # The router's full scores reach the policy only when asked: reading and ranking them
        # costs ~10 us per layer and their effect on real models is unmeasured.
        self.router_probs = router_probs
        self._probs = np.zeros((len(self.layers), self.n_expert), dtype=np.float32)  # [layers, n_expert]
        self._probs_ptr = self._probs.ctypes.data_as(_f32p) if router_probs else None
        # A native policy (engine/residency/native_rotary.py) makes the whole step after a token
        # in C: read the routing, decide every layer, upload, stage, publish.
        self._engine_step = None
        if not router_probs:
            functions = {name: ctypes.cast(getattr(self._api, f"llama_slot_cache_{name}"),
                                           ctypes.c_void_p).value for name in STEP_FAILURES}
            self._engine_step = self.policy.engine_step(functions, self._ctx, self.layers, self._ids)
            self._native_rings = self.policy.rings()              # [n_slots] int32 views

    # ---- measurements ---------------------------------------------------------------------
    def probe(self, budget_ms: int = PROBE_BUDGET_MS) -> TransferFigures:
        return self.banks.probe(budget_ms)

    def counters(self) -> dict[str, int]:
        return self.banks.counters()

    # ---- after a prompt --------------------------------------------------------------------
    def warm_start(self) -> int:
        """Show the policy the routing of the prompt just read and upload what it wants
        before the first decoded token (the first graph waits for it on the GPU); bytes."""
        api = self._api
        n = api.llama_slot_cache_read_prompt_routing(self._ctx, None, PROMPT_WARM_TOKENS)
        if n <= 0:
            _check(n, "Reading the prompt's routing failed")
            return 0
        routing = np.zeros((n, len(self.layers), self.k), dtype=np.int32)   # [tokens, layers, k]
        got = api.llama_slot_cache_read_prompt_routing(
            self._ctx, routing.ctypes.data_as(_i32p), PROMPT_WARM_TOKENS)
        _check(got, "Reading the prompt's routing failed")
        if self.prompt_log is not None:
            self.prompt_log.append(routing[:got].copy())
        return self.upload_all(self.policy.observe_prompt(routing[:got]))

    # ---- after every decoded token --------------------------------------------------
    def after_token(self) -> TokenResidency | None:
        """Run the policy on the routing of the step that just ran; None if it was a batch.

        The hot path of decoding (every token, every cached layer). With a native policy one
        ctypes call makes the whole step in C; otherwise one call reads all layers' routing,
        the Python policy decides layer by layer, and only layers whose table changed are
        uploaded and staged."""
        if self._engine_step is not None:      # native policy: the whole step in one call
            try:
                got, step = self._engine_step()
            except SlotStepError as error:
                _check(error.status, STEP_FAILURES[error.call])
        else:
            got, step = self._api.llama_slot_cache_read_routing(
                self._ctx, self._ids_ptr, self._probs_ptr), None
        if got <= 0:
            _check(got, "Reading the routing failed")
            return None
        probs = self._probs if self.router_probs else None
        if self.routing_log is not None:
            self.routing_log.append((self._ids.copy(), None if probs is None else probs.copy()))
        result = self._after_token_all(step) if step is not None else self._after_token_by_layer(probs)
        waits = self.banks.host_waits()
        if waits != self._host_waits:
            result = dataclasses.replace(result, host_waits=waits - self._host_waits)
            self._host_waits = waits
        self.totals.add(result)
        return result

    def _after_token_all(self, step) -> TokenResidency:
        """Count what the native policy decided, uploaded and published for every layer."""
        layer_hits, layer_misses = step.hits.tolist(), step.misses.tolist()
        if self.verify:
            for j, routed in enumerate(self._ids.tolist()):
                self._verify(j, routed, layer_hits[j], layer_misses[j])
        uploads = uploaded = 0
        if step.total_uploads:
            for j, n in enumerate(step.n_uploads.tolist()):
                if n:
                    uploads += n
                    uploaded += n * self.expert_bytes[j]
                    self._resident_rows[j] = tuple(sorted(
                        e for e in self._native_rings[j].tolist() if e >= 0))
            self._resident = None
        return TokenResidency(sum(layer_hits), sum(layer_misses), uploads, uploaded,
                              tuple(layer_hits))

    def _after_token_by_layer(self, probs) -> TokenResidency:
        """One policy call per layer (Python policies, and router scores)."""
        step, verify = self.policy.after_token, self.verify
        hits = misses = uploads = uploaded = 0
        layer_hits = []
        for j, routed in enumerate(self._ids.tolist()):
            decision = step(j, routed, None if probs is None else probs[j])
            if verify:
                self._verify(j, routed, decision.hits, decision.misses)
            layer_hits.append(decision.hits)
            hits += decision.hits
            misses += decision.misses
            if decision.uploads:
                n = self._apply(j, decision.uploads)
                uploads += n
                uploaded += n * self.expert_bytes[j]
        if uploads:
            _check(self._api.llama_slot_cache_commit(self._ctx), "Publishing the slot tables failed")
        return TokenResidency(hits, misses, uploads, uploaded, tuple(layer_hits))

    def _apply(self, j: int, uploads: list) -> int:
        """Upload (expert, slot) pairs of policy layer j and stage its new table; returns n."""
        layer, n = self.layers[j], len(uploads)
        experts, slots = self._up_experts, self._up_slots
        for i, (expert, slot) in enumerate(uploads):
            experts[i], slots[i] = expert, slot
        _check(self._api.llama_slot_cache_upload(self._ctx, layer, n, experts, slots),
               "Uploading experts failed")
        table = self.policy.tables[j].expert_in          # slot -> expert, FREE = -1
        self._table[: len(table)] = table
        _check(self._api.llama_slot_cache_stage(self._ctx, layer, self._table),
               "Staging the slot table failed")
        self._resident_rows[j] = tuple(sorted(e for e in table if e >= 0))
        self._resident = None
        return n

    def _verify(self, j: int, routed: list[int], policy_hits: int, policy_misses: int) -> None:
        # The graph computed this token from the tables published before it: count against them.
        published = set(self._resident_rows[j])
        hits = sum(e in published for e in routed)
        if hits != policy_hits or len(routed) - hits != policy_misses:
            raise AssertionError(f"layer {self.layers[j]}: engine hits {hits}, policy "
                                 f"{policy_hits} hits and {policy_misses} misses")

    # ---- while a token runs ---------------------------------------------------------------
    def prefetch(self, j: int, experts: list[int]) -> int:
        """Upload policy layer j's experts predicted for the token being computed and publish
        its table before that layer runs (engine/runtime/experts/prefetch.py); the policy keeps them
        within the token's upload cap. Returns how many were uploaded."""
        uploads = self.policy.prefetch_predicted(j, experts)
        if uploads:
            n = self._apply(j, uploads)
            _check(self._api.llama_slot_cache_commit(self._ctx), "Publishing the slot tables failed")
            self.totals.prefetches += n
            self.totals.uploaded_bytes += n * self.expert_bytes[j]
        return len(uploads)

    def use_policy(self, policy: ResidencyPolicy) -> None:
        """Run ``policy`` from now on (e.g. the Python reference, which can prefetch); only
        before anything is resident, so the published tables and the policy agree."""
        if any(self._resident_rows):
            raise RuntimeError("the slot cache's policy can only be replaced while it is empty")
        close_policy = getattr(self.policy, "close", None)
        if close_policy is not None:
            close_policy()
        self.policy = policy
        self._bind_policy(self.router_probs)

    # ---- conversations ------------------------------------------------------------------
    def snapshot(self):
        return self.policy.snapshot()

    def restore(self, snapshot) -> int:
        """Make a saved resident set current again; returns the bytes uploaded."""
        moved = self.upload_all(self.policy.restore(snapshot))
        self.totals.restored_bytes += moved
        return moved

    def switch_conversation(self, conversation_id: int) -> int:
        """The policy keeps each conversation's slots (the last 16) and says what comes back
        for this one; returns the bytes uploaded."""
        moved = self.upload_all(self.policy.switch_context(conversation_id))
        self.totals.restored_bytes += moved
        return moved

    def upload_all(self, uploads: list) -> int:
        """(layer, expert, slot) uploads from restore/switch_context, then one commit."""
        by_layer: dict[int, list] = {}
        for j, expert, slot in uploads:
            by_layer.setdefault(j, []).append((expert, slot))
        for j, pairs in by_layer.items():
            self._apply(j, pairs)
        if by_layer:
            _check(self._api.llama_slot_cache_commit(self._ctx), "Publishing the slot tables failed")
        return sum(len(p) * self.expert_bytes[j] for j, p in by_layer.items())

    def force_routing(self, ids) -> None:
        """Trace replay: route the next decode steps to ids [cached layers, k]; None: the router."""
        if ids is None:
            status = self._api.llama_slot_cache_force_routing(self._ctx, None)
        else:
            ids = np.ascontiguousarray(ids, dtype=np.int32).reshape(len(self.layers), self.k)
            status = self._api.llama_slot_cache_force_routing(self._ctx, ids.ctypes.data_as(_i32p))
        _check(status, "Forcing the routing failed")

    def resident(self) -> tuple[tuple[int, ...], ...]:
        """[cached layer] experts in slots, as published for the next token."""
        if self._resident is None:
            self._resident = tuple(self._resident_rows)
        return self._resident

    def close(self) -> None:
        self.banks.close()
        self._ctx = None
        close_policy = getattr(self.policy, "close", None)   # a native policy's C state
        if close_policy is not None:
            close_policy()
