"""Synthetic routing traces with controllable skew, reuse, topics and cross-layer links.

Each token picks ``k`` distinct experts per layer. A pick repeats an expert of the
previous token (``repeat``), of a recent token (``recent``), follows the previous
layer's choice through a fixed map (``cross_layer``), or is drawn fresh from the
current topic's distribution: a layer-wide Zipf popularity (``skew``) mixed with the
topic's hot set (``topic_focus``). Topics change every ~``segment`` tokens and
sometimes come back (``revisit``); hot sets drift slowly (``drift``).
Defaults roughly match published Qwen3-30B-A3B statistics (anchors.md): median reuse
distance ~2 tokens, ~45% of selections repeat at the next token, ~80% within 8.

``mode="latent"`` instead routes like a model does, so that the trace can carry a
``pred`` made the way the engine makes one. Each token has a hidden state per MoE layer
(``dim`` wide, unit norm): layer 0's mixes its topic's centre (``topic_share``), a slowly
varying context (AR(1) over tokens, ``token_corr``) and a fresh per-token part
(``fresh``); layer i's is the residual stream h_i = norm(h_{i-1} + ``layer_drift`` * u_i)
with u_i varying over tokens the same way. Each layer has a random router R_i and a
popularity bias b_i (``router_bias``); ids[t, i] = top-k(R_i h_i + b_i) and
pred[t, i] = top-k(R_i h_{i-1} + b_i), so the prediction's accuracy follows the drift
(0.2: 0.82-0.89 from 256/8 to 8/2 experts, inside the published 80-89%; 0.3: ~0.75 at
256/8). Latent defaults give Qwen3-30B-like locality at 128/8: ~45% next-token repeats,
~82% within 8, median reuse distance 2, LRU at 40% of the experts ~92%. Topic visits,
prompt spans and contexts are scheduled as in the default mode; ``skew``, ``topic_focus``,
``topic_size``, ``repeat``, ``recent``, ``window``, ``cross_layer`` and ``drift`` are unused.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from engine.errors import TraceFormatError
from engine.residency.trace import Trace, validate

MODES = ("copy", "latent")


@dataclass(frozen=True)
class SynthSpec:
    n_expert: int = 256
    k: int = 8
    n_layers: int = 40
    n_tokens: int = 2000
    skew: float = 0.8          # Zipf exponent of each layer's corpus-wide popularity
    topic_focus: float = 0.75  # share of fresh picks drawn from the topic's hot set
    topic_size: float = 0.15   # hot set size as a fraction of n_expert
    repeat: float = 0.32       # a pick repeats an expert of the previous token
    recent: float = 0.22       # ... of a token 2..window back
    window: int = 12
    cross_layer: float = 0.3   # a fresh pick follows the previous layer through a fixed map
    segment: int = 400         # mean tokens per topic visit
    n_topics: int = 6
    revisit: float = 0.5       # a topic switch returns to an earlier topic
    drift: float = 0.002       # per token and layer: one hot-set member is replaced
    prompt: int = 48           # prompt-processing tokens at the start of each visit
    mark_contexts: bool = True  # write visit starts to meta["contexts"] (a chat app knows them)
    seed: int = 0
    mode: str = "copy"         # "copy": picks copy earlier tokens; "latent": hidden states + routers
    dim: int = 64              # latent: hidden state width
    token_corr: float = 0.95   # latent: AR(1) coefficient of the slow context between tokens
    fresh: float = 0.4         # latent: share of the non-topic state that is new at every token
    layer_drift: float = 0.2   # latent: residual update size per MoE layer, relative to |h|
    topic_share: float = 0.3   # latent: share of layer 0's state that is the topic's centre
    router_bias: float = 0.4   # latent: spread (std) of per-expert router biases: popularity skew


class _Topics:
    """Per (topic, layer) cumulative distributions over experts, with drifting hot sets."""

    def __init__(self, spec: SynthSpec, rng: np.random.Generator) -> None:
        self.spec, self.rng = spec, rng
        ranks = np.arange(1, spec.n_expert + 1, dtype=np.float64)
        zipf = ranks ** -spec.skew
        self.popular = [zipf[rng.permutation(spec.n_expert)] for _ in range(spec.n_layers)]
        size = max(spec.k, int(round(spec.topic_size * spec.n_expert)))
        self.hot = [[rng.choice(spec.n_expert, size, replace=False) for _ in range(spec.n_layers)]
                    for _ in range(spec.n_topics)]               # [topics][layers] -> [size]
        self.hot_weight = 1.0 / np.arange(1, size + 1)           # Zipf(1) inside the hot set
        self.cdf = {}

    def cumulative(self, topic: int, layer: int) -> np.ndarray:
        key = (topic, layer)
        if key not in self.cdf:
            spec = self.spec
            pop = self.popular[layer] / self.popular[layer].sum()
            hot = np.zeros(spec.n_expert)
            hot[self.hot[topic][layer]] = self.hot_weight / self.hot_weight.sum()
            self.cdf[key] = np.cumsum((1 - spec.topic_focus) * pop + spec.topic_focus * hot)
        return self.cdf[key]

    def drift(self, topic: int, layer: int) -> None:
        hot = self.hot[topic][layer]
        hot[self.rng.integers(len(hot))] = self.rng.integers(self.spec.n_expert)
        self.cdf.pop((topic, layer), None)


def synth_trace(spec: SynthSpec) -> Trace:
    """Generate a trace; ``meta`` records the spec so that runs can be reproduced."""
    _check_spec(spec)
    rng = np.random.default_rng(spec.seed)
    rules = _copy_rules(spec, rng) if spec.mode == "copy" else None  # before the schedule: same draws as ever
    visits, prompt_spans = _schedule(spec, rng)
    topic_of = _topic_per_token(visits, spec.n_tokens)
    if rules is None:
        ids, weights, pred = _latent_routing(spec, rng, topic_of)
    else:
        ids, pred = _copy_routing(spec, rng, rules, topic_of), None
        weights = _weights(rng, ids.shape)
    meta = {"model": "synthetic", "architecture": "synthetic", "n_expert": spec.n_expert,
            "k": spec.k, "source": "tools.residency_sim.synth", "synth": asdict(spec),
            "prompt_spans": prompt_spans}
    if spec.mark_contexts:
        meta["contexts"] = [[start, f"topic-{topic}"] for start, topic in visits]
    return validate(Trace(ids, weights, meta, "", pred))


def _copy_rules(spec: SynthSpec, rng) -> tuple:
    topics = _Topics(spec, rng)
    cross = rng.integers(0, spec.n_expert, size=(spec.n_layers, spec.n_expert))  # [layers, n_expert]
    return topics, cross


def _copy_routing(spec: SynthSpec, rng, rules: tuple, topic_of: list[int]) -> np.ndarray:
    """int16 [tokens, layers, k] from the copy/recent/cross-layer/topic pick rules."""
    topics, cross = rules
    ids = np.zeros((spec.n_tokens, spec.n_layers, spec.k), dtype=np.int16)
    history: list[list[list[int]]] = []                          # [tokens][layers][k]
    for t in range(spec.n_tokens):
        row = _token(spec, rng, topics, cross, history, topic_of[t])
        history.append(row)
        ids[t] = row
    return ids


def _check_spec(spec: SynthSpec) -> None:
    if not 1 <= spec.k <= spec.n_expert:
        raise TraceFormatError(f"Synthetic trace needs 1 <= k <= n_expert, got k={spec.k}")
    if spec.n_tokens < 1 or spec.n_layers < 1 or spec.n_topics < 1:
        raise TraceFormatError("Synthetic trace needs at least one token, layer and topic")
    if spec.repeat + spec.recent > 1:
        raise TraceFormatError("Synthetic trace needs repeat + recent <= 1")
    if spec.mode not in MODES:
        raise TraceFormatError(f"Unknown synthetic mode '{spec.mode}'", f"known: {', '.join(MODES)}")
    if spec.mode == "latent":
        _check_latent(spec)


def _check_latent(spec: SynthSpec) -> None:
    if spec.dim < 1 or spec.layer_drift < 0:
        raise TraceFormatError("Latent synthetic trace needs dim >= 1 and layer_drift >= 0")
    if not (0 <= spec.token_corr < 1 and 0 <= spec.fresh <= 1 and 0 <= spec.topic_share <= 1):
        raise TraceFormatError("Latent synthetic trace needs 0 <= token_corr < 1 and "
                               "fresh, topic_share in [0, 1]")


def _schedule(spec: SynthSpec, rng) -> tuple[list[tuple[int, int]], list[list[int]]]:
    """Topic visits [(start token, topic)] and their prompt spans."""
    visits, spans, seen, start = [], [], [], 0
    while start < spec.n_tokens:
        if seen and rng.random() < spec.revisit:
            topic = int(rng.choice(seen[:-1] or seen))           # come back to an earlier topic
        else:
            topic = len(seen) % spec.n_topics if len(seen) < spec.n_topics else int(rng.integers(spec.n_topics))
        seen.append(topic)
        visits.append((start, topic))
        spans.append([start, min(spec.n_tokens, start + spec.prompt)])
        start += spec.prompt + max(1, int(rng.geometric(1.0 / spec.segment)))
    return visits, [s for s in spans if s[1] > s[0]]


def _topic_per_token(visits, n_tokens: int) -> list[int]:
    topic_of = [0] * n_tokens
    for (start, topic), nxt in zip(visits, visits[1:] + [(n_tokens, -1)]):
        topic_of[start:nxt[0]] = [topic] * (nxt[0] - start)
    return topic_of


def _token(spec, rng, topics, cross, history, topic) -> list[list[int]]:
    row: list[list[int]] = []
    for layer in range(spec.n_layers):
        if spec.drift and rng.random() < spec.drift:
            topics.drift(topic, layer)
        row.append(_pick_layer(spec, rng, topics, cross, history, row, topic, layer))
    return row


def _pick_layer(spec, rng, topics, cross, history, row, topic, layer) -> list[int]:
    chosen: list[int] = []
    draws = rng.random(spec.k * 2).tolist()                      # [2k] uniforms for this layer
    cdf = topics.cumulative(topic, layer)
    for j in range(spec.k):
        expert = _candidate(spec, rng, cross, history, row, layer, cdf, draws[2 * j], draws[2 * j + 1])
        tries = 0
        while expert in chosen:
            tries += 1
            expert = int(np.searchsorted(cdf, rng.random() * cdf[-1])) if tries < 8 else int(rng.integers(spec.n_expert))
        chosen.append(min(expert, spec.n_expert - 1))
    return chosen


def _candidate(spec, rng, cross, history, row, layer, cdf, u, v) -> int:
    if history and u < spec.repeat:
        previous = history[-1][layer]
        return previous[int(v * len(previous))]
    if len(history) > 1 and u < spec.repeat + spec.recent:
        back = 2 + int(v * (min(spec.window, len(history)) - 1))
        earlier = history[-min(back, len(history))][layer]
        return earlier[int(rng.random() * len(earlier))]
    if layer and v < spec.cross_layer:
        above = row[layer - 1]
        return int(cross[layer, above[int(rng.random() * len(above))]])
    return int(np.searchsorted(cdf, rng.random() * cdf[-1]))


def _latent_routing(spec: SynthSpec, rng, topic_of: list[int]):
    """ids int16, weights float32 and pred int16, each [tokens, layers, k], from routers
    applied to latent hidden states (see the module docstring)."""
    states = _latent_states(spec, rng, topic_of)                 # [layers, tokens, dim]
    # routers [layers, n_expert, dim], biases [layers, n_expert]
    routers = rng.standard_normal((spec.n_layers, spec.n_expert, spec.dim), np.float32)
    bias = spec.router_bias * rng.standard_normal((spec.n_layers, spec.n_expert))
    shape = (spec.n_tokens, spec.n_layers, spec.k)
    ids, pred = np.zeros(shape, np.int16), np.full(shape, -1, np.int16)
    weights = np.zeros(shape, np.float32)
    for layer in range(spec.n_layers):
        logits = states[layer] @ routers[layer].T + bias[layer]      # [tokens, n_expert]
        ids[:, layer], weights[:, layer] = _top_k(logits, spec.k)
        if layer:     # the engine's predictor: this layer's router on the previous layer's state
            pred[:, layer] = _top_k(states[layer - 1] @ routers[layer].T + bias[layer], spec.k)[0]
    return ids, weights, pred


def _latent_states(spec: SynthSpec, rng, topic_of: list[int]) -> np.ndarray:
    """float32 [layers, tokens, dim] unit hidden states: topic + slow context + fresh part,
    then a residual stream across layers."""
    shape = (spec.n_layers, spec.n_tokens, spec.dim)
    slow = _ar1(rng.standard_normal(shape, np.float32), spec.token_corr)  # [layers, tokens, dim]
    vary = np.sqrt(1 - spec.fresh) * slow + np.sqrt(spec.fresh) * rng.standard_normal(shape, np.float32)
    vary /= np.sqrt(spec.dim)                                    # |row| ~ 1
    centres = _unit(rng.standard_normal((spec.n_topics, spec.dim), np.float32))  # [topics, dim]
    share = spec.topic_share
    h = _unit(np.sqrt(share) * centres[topic_of] + np.sqrt(1 - share) * vary[0])  # [tokens, dim]
    states = [h]
    for layer in range(1, spec.n_layers):
        h = _unit(h + spec.layer_drift * vary[layer])
        states.append(h)
    return np.stack(states)


def _ar1(noise: np.ndarray, rho: float) -> np.ndarray:
    """AR(1) along axis 1 of [layers, tokens, dim], stationary with unit variance."""
    out = np.empty_like(noise)
    out[:, 0] = noise[:, 0]
    scale = np.sqrt(1 - rho * rho)
    for t in range(1, noise.shape[1]):
        out[:, t] = rho * out[:, t - 1] + scale * noise[:, t]
    return out


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


def _top_k(logits: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row of logits [tokens, n_expert]: the k best ids (best first) and their softmax weights."""
    top = np.argpartition(-logits, k - 1, axis=1)[:, :k]         # [tokens, k] unordered
    picked = np.take_along_axis(logits, top, axis=1)
    order = np.argsort(-picked, axis=1)
    top, picked = np.take_along_axis(top, order, axis=1), np.take_along_axis(picked, order, axis=1)
    weights = np.exp(picked - picked[:, :1])
    return top, (weights / weights.sum(axis=1, keepdims=True)).astype(np.float32)


def _weights(rng, shape) -> np.ndarray:
    """float32 [tokens, layers, k]: descending router weights that sum to 1 per row."""
    raw = np.sort(rng.gamma(1.0, size=shape), axis=2)[:, :, ::-1]
    return (raw / raw.sum(axis=2, keepdims=True)).astype(np.float32)


def reuse_stats(ids: np.ndarray) -> dict:
    """Locality numbers comparable to the published ones: next-token repeat share,
    share reused within 8 tokens, median reuse distance (tokens), over ids [tokens, layers, k]."""
    n_tokens, n_layers, k = ids.shape
    distances = []
    for layer in range(n_layers):
        last = {}
        for t in range(n_tokens):
            for expert in ids[t, layer].tolist():
                if expert in last:
                    distances.append(t - last[expert])
                last[expert] = t
    d = np.asarray(distances) if distances else np.zeros(1)
    total = n_tokens * n_layers * k
    return {"repeat_next": float((d == 1).sum() / total),
            "within_8": float((d <= 8).sum() / total),
            "median_distance": float(np.median(d))}
