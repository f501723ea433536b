"""Hidden-state prefetch on a model whose router learned: real slot hits on the CPU build.

The model is resources/models/rotary-tiny-moe.gguf (trained here by tools/train_tiny_moe.py:
8 layers, 32 experts, top-4). Text it never trained on (resources/models/prompts.json, "heldout":
Python standard-library modules and the end of Tiny Shakespeare) is read by the engine as decode
steps, token by token (teacher forcing: every policy sees the same text, so the same routing up
to float noise, which is counted); each passage is a conversation whose first WARM tokens are
its prompt (the policy's warm start). Slots: 25% of each layer's experts; upload cap: k per layer
per token (the CPU build's default), shared by prefetches and after-token uploads.

Policies: rotary with hidden-state prefetch (engine/runtime/experts/prefetch.py: the next layer's router
on this layer's hidden state, uploaded before that layer runs), rotary without, LRU, LFU, LFRU,
and OPT (Belady with the cap; it is given the routing the first run recorded). Hits are counted
twice: by the policy, and from the decode graph's own slot lookups (ffn_moe_miss_ids), which
must agree. The same run's routing, replayed by the simulator (tools/residency_sim), gives the
modelled decode time with copies overlapped and serialised (MODELLED: the RTX 4060 laptop and
Qwen3.6 cost model), and from both the share of the gap from the best of LRU/LFU/LFRU to OPT
that rotary closes, with and without prediction.

    python bench/bench_hidden_prefetch.py [--passages 12] [--tokens 96] [--trace-out T.npz]
    python bench/bench_hidden_prefetch.py --record train --trace-out /tmp/train.npz   # for the probe

A development measurement (not CI): about a minute per policy on a shared 2-core machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import pathlib
import sys
import tempfile
import time

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_engine import bench_recipe  # noqa: E402
from engine.demo.demo_model import write_demo_model  # noqa: E402
from engine.model.inspect_gguf import inspect_model  # noqa: E402
from engine.residency.trace import Trace, save_trace  # noqa: E402
from engine.runtime.bindings import llama_cpp_module  # noqa: E402
from engine.runtime.llama_model import NativeModel  # noqa: E402
from engine.runtime.experts.predictor import RouterPredictor, hidden_node_name  # noqa: E402
from engine.runtime.experts.prefetch import HiddenPrefetch  # noqa: E402
from engine.runtime.experts.routing import RoutingRecorder  # noqa: E402
from tools.residency_sim.predicted import print_rows, run_all  # noqa: E402

MODEL = ROOT / "resources" / "models" / "rotary-tiny-moe.gguf"
PROMPTS = ROOT / "resources" / "models" / "prompts.json"
WARM = 32                          # tokens of each passage read as its prompt
CONFIGS = (("rotary", True), ("rotary", False), ("lru", False), ("lfu", False),
           ("lfru", False), ("opt", False))


@dataclasses.dataclass
class Run:
    label: str
    hits: int = 0                   # the policy's count
    misses: int = 0
    graph_hits: int = 0             # the decode graph's slot reads
    graph_misses: int = 0
    uploads: int = 0                # after-token + prefetch + warm start + restores
    prefetches: int = 0
    steps: int = 0
    seconds: float = 0.0
    ids: list = dataclasses.field(default_factory=list)       # decode steps [layers, k]
    hidden: list = dataclasses.field(default_factory=list)    # decode steps [layers, n_embd]
    prompts: list = dataclasses.field(default_factory=list)   # per passage [WARM, layers, k]
    spans: list = dataclasses.field(default_factory=list)     # per passage [start, stop) of ids
    warm: int = 0                   # warm-start uploads

    @property
    def hit_rate(self) -> float:
        return self.graph_hits / max(1, self.graph_hits + self.graph_misses)


def passages(model: NativeModel, texts: list[str], tokens: int, bos: int) -> list[list[int]]:
    return [[bos, *model.tokenize(text, special=False)][: WARM + tokens] for text in texts]


def run(path: str, policy: str, prefetch: bool, token_lists: list[list[int]], fraction: float,
        opt_ids: np.ndarray | None = None) -> Run:
    """One policy over every passage, as decode steps through the engine's slot cache."""
    facts = inspect_model(path)
    slots = max(facts.n_expert_used, round(fraction * facts.n_expert))
    layers = set(facts.moe_layers)
    recipe = dataclasses.replace(bench_recipe(1), residency_policy=policy, expert_slots=tuple(
        slots if i in layers else 0 for i in range(facts.n_layers)))
    recorder = RoutingRecorder(hidden_name=hidden_node_name(facts.architecture))
    recorder.count_slot_reads = True
    native = NativeModel(path, recipe, recorder)
    out = Run(f"{policy}{' + prediction' if prefetch else ''}")
    try:
        cache = native.slot_cache
        assert cache is not None, "this build has no slot cache"
        if opt_ids is not None:
            cache.policy.prepare(opt_ids)
        ahead = HiddenPrefetch.attach(native, facts) if prefetch else None
        cache.prompt_log = []
        started = time.perf_counter()
        for i, tokens in enumerate(token_lists):
            _passage(native, recorder, out, i, tokens, facts)
        out.seconds = time.perf_counter() - started
        totals = cache.totals
        out.hits, out.misses = totals.hits, totals.misses
        out.uploads = totals.uploads + totals.prefetches + out.warm + _bulk(cache)
        out.prefetches = ahead.prefetched if ahead else 0
        out.graph_hits, out.graph_misses = recorder.slot_reads, recorder.slot_misses
        out.prompts = [p[-WARM:] for p in cache.prompt_log]
    finally:
        native.close()
    return out


