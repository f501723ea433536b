"""Tiny MoE GGUFs carrying real chat templates, whose scripted output thinks, switches
channel, ends its turn or loops: the demo model's mechanism (engine/demo/demo_model.py, an
output head that makes each token follow the one before it) with each family's own markers.

A bigram chain cannot branch, so each token appears once in a script (a token followed by
itself is a loop, on purpose). The last token of the rendered prompt picks the path: Qwen's
"<think>\\n" ends with "Ċ" and the model thinks; "</think>\\n\\n" ends with "ĊĊ" (a merged
token added here) and it answers at once, so one file serves thinking on and off. gpt-oss's
second header spells "<|channel|>" and "<|message|>" as plain pieces (as a server streams
text), since its control tokens were used by the first header. Templates: templates/README.md.
"""

from __future__ import annotations

import os
import pathlib
from dataclasses import dataclass

import gguf

from engine.demo.demo_model import bigram_head, demo_words
from engine.demo.tiny_moe import (SPECIAL_TOKENS, TinyMoeSpec, _add_model_metadata, _add_tensors,
                                  build_vocabulary)

TEMPLATES = pathlib.Path(__file__).parent / "templates"
SPEC = TinyMoeSpec(n_layer=2, n_embd=256, n_expert=8, n_expert_used=2, n_ff_exp=64, n_head=4,
                   n_head_kv=2, head_dim=64, layer_scale=0.05, name="rotary-reply-fixture")

THINKING = "Let me weigh this carefully before I reply."
ANSWER = "Rotary keeps busy experts on your graphics card."
HARMONY_THINKING = "We need to answer briefly now."
LOOP_WORDS = "Sure, here is one"          # then " option" for ever

CONTROL = ("<|start|>", "<|end|>", "<|message|>", "<|channel|>", "<|return|>", "<|call|>",
           "<|constrain|>", "<|turn>", "<turn|>", "<|channel>", "<channel|>",
           "<start_of_turn>", "<end_of_turn>")
USER_DEFINED = ("<think>", "</think>")


@dataclass(frozen=True)
class Script:
    template: str                 # file in templates/
    start: str                    # the prompt's last token that starts the chain
    chain: tuple[str, ...]        # tokens after it (byte-level strings or special tokens)
    eos: str = "<|im_end|>"
    sampling: tuple[tuple[str, float | int], ...] = ()   # general.sampling.* keys


def words(text: str, space_first: bool = False) -> list[str]:
    return demo_words((" " if space_first else "") + text)


def _qwen35() -> Script:
    return Script("Qwen3.5-4B.jinja", "Ċ",
                  (*words(THINKING), "</think>", "ĊĊ", *words(ANSWER), "<|im_end|>"),
                  sampling=(("temp", 0.6), ("top_p", 0.95), ("top_k", 20)))


def _qwen3() -> Script:          # the model opens <think> itself
    return Script("Qwen-Qwen3-0.6B.jinja", "Ċ",
                  ("<think>", *words(THINKING), "</think>", "ĊĊ", *words(ANSWER), "<|im_end|>"))


def _harmony() -> Script:
    # The prompt ends "<|start|>assistant", which this small vocabulary reads as "assist",
    # "an", "t" (its merges of "and" come first): "t" starts the chain.
    return Script("openai-gpt-oss-120b.jinja", "t",
                  ("<|channel|>", "analysis", "<|message|>", *words(HARMONY_THINKING), "<|end|>",
                   "<|start|>", "assis", "tant", "<|chan", "nel|>", "final", "<|mess", "age|>",
                   *words(ANSWER), "<|return|>"), eos="<|return|>")


def _gemma4() -> Script:        # thinking is opt-in; off, the prompt ends with "<channel|>"
    return Script("google-gemma-4-31B-it.jinja", "Ċ",
                  ("<|channel>", "thought", *words(THINKING, space_first=True), "<channel|>",
                   *words(ANSWER), "<turn|>"), eos="<turn|>")


def _lfm2_new_turn() -> Script:  # answers, then starts the user's turn by itself
    return Script("LFM2-8B-A1B.jinja", "Ċ", (*words(ANSWER), "<|im_start|>", "user"))


