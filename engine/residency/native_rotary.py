"""The rotary policy with its step in C (engine/native/csrc/rotary_policy.c), same results.

``make_policy("rotary", ...)`` gives a ``NativeRotaryPolicy`` whenever the C library builds
(any ``RotaryConfig``), so the simulator and the engine run the same objects; without a
compiler it gives the Python ``RotaryPolicy`` and logs that once. The Python class stays
the reference: ``make_policy("rotary", ..., native=False)`` (or ``RotaryPolicy(...)``), and
tests/engine/test_native_rotary.py compares both decision by decision and bit for bit.

Router probabilities work too: numpy picks the best scores for both (``rotary.near_miss_top``,
so ties fall the same way) and C computes and adds their shares. The engine makes the
whole step after a token through ``engine_step`` (read the routing, decide every layer,
upload, stage, publish: one ctypes call); ``after_token_all(ids)`` decides every layer of a
token in one call; the simulator calls ``after_token(layer, ids)`` layer by layer, layer 0
first.
"""

from __future__ import annotations

import ctypes
import functools
import logging

import numpy as np

from engine.native.abi import check_codes, check_struct, read_table
from engine.native.build import load_library
from engine.residency.base import ResidencyPolicy, check_prompt
from engine.residency.rotary import NEVER, RotaryConfig, near_miss_top
from engine.residency.slots import FREE, Decision

log = logging.getLogger("rotary.residency")

_i32p, _i64p, _f32p, _f64p, _u8p = (ctypes.POINTER(t) for t in (
    ctypes.c_int32, ctypes.c_int64, ctypes.c_float, ctypes.c_double, ctypes.c_uint8))
_i32 = ctypes.c_int32
_SIGNATURES = {
    "rp_new": ([_i32] * 3 + [_i32p] + [_i32] * 6 + [_f64p, ctypes.c_double, ctypes.c_double, _i32,
                                                    _i32p, _i32p],
               ctypes.c_void_p),
    "rp_bind": ([ctypes.c_void_p, _f64p, _f64p, _f64p, _i32p, _i32p, _u8p, _i32p, _i32p, _i32p,
                 _i64p, _i64p, _i64p, _i32p, _i32p], ctypes.c_int32),
    "rp_observe_prompt": ([ctypes.c_void_p, _i32p, ctypes.c_int64, _i32, _i32, _i32p, _i32p, _i32p],
                          ctypes.c_int32),
    "rp_free": ([ctypes.c_void_p], None),
    "rp_step": ([ctypes.c_void_p, ctypes.c_int32, _i32p, ctypes.c_int32, _i64p, _f32p], ctypes.c_int32),
    "rp_step_all": ([ctypes.c_void_p, _i32p], ctypes.c_int32),
    "rp_engine_step": ([ctypes.c_void_p, ctypes.c_void_p, _i32p, _i32p, _i32p], ctypes.c_int32),
    "rp_restore_layer": ([ctypes.c_void_p, ctypes.c_int32, _i32p, ctypes.c_int32, _i32p, _i32p],
                         ctypes.c_int32),
    "rp_out_cap": ([ctypes.c_void_p], ctypes.c_int32),
    "rp_map_entries": ([ctypes.c_void_p], ctypes.c_int64),
}
# rotary_policy.h's codes by name; their values come from the library (rp_abi) when it loads.
ERROR_TEXT = {"RP_E_ARGS": "bad arguments",
              "RP_E_ORDER": "a token must start with layer 0",
              "RP_E_ID": "an expert id is out of range", "RP_E_NOMEM": "out of memory",
              "RP_E_NO_VICTIM": "no slot can be emptied (every resident is wanted)",
              "RP_E_UNBOUND": "the policy is closed"}
FAILED_CALL = {"RP_FAILED_NONE": None, "RP_FAILED_READ": "read_routing",
               "RP_FAILED_UPLOAD": "upload", "RP_FAILED_STAGE": "stage",
               "RP_FAILED_COMMIT": "commit"}
