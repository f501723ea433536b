"""CUDA or Vulkan on the same card: measured once per card and model family, then remembered.

Reports disagree on which back-end is faster on an NVIDIA card (Vulkan ahead on one MoE
model, CUDA on a dense one, Vulkan ten times slower on a third), so where two installed
variants list the card the load chose (``backends.select()``'s rule: CUDA first), the load
measures them before llama_cpp is imported: one child process per variant (a process can load
only one variant's libraries) loads the model with the plan's layout, reads a short prompt
and writes ``PROBE_TOKENS`` tokens (engine/runtime/backend_probe_child.py). The variant with
the most decode tokens per second wins; the rule's choice stays unless another is more than
``NOISE`` (10%) faster. The result is kept in the user cache beside the device list
(``backend-probe.json``), keyed by the card, the variants' keys (a rebuilt variant is measured
again) and the model family (``model_family``), so later loads use it without probing.

A process holds one variant: when a later load in the same process (another model family)
prefers the other variant, it runs on the loaded one, and the log says the measured choice is
used when the app next starts with that model. A failing probe never blocks the load: a
variant whose child failed is not chosen, and when all fail the rule stands (logged; the
probe is tried again at the next load, at most ``MAX_ATTEMPTS`` times).

Same card: the PCI bus id where both back-ends give one (CUDA and Vulkan write
"0000:01:00.0"), else the same description and total memory within ``MEMORY_MARGIN``
(CUDA counts a little less than the Vulkan heap on one card; two models of one card name
differ by a third or more).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from engine.api import LoadRequest
from engine.messages import Msg, msg
from engine.model.facts import ModelFacts
from engine.native import backends
from engine.native.backends import Device, Selection, Variant
from engine.recipe import recipe_to_dict

log = logging.getLogger("rotary.backends")

PROBE_TOKENS = 16                 # decode tokens a probe writes (the first is not timed)
PROBE_PROMPT = "Write a short paragraph about the history of lighthouses."
CHILD_TIMEOUT_S = 300.0           # a first load of a 20 GB model from disk, twice over
MEMORY_FILE = "backend-probe.json"   # beside devices.json in the user cache
MEMORY_VERSION = 1
MAX_ATTEMPTS = 2                  # failed probes before the rule is kept without asking
# Two identical copies of one Vulkan folder on lavapipe (a busy 2-core machine) measured 7.3
# and 7.9 tokens/s in one run: 16 tokens do not tell apart less than ~10%; the reported
# CUDA/Vulkan differences are 16% and more.
NOISE = 0.10                      # the rule's choice stays unless another is 10% faster
MEMORY_MARGIN = 0.10              # total memory of one card as two back-ends count it
SWITCH_ENV = "ROTARY_BACKEND_PROBE"   # "0": no probe, the rule (the probe's own children)
CALIBRATION_SWITCH_ENV = "ROTARY_CPU_CALIBRATION"   # engine/runtime/devices/cpu_calibration.py
PROBE_FLAG = "--rotary-probe-backend"  # the frozen app runs the probe child with it
PROGRESS_AT = 0.02                # on the load's progress bar, after the file check

Progress = Callable[[float, Msg], None]


@dataclass(frozen=True)
class ProbeResult:
    """One variant's measured run on the card (``error``: why it did not run)."""

    variant: Variant
    device: Device
    decode_tps: float = 0.0
    prompt_tps: float = 0.0
    seconds: float = 0.0          # the whole child: load, prompt, tokens
    error: str = ""

    @property
    def ok(self) -> bool:
        return not self.error and self.decode_tps > 0


Runner = Callable[[Variant, Device, LoadRequest], ProbeResult]


# ---- which variants serve the same card ---------------------------------------------------

def same_card(a: Device, b: Device) -> bool:
    if a.device_id and b.device_id:
        return a.device_id == b.device_id
    larger = max(a.total_bytes, b.total_bytes, 1)
    return (" ".join(a.description.casefold().split()) == " ".join(b.description.casefold().split())
            and abs(a.total_bytes - b.total_bytes) <= MEMORY_MARGIN * larger)


def rivals(selection: Selection) -> tuple[tuple[Variant, Device], ...]:
    """The chosen (variant, device) first, then one device of every other variant that lists
    the same card; a variant whose listing failed is left out."""
    chosen = selection.device
    if chosen is None:
        return ()
    found = [(selection.variant, chosen)]
    for item in selection.listing:
        if item.variant == selection.variant or item.error:
            continue
        match = next((d for d in item.devices
                      if d.kind == chosen.kind and same_card(d, chosen)), None)
        if match is not None:
            found.append((item.variant, match))
    return tuple(found)