def _lfm2_loop() -> Script:
    return Script("LFM2-8B-A1B.jinja", "Ċ", (*words(LOOP_WORDS), "Ġoption", "Ġoption"))


# A block of 45 tokens written again and again (a bigram chain that closes on itself): longer
# than 32 tokens, the loop guard's reach for short loops.
BLOCK_WORDS = ("Monthly payments reach our council office before day five, and late invoices "
               "wait for Maria Lopez who signs every transfer above twelve thousand euros; an "
               "archive keeps copies of receipts, contracts, letters plus reminders until "
               "auditors visit again next spring without notice.")
# An answer about a 12-page document that cites page 21 and loops on it.
CITE_LOOP_WORDS = "The travel budget for 2026 is 48,250 EUR [p. 21]"


def _lfm2_block_loop() -> Script:
    return Script("LFM2-8B-A1B.jinja", "Ċ", (*words(BLOCK_WORDS), "Ċ"))


def _lfm2_cite_loop() -> Script:
    return Script("LFM2-8B-A1B.jinja", "Ċ", (*words(CITE_LOOP_WORDS), "Ċ"))


SCRIPTS = {"qwen35": _qwen35, "qwen3": _qwen3, "harmony": _harmony, "gemma4": _gemma4,
           "new_turn": _lfm2_new_turn, "loop": _lfm2_loop, "block_loop": _lfm2_block_loop,
           "cite_loop": _lfm2_cite_loop}


def template_text(name: str) -> str:
    return (TEMPLATES / name).read_text(encoding="utf-8")


def _vocabulary(script: Script) -> tuple[list[str], list[int], list[str]]:
    chain = (script.start, *script.chain)
    specials = [t for t in dict.fromkeys(chain + CONTROL + USER_DEFINED)
                if t in CONTROL or t in USER_DEFINED]
    plain = tuple(t for t in dict.fromkeys(chain) if t not in specials
                  and t not in SPECIAL_TOKENS)      # ChatML's, which build_vocabulary adds
    tokens, types, merges = build_vocabulary(plain + ("ĊĊ",))
    merges = merges + ["Ċ Ċ"]
    for token in specials:
        if token not in tokens:
            tokens.append(token)
            types.append(int(gguf.TokenType.CONTROL if token in CONTROL
                             else gguf.TokenType.USER_DEFINED))
    return tokens, types, merges


def _check_no_branch(chain: list[str]) -> None:
    follows: dict[str, str] = {}
    for current, following in zip(chain, chain[1:]):
        if follows.setdefault(current, following) != following:
            raise ValueError(f"script branches at {current!r}")


def write_reply_model(name: str, directory: str | os.PathLike) -> pathlib.Path:
    """``name`` from SCRIPTS; written once per directory."""
    script = SCRIPTS[name]()
    path = pathlib.Path(directory) / f"reply-{name}.gguf"
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    chain = [script.start, *script.chain]
    _check_no_branch(chain)
    tokens, types, merges = _vocabulary(script)
    writer = gguf.GGUFWriter(str(path), "qwen3moe")
    _add_model_metadata(writer, SPEC)
    _add_tokenizer(writer, tokens, types, merges, script)
    _add_tensors(writer, SPEC, len(tokens), bigram_head(tokens, chain, SPEC.n_embd))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    return path


def _add_tokenizer(writer: gguf.GGUFWriter, tokens, types, merges, script: Script) -> None:
    """tiny_moe's tokenizer keys with this family's end of turn and sampling defaults."""
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("qwen2")
    writer.add_token_list(tokens)
    writer.add_token_types(types)
    writer.add_token_merges(merges)
    writer.add_bos_token_id(tokens.index("<|endoftext|>"))
    writer.add_eos_token_id(tokens.index(script.eos))
    writer.add_pad_token_id(tokens.index("<|endoftext|>"))
    writer.add_add_bos_token(False)
    writer.add_chat_template(template_text(script.template))
    for key, value in script.sampling:
        if isinstance(value, float):
            writer.add_float32(f"general.sampling.{key}", value)
        else:
            writer.add_int32(f"general.sampling.{key}", value)