def _passage(native, recorder, out: Run, i: int, tokens: list[int], facts) -> None:
    cache = native.slot_cache
    native.reuse_prefix([-1, -1])                   # a fresh context for every passage
    cache.switch_conversation(i)
    native.decode(tokens[:WARM])
    recorder.take()
    out.warm += cache.warm_start() // max(1, cache.expert_bytes[0])
    layers = list(cache.layers)
    start = len(out.ids)
    for token in tokens[WARM:]:
        recorder.begin()
        native.decode([token], step=True)
        step = recorder.take()
        out.steps += 1
        out.ids.append(np.stack([step.ids[layer][-1] for layer in layers]))
        out.hidden.append(np.stack([step.hidden[layer] for layer in layers]))
    out.spans.append((start, len(out.ids)))


def _bulk(cache) -> int:
    """Warm-start and restore uploads, in experts (the totals keep them in bytes)."""
    per = cache.expert_bytes[0] if cache.expert_bytes else 1
    return cache.totals.restored_bytes // max(1, per)


def to_trace(run_: Run, facts, path: str, with_hidden: bool) -> Trace:
    """The run's routing as a trace: per passage its WARM prompt tokens, then its decode steps."""
    layers = list(facts.moe_layers)
    predictor = RouterPredictor.from_gguf(facts)
    rows, pred, hidden, spans, contexts = [], [], [], [], []
    for i, prompt in enumerate(run_.prompts):
        start = len(rows)
        contexts.append([start, f"p{i}"])
        spans.append([start, start + len(prompt)])
        rows += list(prompt)
        pred += [np.full((len(layers), facts.n_expert_used), -1, np.int16)] * len(prompt)
        hidden += [np.zeros((len(layers), facts.n_embd), np.float16)] * len(prompt)
        a, b = run_.spans[i]
        for h in run_.hidden[a:b]:
            pred.append(predictor.predict_token(dict(zip(layers, h))))
            hidden.append(h.astype(np.float16))
        rows += run_.ids[a:b]
    meta = {"model": facts.name, "architecture": facts.architecture, "n_expert": facts.n_expert,
            "k": facts.n_expert_used, "layers": layers, "source": "bench_hidden_prefetch",
            "prompt_spans": spans, "contexts": contexts}
    ids = np.stack(rows).astype(np.int16)
    save_trace(path, ids, None, meta, pred=np.stack(pred), hidden=np.stack(hidden) if with_hidden else None)
    return Trace(ids, None, meta, path, np.stack(pred))


def main() -> int:
    args = _args()
    texts = json.loads(pathlib.Path(args.prompts).read_text(encoding="utf-8"))[args.record or "heldout"]
    if args.speak:
        return speak(args, texts)
    chosen = [t for kind in ("code", "prose") for t in texts[kind][: args.passages]]
    facts = inspect_model(args.model)
    probe = NativeModel(args.model, bench_recipe(1))
    bos = int(probe.metadata().get("tokenizer.ggml.bos_token_id", 1))
    token_lists = passages(probe, chosen, args.tokens, bos)
    probe.close()
    print(f"model {args.model}: {facts.n_layers} layers, {facts.n_expert} experts top-"
          f"{facts.n_expert_used}; {len(token_lists)} passages ({args.record or 'heldout'}), "
          f"{WARM} prompt + up to {args.tokens} decode tokens each; slots {args.fraction:.0%}")
    if args.record:
        first = run(args.model, "lru", False, token_lists, args.fraction)
        to_trace(first, facts, args.trace_out, with_hidden=True)
        print(f"wrote {args.trace_out} ({first.steps} decode steps, hidden states kept)")
        return 0
    runs = measure(args.model, token_lists, args.fraction)
    trace = to_trace(runs[2], facts, args.trace_out or "/tmp/hidden_prefetch_trace.npz",
                     with_hidden=args.hidden)
    return report(runs, trace, args.fraction)


