"""``NativeModel``: one loaded llama.cpp model and context, owned and closed deterministically.

Built on llama-cpp-python's owning wrappers (``_internals``) rather than its ``Llama``
facade, because the facade cannot pass tensor buffer-type overrides or ``cb_eval``.
Only the engine thread may call into a NativeModel.
"""

from __future__ import annotations

import ctypes
import logging
import os
import time
from contextlib import ExitStack, closing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

from gguf import GGMLQuantizationType

from engine.errors import BudgetError, InsufficientMemoryError, ModelLoadError
from engine.messages import msg
from engine.runtime.bindings import (OverrideArray, PlacementReport, cpu_buffer_type,
                                    gpu_device, gpu_host_buffer_type, has_gpu_device, llama_cpp_module,
                                    looks_like_memory_failure, native_log)
from engine.recipe import Recipe
from engine.runtime.experts import slot_cache
from engine.runtime.experts.routing import NativeRoutingRecorder, RoutingRecorder

if TYPE_CHECKING:                  # llama_cpp itself is imported when a model is opened
    from llama_cpp._internals import LlamaSampler

log = logging.getLogger("rotary.llama")
# Recipe kv_type -> ggml_type id, from gguf's copy of ggml's enum (not restated by hand).
KV_TYPES = {name: int(GGMLQuantizationType[name.upper()]) for name in ("f16", "q8_0", "q4_0")}
ProgressCallback = Callable[[float], bool]      # return False to abort loading


@dataclass(frozen=True)
class Sampling:
    temperature: float = 0.7
    top_p: float = 0.95
    top_k: int = 40
    seed: int = -1
    min_p: float = 0.0      # 0: no min-p cut (llama.cpp's sampler is skipped)


