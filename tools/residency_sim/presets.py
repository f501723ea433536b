"""Named synthetic-trace settings, so that benchmarks and the CLI vary more than one generator."""

from __future__ import annotations

import dataclasses

from tools.residency_sim.synth import SynthSpec

SETTINGS: dict[str, dict] = {
    "qwen-like": {},                                            # 256 experts, top-8 (Qwen3.6)
    "qwen3-30b-like": {"n_expert": 128},                        # 128 experts, top-8
    "e64-k6": {"n_expert": 64, "k": 6},                         # DeepSeek-V2-Lite-like sizes
    "e8-k2": {"n_expert": 8, "k": 2},                           # Mixtral-like sizes
    "weak-locality": {"repeat": 0.15, "recent": 0.15, "skew": 1.0, "topic_focus": 0.5},
    "strong-locality": {"repeat": 0.45, "recent": 0.3},
    "flat": {"skew": 0.3, "topic_focus": 0.4, "topic_size": 0.3},
    "switchy-unmarked": {"segment": 120, "revisit": 0.7, "mark_contexts": False},
}

# Routed from latent hidden states; these traces carry a ``pred`` made like the engine's.
LATENT_SETTINGS: dict[str, dict] = {
    "latent-qwen-like": {"mode": "latent"},
    "latent-qwen3-30b-like": {"mode": "latent", "n_expert": 128},
    "latent-e64-k6": {"mode": "latent", "n_expert": 64, "k": 6},
    "latent-e8-k2": {"mode": "latent", "n_expert": 8, "k": 2},
}
ALL_SETTINGS = {**SETTINGS, **LATENT_SETTINGS}


def spec(name: str, **overrides) -> SynthSpec:
    return dataclasses.replace(SynthSpec(**ALL_SETTINGS[name]), **overrides)


def _flag(text: str) -> bool:
    return text.strip().lower() in ("1", "true", "yes", "on")


SYNTH_FIELDS = {f.name: (_flag if f.type in (bool, "bool") else
                         int if f.type in (int, "int") else
                         str if f.type in (str, "str") else float)
                for f in dataclasses.fields(SynthSpec)}