CODES: dict[str, int] = {}        # name → value, as the loaded library has them
ERRORS: dict[int, str] = {}       # status → ERROR_TEXT
FAILED: dict[int, str | None] = {}   # rp_engine_step's *failed → the libllama call


@functools.lru_cache(maxsize=1)
def library() -> ctypes.CDLL | None:
    """The compiled step with its signatures, or None (logged once) where it can't be built.
    Raises NativeAbiError when the library and this module's mirrors disagree."""
    lib = load_library("rotary_policy")
    if lib is None:
        log.warning("the native rotary policy could not be built; the Python one runs instead")
        return None
    _check_abi(lib)
    for name, (argtypes, restype) in _SIGNATURES.items():
        function = getattr(lib, name)
        function.argtypes, function.restype = argtypes, restype
    return lib


def _check_abi(lib: ctypes.CDLL) -> None:
    """_Engine and the codes above against rotary_policy.h, as the library was compiled."""
    table = read_table(lib, "rp_abi", "engine/native/csrc/rotary_policy.h")
    check_struct(table, "rp_engine", _Engine)
    errors = check_codes(table, "RP_E_", ERROR_TEXT)
    failed = check_codes(table, "RP_FAILED_", FAILED_CALL)
    CODES.update(table.codes)
    ERRORS.update({value: ERROR_TEXT[name] for value, name in errors.items()})
    FAILED.update({value: FAILED_CALL[name] for value, name in failed.items()})


def available() -> bool:
    return library() is not None


def _ptr(array: np.ndarray, kind):
    return array.ctypes.data_as(kind)


class NativeSlotTable:
    """One layer's SlotTable read from the native policy's arrays (owned by numpy here).

    ``expert_in``/``slot_of`` are lists taken when read, as SlotTable's are compared with lists;
    ``ring``/``lookup`` are the live int32 views the engine stages from."""

    __slots__ = ("ring", "lookup", "_next_free", "_layer")

    def __init__(self, ring: np.ndarray, lookup: np.ndarray, next_free: np.ndarray, layer: int) -> None:
        self.ring, self.lookup = ring, lookup              # [n_slots], [n_expert] int32
        self._next_free, self._layer = next_free, layer

    @property
    def expert_in(self) -> list[int]:
        return self.ring.tolist()

    @property
    def slot_of(self) -> list[int]:
        return self.lookup.tolist()

    @property
    def free(self) -> list[int]:
        """SlotTable's stack: the free slots are the highest ones, the lowest popped first."""
        return list(range(self.n_slots - 1, int(self._next_free[self._layer]) - 1, -1))

    @property
    def n_slots(self) -> int:
        return len(self.ring)

    def resident(self) -> list[int]:
        return [e for e in self.ring.tolist() if e != FREE]

    def check(self) -> None:
        """Raise AssertionError when table and ring disagree (used by tests)."""
        ring, lookup = self.ring.tolist(), self.lookup.tolist()
        for slot, expert in enumerate(ring):
            assert expert == FREE or lookup[expert] == slot, (slot, expert)
        for expert, slot in enumerate(lookup):
            assert slot == FREE or ring[slot] == expert, (expert, slot)
        assert sorted(self.free) == [s for s, e in enumerate(ring) if e == FREE]


class _Engine(ctypes.Structure):
    """rotary_policy.c's rp_engine: the libllama calls one engine step makes."""

    CALLS = ("read_routing", "upload", "stage", "commit")    # rp_engine's function pointers
    _fields_ = [*((name, ctypes.c_void_p) for name in CALLS),
                ("ctx", ctypes.c_void_p), ("model_layer", _i32p)]


class SlotStepError(RuntimeError):
    """A libllama slot-cache call inside the engine step failed: ``call`` and its ``status``."""

    def __init__(self, call: str, status: int) -> None:
        super().__init__(f"llama_slot_cache_{call} returned {status}")
        self.call, self.status = call, status