class NativeModel:
    """Owns model, context, batch and sampler; ``close()`` frees them in order."""

    def __init__(self, path: str, recipe: Recipe, recorder: RoutingRecorder | NativeRoutingRecorder | None = None,
                 progress: ProgressCallback | None = None) -> None:
        self.path, self.recipe, self.recorder = path, recipe, recorder
        self._stack = ExitStack()
        self.slot_banks_on_gpu = False
        self._sampler: LlamaSampler | None = None
        self._piece = ctypes.create_string_buffer(64)
        self._owned: dict[str, object] = {}
        self._llama = llama_cpp_module()
        from llama_cpp import _internals  # noqa: PLC0415 - llama_cpp only when a model opens

        self._internals = _internals
        mark = native_log().mark()
        try:
            self._load(progress)
        except (BudgetError, InsufficientMemoryError):
            self.close()
            raise                      # already in plain words (the loader steps down on memory)
        except Exception as error:
            self.close()
            raise _load_error(error, native_log().since(mark), path) from error
        self.load_log = native_log().since(mark)   # its buffer sizes say where the model is
        self.placement = PlacementReport.from_log(self.load_log)
        self.tokens: list[int] = []   # what the context's memory currently holds
        self.last_residency = None    # TokenResidency of the last single-token decode
        # Called before each generated token's decode: where a measuring tool steers the step
        # (tools/routing_replay.py forces the routing through the slot cache).
        self.before_step: Callable[[], None] | None = None
        self.decode_s = 0.0

    def _load(self, progress: ProgressCallback | None) -> None:
        self._overrides = OverrideArray(self.recipe.override_patterns(), self._expert_buffer_type())
        self._progress = _progress_callback(self._llama, progress)
        model_params = self._model_params()
        self.model = self._stack.enter_context(_closing(self._internals.LlamaModel(
            path_model=self.path, params=model_params, verbose=True)))
        self.ctx = self._stack.enter_context(_closing(self._internals.LlamaContext(
            model=self.model, params=self._context_params(), verbose=True)))
        self.batch = self._stack.enter_context(_closing(self._internals.LlamaBatch(
            n_tokens=self.recipe.n_batch, embd=0, n_seq_max=1, verbose=True)))
        self.n_ctx = self.ctx.n_ctx()
        self.n_vocab = self.model.n_vocab()
        self.slot_cache, self.slot_cache_note = self._open_slot_cache()

    def _expert_buffer_type(self) -> int:
        """Where RAM-resident experts live: page-locked memory when the recipe asks for it and
        the GPU offers it (uploads and prompt batches then copy them by DMA), else plain RAM."""
        if self.recipe.pinned_experts and not self.recipe.use_mmap and has_gpu_device():
            return gpu_host_buffer_type() or cpu_buffer_type()
        return cpu_buffer_type()

    def _open_slot_cache(self):
        """The expert slot cache the recipe asks for, closed before the context; or a note why not."""
        if not self.recipe.slot_layers:
            return None, None
        if not slot_cache.available():
            return None, slot_cache.STOCK_MESSAGE
        n_expert, k = _expert_counts(self.model.metadata())
        self.slot_banks_on_gpu = self.recipe.n_gpu_layers != 0 and has_gpu_device()
        try:
            cache = slot_cache.SlotCache.open(
                self.ctx.ctx, self.model.model, self.recipe, n_expert, k,
                gpu_banks=self.slot_banks_on_gpu,
                pinned_weights=self._expert_buffer_type() != cpu_buffer_type())
        except slot_cache.SlotCacheError as error:
            if error.status == slot_cache.E_ALLOC:   # the loader steps down: fewer slots, then stock
                raise InsufficientMemoryError(msg("runtime.no_memory_for_slots"),
                                              str(error)) from error
            log.warning("slot cache not set up: %s", error)
            return None, msg("runtime.slots_not_set_up")
        return self._stack.enter_context(_closing(cache)), None

    def _model_params(self):
        params = self._llama.llama_model_default_params()
        params.n_gpu_layers = self.recipe.n_gpu_layers
        if not self.recipe.use_mmap:
            params.load_mode = self._llama.LLAMA_LOAD_MODE_NONE
        if self.recipe.cpu_expert_layers:
            params.tensor_buft_overrides = self._overrides.pointer
        if self.recipe.slot_layers:
            params.use_extra_bufts = False   # slots are copied from plain (not repacked) expert rows
        # The chosen device only (the plan is for it; llama.cpp would otherwise split the model
        # over every GPU it sees). None at all: no GPU, not even for prompt batches.
        device = gpu_device() if self.recipe.n_gpu_layers != 0 else None
        self._devices = (ctypes.c_void_p * 2)(device, None)
        params.devices = ctypes.addressof(self._devices)
        params.progress_callback = self._progress
        return params

    def _context_params(self):
        recipe, params = self.recipe, self._llama.llama_context_default_params()
        params.n_ctx, params.n_batch, params.n_ubatch = recipe.n_ctx, recipe.n_batch, recipe.n_ubatch
        params.n_threads, params.n_threads_batch = recipe.n_threads, recipe.n_threads_batch
        params.flash_attn_type = (self._llama.LLAMA_FLASH_ATTN_TYPE_ENABLED if recipe.flash_attn
                                  else self._llama.LLAMA_FLASH_ATTN_TYPE_DISABLED)
        params.type_k = params.type_v = KV_TYPES[recipe.kv_type]
        params.no_perf = False
        params.op_offload = recipe.n_gpu_layers != 0
        # Only the last token's logits are ever read: the compute buffer then holds one row of
        # logits instead of n_ubatch (for a 248k vocabulary, ~1 GB less VRAM at n_ubatch 1024).
        params.n_outputs_max = 1
        if self.recorder is not None:
            params.cb_eval = self.recorder.callback
            params.cb_eval_user_data = getattr(self.recorder, "user_data", None)
        return params

    # ---- tokens ------------------------------------------------------------------------

    def tokenize(self, text: str, special: bool = True) -> list[int]:
        return self.model.tokenize(text.encode("utf-8"), add_bos=False, special=special)

    def token_bytes(self, token: int, special: bool = False) -> bytes:
        """The token's text; control tokens are empty unless ``special`` (the reply parser
        reads them as markers: "<think>", "<|channel|>", "<start_of_turn>")."""
        size = self._llama.llama_token_to_piece(self.model.vocab, token, self._piece, 64, 0,
                                                special)
        if size < 0:   # the piece is longer than the buffer: grow it once and retry
            self._piece = ctypes.create_string_buffer(-size)
            size = self._llama.llama_token_to_piece(self.model.vocab, token, self._piece,
                                                    -size, 0, special)
        return self._piece.raw[:size]

    def is_control(self, token: int) -> bool:
        """A control token: never text of an answer by itself. (User-defined tokens such as
        Qwen's "<think>" are text already; the reply parser knows the markers among them.)"""
        llama = self._llama
        attr = llama.llama_vocab_get_attr(self.model.vocab, token)
        return bool(attr & llama.LLAMA_TOKEN_ATTR_CONTROL)

    def is_end_of_generation(self, token: int) -> bool:
        return bool(self._llama.llama_vocab_is_eog(self.model.vocab, token))

    def metadata(self) -> dict[str, str]:
        return self.model.metadata()

    # ---- evaluation --------------------------------------------------------------------

    def reuse_prefix(self, tokens: list[int]) -> int:
        """Keep the longest cached prefix of ``tokens``; returns how many are kept."""
        keep = common_prefix(self.tokens, tokens)
        keep = min(keep, len(tokens) - 1)        # always evaluate at least one token
        if keep < len(self.tokens) and not self._truncate(keep):
            keep = 0                               # recurrent models can't cut: start over
            self.ctx.kv_cache_clear()
        self.tokens = self.tokens[:keep]
        return keep

    def _truncate(self, keep: int) -> bool:
        return bool(self._llama.llama_memory_seq_rm(self.ctx.memory, 0, keep, -1))

    # ---- the sequence's state (engine/runtime/conversation/conversation_memory.py) ----------------------

    @property
    def recurrent(self) -> bool:
        """A recurrent or hybrid model (Gated DeltaNet, Mamba): its state cannot be cut back
        to an earlier token; only a checkpoint taken there brings that point back."""
        llama, model = self._llama, self.model.model
        return bool(llama.llama_model_is_recurrent(model) or llama.llama_model_is_hybrid(model))

    def get_state(self, partial: bool = False) -> bytes:
        """The sequence's state as llama.cpp serialises it; ``partial``: only the part that
        cannot be cut (recurrent state, sliding-window KV), the size of a checkpoint."""
        llama, flags = self._llama, self._state_flags(partial)
        size = llama.llama_state_seq_get_size_ext(self.ctx.ctx, 0, flags)
        buffer = (ctypes.c_uint8 * size)()
        written = llama.llama_state_seq_get_data_ext(self.ctx.ctx, buffer, size, 0, flags)
        return ctypes.string_at(buffer, written)

    def set_state(self, data: bytes, tokens: list[int] | None = None,
                  partial: bool = False) -> bool:
        """Put a state from get_state back; ``tokens``: what a whole state holds (a partial
        one leaves ``self.tokens`` to the caller, who cuts the KV after it). False: refused."""
        llama = self._llama
        source = ctypes.cast(ctypes.c_char_p(data), ctypes.POINTER(ctypes.c_uint8))
        read = llama.llama_state_seq_set_data_ext(self.ctx.ctx, source, len(data), 0,
                                                  self._state_flags(partial))
        if read != len(data):
            self.clear()
            return False
        if tokens is not None:
            self.tokens = list(tokens)
        return True

    def cut(self, keep: int) -> bool:
        """Drop what the context holds after its first ``keep`` tokens; False where the
        memory cannot be cut there (a recurrent state not restored to ``keep``)."""
        if not self._truncate(keep):
            return False
        self.tokens = self.tokens[:keep]
        return True

    def clear(self) -> None:
        self.ctx.kv_cache_clear()
        self.tokens = []

    def _state_flags(self, partial: bool) -> int:
        return self._llama.LLAMA_STATE_SEQ_FLAGS_PARTIAL_ONLY if partial else 0

    def decode(self, tokens: list[int], step: bool = False) -> None:
        """Evaluate ``tokens`` after what the context holds (one batch, ≤ n_batch).

        ``step``: a generated token (not prompt text); the residency policy runs after it.
        """
        if step and self.before_step is not None:
            self.before_step()
        self.batch.set_batch(tokens, n_past=len(self.tokens), logits_all=False)
        started = time.perf_counter()
        status = self._llama.llama_decode(self.ctx.ctx, self.batch.batch)
        self.decode_s = time.perf_counter() - started     # host time in llama_decode (benchmarks)
        if status != 0:
            raise RuntimeError(f"llama_decode returned {status}")
        self.tokens.extend(tokens)
        # Residency is decided after decode steps only; prompt batches never evict.
        if self.slot_cache is not None and step and len(tokens) == 1:
            self.last_residency = self.slot_cache.after_token()
        else:
            self.last_residency = None

    def after_prompt(self) -> None:
        """The prompt is read: the slot cache's policy sees its routing before the first token."""
        if self.slot_cache is not None:
            self.slot_cache.warm_start()

    def set_sampling(self, sampling: Sampling) -> None:
        sampler = self._internals.LlamaSampler()
        if sampling.temperature <= 0:
            sampler.add_greedy()
        else:
            if sampling.top_k > 0:             # 0: no top-k cut (gpt-oss's default)
                sampler.add_top_k(sampling.top_k)
            sampler.add_top_p(sampling.top_p, 1)
            if sampling.min_p > 0:             # llama.cpp's order: top-k, top-p, min-p, temp
                sampler.add_min_p(sampling.min_p, 1)
            sampler.add_temp(sampling.temperature)
            seed = sampling.seed if sampling.seed >= 0 else int.from_bytes(os.urandom(4), "little")
            sampler.add_dist(seed)
        self._close_sampler()
        self._sampler = sampler

    def sample(self) -> int:
        # llama_sampler_sample already accepts the token into the chain's state.
        assert self._sampler is not None, "sample() before start()"
        return self._llama.llama_sampler_sample(self._sampler.sampler, self.ctx.ctx, -1)

    def _close_sampler(self) -> None:
        if self._sampler is not None:
            self._sampler.close()
            self._sampler = None

    def owned(self, key: str, make: Callable[[], Any]) -> object:
        """A helper that lives exactly as long as the model (the chat layer's parsed template):
        made on first use, closed with the model. ``make`` returning None is remembered too."""
        if key not in self._owned:
            thing = make()
            if thing is not None:
                self._stack.callback(thing.close)
            self._owned[key] = thing
        return self._owned[key]

    def close(self) -> None:
        self._close_sampler()
        self._stack.close()
        self._owned.clear()


def _closing(owner):
    """ExitStack helper: llama-cpp-python's wrappers have close() but no __exit__."""
    return closing(owner)


def _expert_counts(metadata: dict[str, str]) -> tuple[int, int]:
    arch = metadata.get("general.architecture", "")
    try:
        return int(metadata[f"{arch}.expert_count"]), int(metadata[f"{arch}.expert_used_count"])
    except (KeyError, ValueError) as error:
        raise ModelLoadError(msg("runtime.no_experts_for_slots"), str(error)) from error


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """How many tokens two sequences share from the start."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _progress_callback(llama, progress: ProgressCallback | None):
    if progress is None:
        return llama.llama_progress_callback(0)
    return llama.llama_progress_callback(lambda value, _data: bool(progress(float(value))))


def _load_error(error: Exception, log_lines: list[str], path: str) -> Exception:
    details = f"{type(error).__name__}: {error}\n" + "\n".join(log_lines[-30:])
    if looks_like_memory_failure(log_lines):
        return InsufficientMemoryError(msg("runtime.not_enough_memory_to_load"), details)
    return ModelLoadError(msg("runtime.model_not_loaded", name=os.path.basename(path)), details)