def measure(path: str, token_lists: list[list[int]], fraction: float) -> list[Run]:
    runs: list[Run] = []
    for policy, prefetch in CONFIGS:
        opt_ids = np.stack(runs[2].ids) if policy == "opt" else None   # LRU's recorded routing
        runs.append(run(path, policy, prefetch, token_lists, fraction, opt_ids))
        r = runs[-1]
        print(f"  {r.label:<22} graph hits {r.hit_rate:6.1%} (policy {r.hits / max(1, r.hits + r.misses):6.1%}), "
              f"uploads/token {r.uploads / max(1, r.steps):5.2f}, {r.seconds:5.1f} s", flush=True)
    return runs


def report(runs: list[Run], trace: Trace, fraction: float) -> int:
    """The engine's table (real slot hits), the simulator's on the same routing, the shares."""
    engine = {r.label: {"hit": r.hit_rate, "uploads": r.uploads / max(1, r.steps),
                        "prefetches": r.prefetches / max(1, r.steps)} for r in runs}
    same = [float(np.mean([np.array_equal(a, b) for a, b in zip(r.ids, runs[2].ids)]))
            for r in runs]
    print(f"\nEngine, CPU build, {fraction:.0%} slots (MEASURED: hits the decode graph read from "
          "slots; the policy's own count in brackets; routing rows equal to the LRU run's)")
    for r, equal in zip(runs, same):
        policy_rate = r.hits / max(1, r.hits + r.misses)
        e = engine[r.label]
        print(f"  {r.label:<22} hit {100 * e['hit']:5.1f}% ({100 * policy_rate:5.1f}%)  uploads/token "
              f"{e['uploads']:5.2f} (prefetched {e['prefetches']:4.2f})  routing equal {equal:6.1%}")
    labels = [r.label for r in runs]
    best = max(engine[p]["hit"] for p in ("lru", "lfu", "lfru"))
    room = engine["opt"]["hit"] - best
    for label in labels[:2]:
        share = (engine[label]["hit"] - best) / room if room > 1e-9 else float("nan")
        print(f"  engine: share of the hit-rate gap best simple -> OPT closed by {label}: {share:+.3f}")
    print()
    print_rows(run_all(trace, fraction), "Simulator on the same routing (the LRU run's), engine "
               "semantics; hidden-state predictions from the engine's pred")
    mismatch = [r for r in runs if abs(engine[r.label]["hit"] - r.hits / max(1, r.hits + r.misses)) > 1e-9]
    if mismatch:
        print(f"FAILED: graph and policy hit counts differ for {[r.label for r in mismatch]}")
        return 1
    return 0


def bits_per_char(path: str, texts: list[str], chars: int = 400) -> float:
    """Bits per character the model needs for the first ``chars`` characters of each text
    (teacher forcing through the engine): comparable across tokenizers."""
    model = NativeModel(path, bench_recipe(1))
    llama = llama_cpp_module()
    bos = int(model.metadata().get("tokenizer.ggml.bos_token_id", 1))
    bits = 0.0
    try:
        for text in texts:
            model.reuse_prefix([-1, -1])
            tokens = [bos, *model.tokenize(text[:chars], special=False)]
            for at, token in enumerate(tokens[:-1]):
                model.decode([token])
                row = np.ctypeslib.as_array(llama.llama_get_logits_ith(model.ctx.ctx, -1),
                                            shape=(model.n_vocab,)).astype(np.float64)
                row -= row.max()
                bits += (np.log(np.exp(row).sum()) - row[tokens[at + 1]]) / np.log(2)
    finally:
        model.close()
    return bits / (chars * len(texts))


def speak(args, texts: dict) -> int:
    """The trained model against the built-in demo on held-out text, in bits per character."""
    with tempfile.TemporaryDirectory() as folder:
        demo = str(write_demo_model(pathlib.Path(folder) / "demo.gguf"))
        for kind in ("code", "prose"):
            chosen = [t for t in texts[kind][: args.passages] if len(t) >= 400]
            trained, random_demo = bits_per_char(args.model, chosen), bits_per_char(demo, chosen)
            print(f"held-out {kind}: {len(chosen)} passages x 400 chars, bits per character: "
                  f"trained {trained:.2f}, built-in demo {random_demo:.2f} [measured]")
    return 0


def _args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default=str(MODEL))
    parser.add_argument("--prompts", default=str(PROMPTS))
    parser.add_argument("--passages", type=int, default=12, help="per kind (code, prose)")
    parser.add_argument("--tokens", type=int, default=96, help="decode tokens per passage")
    parser.add_argument("--fraction", type=float, default=0.25)
    parser.add_argument("--record", choices=("train", "heldout"),
                        help="only record a trace with hidden states (LRU run) to --trace-out")
    parser.add_argument("--trace-out")
    parser.add_argument("--hidden", action="store_true", help="keep hidden states in --trace-out")
    parser.add_argument("--speak", action="store_true",
                        help="only compare bits per character with the built-in demo model")
    return parser.parse_args()


if __name__ == "__main__":
    sys.exit(main())