def model_family(facts: ModelFacts) -> str:
    """What the measured winner is remembered for: the GGUF architecture, the expert count and
    the model's width (one member of a family: a 30B and a 235B qwen3moe share 128 experts but
    not the layout the plan gives them), and the main weight type (CUDA and Vulkan have
    separate kernels per quantisation). Fine-tunes of one model share it."""
    return (f"{facts.architecture} experts={facts.n_expert} width={facts.n_embd} "
            f"type={facts.file_type or '?'}")


def memory_key(found: tuple[tuple[Variant, Device], ...], family: str) -> str:
    cards = sorted({f"{d.description.casefold()} {d.device_id}" for _, d in found})
    variants = sorted(f"{v.name}:{v.key}:{v.folder}" for v, _ in found)
    text = json.dumps({"v": MEMORY_VERSION, "cards": cards, "variants": variants,
                       "family": family}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


# ---- the hook in the load path -------------------------------------------------------------

def prefer(facts: ModelFacts, request: LoadRequest, progress: Progress, *,
           selection: Selection | None = None, runner: Runner | None = None,
           memory: Path | None = None) -> Selection | None:
    """Before llama_cpp loads (engine/runtime/loader.py): where several variants serve the
    chosen card, run the remembered or measured fastest. Returns the selection that stands
    (None: nothing to decide). Never raises: the rule's choice is the fallback."""
    if os.environ.get(SWITCH_ENV, "").strip() == "0":
        return None
    try:
        selection = selection or backends.select()
        found = rivals(selection) if not selection.asked else ()
        if len(found) < 2:
            return selection
        return _decide(selection, found, facts, request, progress, runner or run_child,
                       memory or memory_path())
    except Exception:  # the probe is an optimisation: the load goes on with the rule's choice
        log.warning("the back-end probe failed; the rule's choice stands", exc_info=True)
        return selection


def _decide(selection: Selection, found: tuple[tuple[Variant, Device], ...], facts: ModelFacts,
            request: LoadRequest, progress: Progress, runner: Runner, memory: Path) -> Selection:
    family = model_family(facts)
    key = memory_key(found, family)
    entry = _read(memory).get(key)
    winner = _remembered(entry, found)
    if winner is None and _worth_probing(entry):
        progress(PROGRESS_AT, msg("runtime.finding_faster_backend"))
        results = tuple(_run_one(runner, variant, device, request) for variant, device in found)
        winner = fastest(results)
        _remember(memory, key, family, results, winner, entry)
        log.info("back-end probe for %s: %s", family, "; ".join(_described(r) for r in results))
    if winner is None:
        log.warning("no back-end probe result for %s; the rule's choice stands: %s",
                    family, selection.reason)
        return selection
    return _use(selection, winner, family)


def _run_one(runner: Runner, variant: Variant, device: Device,
             request: LoadRequest) -> ProbeResult:
    try:
        return runner(variant, device, request)
    except Exception as exc:  # noqa: BLE001 - a broken runner is a failed probe of this variant
        return ProbeResult(variant, device, error=f"{type(exc).__name__}: {exc}")


def fastest(results: tuple[ProbeResult, ...]) -> tuple[Variant, Device] | None:
    """The variant with the most decode tokens/s; the first (the rule's choice) unless another
    is more than NOISE faster. None when none ran."""
    ran = [r for r in results if r.ok]
    if not ran:
        return None
    best = max(ran, key=lambda r: r.decode_tps)
    first = results[0]
    if first.ok and first.decode_tps * (1 + NOISE) >= best.decode_tps:
        best = first
    return best.variant, best.device


def _use(selection: Selection, winner: tuple[Variant, Device], family: str) -> Selection:
    variant, device = winner
    if variant == selection.variant and selection.device is not None \
            and device.name == selection.device.name:
        log.info("back-end for %s: %s %s (measured)", family, variant.name, device.name)
        return selection
    if backends.llama_loaded():
        log.warning("%s runs faster on %s %s here (measured), but this process already holds %s; "
                    "it is used when Rotary next starts with this model", family, variant.name,
                    device.name, selection.variant.name)
        return selection
    return backends.reselect(variant, device,
                             f"{device.description} ({device.name}), measured faster for {family}")


def _described(result: ProbeResult) -> str:
    what = result.error or (f"{result.decode_tps:.1f} tokens/s writing, "
                            f"{result.prompt_tps:.1f} reading")
    return f"{result.variant.name} {result.device.name}: {what} ({result.seconds:.1f} s)"


# ---- remembered per machine ----------------------------------------------------------------

def memory_path() -> Path:
    return backends.cache_path().parent / MEMORY_FILE


def _read(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return dict(data["entries"]) if data.get("version") == MEMORY_VERSION else {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _remembered(entry: dict | None,
                found: tuple[tuple[Variant, Device], ...]) -> tuple[Variant, Device] | None:
    won = (entry or {}).get("winner") or {}
    for variant, device in found:
        if (variant.folder, variant.key, device.name) == \
                (won.get("folder"), won.get("key"), won.get("device")):
            return variant, device
    return None


def _worth_probing(entry: dict | None) -> bool:
    return entry is None or (not entry.get("winner")
                             and int(entry.get("attempts", 0)) < MAX_ATTEMPTS)


def _remember(path: Path, key: str, family: str, results: tuple[ProbeResult, ...],
              winner: tuple[Variant, Device] | None, entry: dict | None) -> None:
    entries = _read(path)
    entries[key] = {
        "family": family, "card": results[0].device.description, "when": time.time(),
        "attempts": int((entry or {}).get("attempts", 0)) + 1,
        "winner": None if winner is None else {
            "variant": winner[0].name, "folder": winner[0].folder, "key": winner[0].key,
            "device": winner[1].name},
        "results": [{"variant": r.variant.name, "folder": r.variant.folder,
                     "device": r.device.name, "decode_tps": round(r.decode_tps, 3),
                     "prompt_tps": round(r.prompt_tps, 3), "seconds": round(r.seconds, 3),
                     "error": r.error} for r in results]}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps({"version": MEMORY_VERSION, "entries": entries},
                                        indent=1), encoding="utf-8")
        temporary.replace(path)
    except OSError as exc:     # a read-only profile: measured again next time
        log.info("the back-end probe could not be kept in %s: %s", path, exc)


# ---- the child process that measures one variant ------------------------------------------

_CHILD_CODE = "import sys; from engine.runtime.backend_probe_child import child_main; " \
              "sys.exit(child_main(sys.argv[1:]))"


def child_spec(variant: Variant, device: Device, request: LoadRequest) -> dict[str, Any]:
    return {"folder": variant.folder, "device": device.name, "model": request.model_path,
            "preset": request.preset, "advanced": dict(request.advanced or {}),
            "recipe": recipe_to_dict(request.recipe) if request.recipe is not None else None,
            "tokens": PROBE_TOKENS, "prompt": PROBE_PROMPT}


def child_command(spec: dict[str, Any]) -> list[str]:
    text = json.dumps(spec)
    if getattr(sys, "frozen", False):
        return [sys.executable, PROBE_FLAG, text]
    return [sys.executable, "-c", _CHILD_CODE, text]


def run_child(variant: Variant, device: Device, request: LoadRequest,
              timeout: float = CHILD_TIMEOUT_S) -> ProbeResult:
    """Measure ``variant`` on ``device`` in a child process. Never raises."""
    started = time.perf_counter()
    root = str(Path(__file__).resolve().parents[3])      # the child imports this same engine
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (root, os.environ.get("PYTHONPATH", "")) if p))
    env.update({backends.LIB_ENV: variant.folder, backends.CHOICE_ENV: device.name,
                SWITCH_ENV: "0", CALIBRATION_SWITCH_ENV: "0"})
    try:
        done = subprocess.run(child_command(child_spec(variant, device, request)),
                              capture_output=True, text=True, timeout=timeout, env=env,
                              check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        return ProbeResult(variant, device, seconds=time.perf_counter() - started,
                           error=f"{type(exc).__name__}: {exc}")
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        tail = " | ".join(done.stderr.strip().splitlines()[-3:])
        return ProbeResult(variant, device, seconds=seconds,
                           error=f"exit status {done.returncode}: {tail}")
    try:
        row = json.loads(done.stdout.strip().splitlines()[-1])
        return ProbeResult(variant, device, float(row["decode_tps"]), float(row["prompt_tps"]),
                           seconds)
    except (ValueError, TypeError, IndexError, KeyError) as exc:
        return ProbeResult(variant, device, seconds=seconds,
                           error=f"unreadable probe result: {exc}")



def remembered(path: Path | None = None) -> list[dict[str, Any]]:
    """What the probe measured on this machine (``engine devices``): one row per card,
    variants and model family."""
    return [{"family": e.get("family", ""), "card": e.get("card", ""),
             "winner": (e.get("winner") or {}).get("variant"),
             "winner_folder": (e.get("winner") or {}).get("folder"),
             "results": e.get("results", [])}
            for e in _read(path or memory_path()).values() if isinstance(e, dict)]