class AllLayers:
    """What ``after_token_all`` decided for every layer: views, overwritten by the next call.

    hits/misses/n_uploads/n_evictions int32 [layers]; upload_expert/upload_slot and
    eviction_expert/eviction_slot int32 [layers, out_cap] (the first n of each row count)."""

    def __init__(self, counts: np.ndarray, moves: np.ndarray) -> None:
        self.hits, self.misses, self.n_uploads, self.n_evictions = counts     # [4, layers]
        self.upload_expert, self.upload_slot, self.eviction_expert, self.eviction_slot = moves
        self.total_uploads = 0


class NativeRotaryPolicy(ResidencyPolicy):
    """RotaryPolicy's state and step in C; owns its handle (``close()``, or when collected)."""

    name = "rotary"

    def __init__(self, budget, n_expert, k, config: RotaryConfig | None = None, **options) -> None:
        super().__init__(budget, n_expert, k, **options)      # checks the budget and options
        lib = library()
        if lib is None:
            raise RuntimeError("the native rotary policy is not built")
        self._lib: ctypes.CDLL = lib
        self.cfg = cfg = config or RotaryConfig()
        growth, fade, rules = _constants(cfg)
        slots = np.asarray(budget.slots, dtype=np.int32)
        handle = lib.rp_new(self.budget.n_layers, n_expert, k, _ptr(slots, _i32p), self.upload_cap,
                            cfg.order, cfg.horizon, cfg.memory, int(cfg.layer_match), len(growth),
                            _ptr(growth, _f64p), fade, cfg.pool / self.budget.n_layers,
                            rules.shape[1], _ptr(rules[0], _i32p),
                            _ptr(rules[1], _i32p))
        if not handle:
            raise ValueError(f"the native rotary policy refused {cfg} with slots {budget.slots}")
        self._handle = handle
        self.rules = cfg.candidates()
        self._bind(slots, lib.rp_out_cap(handle), len(growth))

    def _bind(self, slots: np.ndarray, out_cap: int, n_half: int) -> None:
        n_layers, n_expert, n_rules = len(slots), self.n_expert, len(self.rules)
        self.score = np.zeros((n_layers, n_half, n_expert), dtype=np.float64)   # decayed uses x boost
        self.boost = np.ones((n_layers, n_half), dtype=np.float64)
        self.tally = np.zeros((n_layers, n_rules), dtype=np.float64)
        self.rule, self.base = np.zeros(n_layers, np.int32), np.zeros(n_layers, np.int32)
        self.member = np.zeros((n_layers, n_rules, n_expert), dtype=np.uint8)  # the shadows
        self._slot_of = np.full((n_layers, n_expert), FREE, dtype=np.int32)
        self._expert_in = np.full(int(slots.sum()), FREE, dtype=np.int32)  # rings, layer after layer
        self._next_free = np.zeros(n_layers, np.int32)
        self.clock, self.start = np.zeros(n_layers, np.int64), np.full(n_layers, -1, np.int64)
        self._token_match = np.array([-1, -1], dtype=np.int64)
        self._counts = np.zeros((4, n_layers), dtype=np.int32)
        self._moves = np.zeros((4, n_layers, out_cap), dtype=np.int32)     # C's row stride
        status = self._lib.rp_bind(
            self._handle, _ptr(self.score, _f64p), _ptr(self.boost, _f64p), _ptr(self.tally, _f64p),
            _ptr(self.rule, _i32p), _ptr(self.base, _i32p), _ptr(self.member, _u8p),
            _ptr(self._slot_of, _i32p), _ptr(self._expert_in, _i32p), _ptr(self._next_free, _i32p),
            _ptr(self.clock, _i64p), _ptr(self.start, _i64p), _ptr(self._token_match, _i64p),
            _ptr(self._counts, _i32p), _ptr(self._moves, _i32p))
        self._raise(status)
        self._prompt_out = np.zeros((3, int(slots.sum())), dtype=np.int32)
        offsets = np.concatenate([[0], np.cumsum(slots)])
        self.tables = [NativeSlotTable(self._expert_in[a:b], self._slot_of[j], self._next_free, j)
                       for j, (a, b) in enumerate(zip(offsets[:-1], offsets[1:]))]
        self._all = AllLayers(self._counts, self._moves)
        # The per-layer path's buffers: ctypes and memoryviews index and fill faster than numpy.
        self._ids_buffer = (ctypes.c_int32 * self.k)()
        self._counts_view = self._counts.data.cast("B").cast("i")      # [4 * layers]
        self._moves_view = self._moves.data.cast("B").cast("i")        # [4 * layers * row]
        self._row = self._moves.shape[2]
        self._step = self._lib.rp_step
        self._restore_out = np.zeros((2, max(1, int(slots.max()))), dtype=np.int32)
        self._batch_ids: tuple[np.ndarray | None, object] = (None, None)

    def shadows(self, layer: int) -> list[set[int]]:
        """Each rule's shadow set of ``layer`` (RotaryPolicy.shadow's)."""
        return [set(np.flatnonzero(row).tolist()) for row in self.member[layer]]

    @property
    def token(self) -> int:
        return int(self._token_match[0])

    @property
    def match(self) -> int:
        return int(self._token_match[1])

    # -- steps ------------------------------------------------------------------------------
    def after_token(self, layer: int, routed_ids, probs=None) -> Decision:
        """Count token t against the published tables, then stage the uploads for t + 1."""
        ids = routed_ids.tolist() if hasattr(routed_ids, "tolist") else list(routed_ids)
        if len(ids) != self.k:
            raise ValueError(f"the native rotary policy takes {self.k} ids per call, got {len(ids)}")
        self._ids_buffer[:] = ids
        if probs is None:
            got = self._step(self._handle, layer, self._ids_buffer, 0, None, None)
        else:                 # the same best scores as the reference; C computes the shares
            scores, top = near_miss_top(probs, self.k, self.cfg.near_miss or 2 * self.k)
            scores, top = np.ascontiguousarray(scores), np.ascontiguousarray(top, dtype=np.int64)
            got = self._step(self._handle, layer, self._ids_buffer, len(top), _ptr(top, _i64p),
                             _ptr(scores, _f32p))
        if got < 0:
            self._raise(got)
        counts, moves, n_layers, row = self._counts_view, self._moves_view, self.budget.n_layers, self._row
        hits, misses, n_ev = counts[layer], counts[n_layers + layer], counts[3 * n_layers + layer]
        at = layer * row
        uploads = [(moves[at + i], moves[n_layers * row + at + i]) for i in range(got)] if got else []
        at += 2 * n_layers * row
        evictions = [(moves[at + i], moves[n_layers * row + at + i]) for i in range(n_ev)] if n_ev else []
        return Decision(layer, hits, misses, uploads, evictions)

    def after_token_all(self, ids: np.ndarray) -> AllLayers:
        """Every layer of one token in one call: ids int32 [layers, k], C-contiguous."""
        cached, pointer = self._batch_ids
        if ids is not cached:                  # the engine passes the same buffer every token
            if ids.dtype != np.int32 or ids.shape != (self.budget.n_layers, self.k) \
                    or not ids.flags.c_contiguous:
                raise ValueError("after_token_all takes int32 ids [layers, k], C-contiguous")
            pointer = _ptr(ids, _i32p)
            self._batch_ids = (ids, pointer)
        got = self._lib.rp_step_all(self._handle, pointer)
        self._raise(got)
        self._all.total_uploads = got
        return self._all

    def rings(self) -> list[np.ndarray]:
        return [table.ring for table in self.tables]     # [layer] [n_slots] int32 views

    def engine_step(self, functions: dict, ctx, model_layers, ids: np.ndarray):
        """A callable for the engine, one per decoded token: reads the step's routing into ids
        int32 [layers, k], decides every layer, uploads and stages the layers that changed and
        publishes, all in C. ``functions``: the addresses of libllama's
        llama_slot_cache_{read_routing, upload, stage, commit}. The callable returns
        (read status, AllLayers) (status <= 0: no decode step), or raises SlotStepError."""
        if ids.dtype != np.int32 or ids.shape != (self.budget.n_layers, self.k) \
                or not ids.flags.c_contiguous:
            raise ValueError("engine_step takes int32 ids [layers, k], C-contiguous")
        layers = (ctypes.c_int32 * len(model_layers))(*model_layers)
        engine = _Engine(*(functions[name] for name in _Engine.CALLS), ctx, layers)
        status, failed = ctypes.c_int32(), ctypes.c_int32()
        args = (self._handle, ctypes.byref(engine), _ptr(ids, _i32p), ctypes.byref(status),
                ctypes.byref(failed))
        function = self._lib.rp_engine_step

        def step():
            got = function(*args)
            if failed.value:
                raise SlotStepError(str(FAILED[failed.value]), got)
            if got < 0:
                self._raise(got)
            self._all.total_uploads = got
            return status.value, self._all
        step.buffers = (ids, layers, engine, status, failed)  # type: ignore[attr-defined] # kept alive
        return step

    def _victim(self, layer: int, protected) -> int:
        raise NotImplementedError("the native policy chooses its victims in C")

    def prefetch_predicted(self, layer: int, predicted: list[int]) -> list:
        raise NotImplementedError("the C step does not count prefetches against its cap: "
                                  "predicted prefetch runs on make_policy(..., native=False)")

    def observe_prompt(self, routing) -> list:
        """RotaryPolicy.observe_prompt in one C call."""
        routing = np.ascontiguousarray(check_prompt(routing, self.budget.n_layers, self.k,
                                                    self.n_expert), dtype=np.int32)
        out = self._prompt_out
        got = self._lib.rp_observe_prompt(self._handle, _ptr(routing, _i32p), len(routing),
                                          self.cfg.prompt_learn, self.cfg.prompt_feed,
                                          _ptr(out[0], _i32p), _ptr(out[1], _i32p), _ptr(out[2], _i32p))
        self._raise(got)
        return list(zip(*out[:, :got].tolist()))

    def _raise(self, status: int) -> None:
        if status < 0:
            raise RuntimeError(f"native rotary policy: {ERRORS.get(status, status)}")

    # -- conversations ------------------------------------------------------------------------
    def _restore_layer(self, layer: int, wanted: list[int]) -> list:
        want = np.asarray(wanted, dtype=np.int32)
        out = self._restore_out
        n = self._lib.rp_restore_layer(self._handle, layer, _ptr(want, _i32p), len(want),
                                       _ptr(out[0], _i32p), _ptr(out[1], _i32p))
        if n == CODES["RP_E_NO_VICTIM"]:
            raise IndexError("no slot can be emptied for the snapshot (every resident is wanted)")
        self._raise(n)
        return [(layer, e, s) for e, s in zip(out[0, :n].tolist(), out[1, :n].tolist())]

    def map_entries(self) -> int:
        """Entries in the context maps (tests: memory stays bounded)."""
        return int(self._lib.rp_map_entries(self._handle))

    # -- the handle ------------------------------------------------------------------------------
    def close(self) -> None:
        """Free the C state; the tables (numpy arrays) stay readable, steps raise."""
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            self._lib.rp_free(handle)

    def __del__(self) -> None:
        self.close()


def _constants(cfg: RotaryConfig) -> tuple[np.ndarray, float, np.ndarray]:
    """growth float64 [half-lives], the tally's fade, rules int32 [(half, admission), rules]:
    computed as RotaryPolicy computes them, so that C uses the very same numbers."""
    growth = np.array([1.0 if h == NEVER else 2.0 ** (1.0 / h) for h in cfg.half_lives], dtype=np.float64)
    fade = 2.0 ** (-1.0 / cfg.window)
    rules = np.array(cfg.candidates(), dtype=np.int32).reshape(-1, 2)
    return growth, fade, np.ascontiguousarray(rules.T)


def make_native(budget, n_expert, k, config: RotaryConfig | None = None, **options):
    """The native policy, or None (the caller uses Python) when the library is unavailable or
    the model is beyond its sizes (ids are kept as 16-bit, at most 256 routed per token)."""
    if not available() or n_expert > 65535 or k > 256:
        return None
    return NativeRotaryPolicy(budget, n_expert, k, config, **options)


