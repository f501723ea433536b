"""The model's own sampling defaults: the GGUF's ``general.sampling.*`` keys (what llama.cpp
reads, written by the converter from the model's generation_config.json), else the family's
published defaults, else Rotary's. The app lets the user override them in Settings."""

from __future__ import annotations

from dataclasses import dataclass

from engine.messages import Msg, msg
from engine.runtime.chat.chat_format import detect_format

ROTARY = (0.7, 0.95, 40, 0.0)
# (temperature, top_p, top_k, min_p) recommended by each family's model card.
FAMILIES = {
    "qwen-think": (0.6, 0.95, 20, 0.0),      # Qwen3 and Qwen3.5/3.6 with thinking
    "qwen": (0.7, 0.8, 20, 0.0),             # Qwen without thinking
    "gpt-oss": (1.0, 1.0, 0, 0.0),           # OpenAI: temperature 1, top-p 1
    "gemma": (1.0, 0.95, 64, 0.0),
}


@dataclass(frozen=True)
class SamplingDefaults:
    temperature: float
    top_p: float
    top_k: int              # 0: no top-k cut
    min_p: float
    source: str             # "model file", "family" or "rotary"

    @property
    def said(self) -> Msg:
        """"From the model file: temperature 0.6, top-p 0.95, top-k 20" (and its min-p,
        where it has one)."""
        said = msg(f"sampling.from_{self.source.replace(' ', '_')}",
                   temperature=self.temperature, top_p=self.top_p, top_k=self.top_k)
        return msg("sampling.with_min_p", said=said, min_p=self.min_p) if self.min_p > 0 \
            else said


def _family(metadata: dict[str, str]) -> str | None:
    arch = metadata.get("general.architecture", "")
    fmt = detect_format(metadata.get("tokenizer.chat_template"))
    if fmt.family == "harmony" or arch == "gpt-oss":
        return "gpt-oss"
    if fmt.family == "gemma4" or arch.startswith("gemma"):
        return "gemma"
    if arch.startswith("qwen"):
        return "qwen-think" if fmt.can_think else "qwen"
    return None


def model_sampling(metadata: dict[str, str]) -> SamplingDefaults:
    family = _family(metadata)
    temperature, top_p, top_k, min_p = FAMILIES.get(family, ROTARY) if family else ROTARY
    source = "family" if family else "rotary"
    keys: dict[str, float | None] = {"temp": None, "top_p": None, "top_k": None, "min_p": None}
    for key in keys:
        raw = metadata.get(f"general.sampling.{key}")
        try:
            keys[key] = float(raw) if raw is not None else None
        except ValueError:
            keys[key] = None
    if any(v is not None for v in keys.values()):
        source = "model file"
        temperature = keys["temp"] if keys["temp"] is not None else temperature
        top_p = keys["top_p"] if keys["top_p"] is not None else top_p
        top_k = int(keys["top_k"]) if keys["top_k"] is not None else top_k
        min_p = keys["min_p"] if keys["min_p"] is not None else min_p
    return SamplingDefaults(round(temperature, 3), round(top_p, 3), top_k, round(min_p, 3),
                            source)
