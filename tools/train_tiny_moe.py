"""Train a small Mixtral-style MoE on this machine, so that its router really learned.

A development tool, never run by CI and never imported by the app. It needs packages that
the app does not have; install them in a venv outside the repository (docs/residency.md,
"A model whose router learned", gives the command and what it costs):

    python3 -m venv /work/venv-train
    /work/venv-train/bin/pip install torch==2.13.0 transformers sentencepiece safetensors numpy

Text of two kinds, so that routing can specialise: Python's standard-library source (code, PSF
licence, read from this interpreter's own library) and Tiny Shakespeare (public domain prose;
``--prose`` is a file, for example ``git --git-dir <char-rnn mirror> show
HEAD:data/tinyshakespeare/input.txt > /tmp/tinyshakespeare.txt``). Held-out prompts of both kinds
(library modules chosen by a hash of their name; the last 5% of the play text) never enter
training; they and prompts cut from the training text are written to ``OUT/prompts.json``.

    nice -n 19 python tools/train_tiny_moe.py --out /tmp/tinymoe48 --prose /tmp/tinyshakespeare.txt \
        --minutes 40

writes ``OUT/hf`` (config.json, model.safetensors in the classic Mixtral layout that llama.cpp's
``convert_hf_to_gguf.py`` reads, tokenizer.model) after every checkpoint, so a cut run still
leaves a model. The learning rate follows the wall clock (cosine over ``--minutes``), so a run on
a busy machine still ends annealed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import pathlib
import random
import sys
import time

import numpy as np
import sentencepiece as spm
import torch
from safetensors.torch import save_file
from transformers import MixtralConfig, MixtralForCausalLM

STDLIB = pathlib.Path(os.__file__).parent
HELD_OUT_EVERY = 20            # one library module in 20 (by name hash) is held out
PROSE_HELD_OUT = 0.05          # the last 5% of the prose is held out
PROMPT_CHARS = 600


def model_config(vocab: int) -> MixtralConfig:
    """~8 layers, 32 experts, top-4, narrow: trains in ~40 minutes on two busy cores."""
    return MixtralConfig(
        vocab_size=vocab, hidden_size=128, intermediate_size=64, num_hidden_layers=8,
        num_attention_heads=4, num_key_value_heads=2, head_dim=32, max_position_embeddings=512,
        rms_norm_eps=1e-5, num_local_experts=32, num_experts_per_tok=4,
        output_router_logits=True, router_aux_loss_coef=0.02, router_jitter_noise=0.0,
        tie_word_embeddings=False, bos_token_id=1, eos_token_id=2, pad_token_id=None,
        rope_parameters={"rope_type": "default", "rope_theta": 10000.0},
    )


# ---------------------------------------------------------------- text

def held_out_module(path: pathlib.Path) -> bool:
    digest = hashlib.sha1(path.relative_to(STDLIB).as_posix().encode()).digest()
    return digest[0] % HELD_OUT_EVERY == 0


def library_files() -> list[pathlib.Path]:
    """The standard library's own .py files, without tests, site-packages and IDLE."""
    skip = {"test", "tests", "site-packages", "idlelib", "lib2to3", "__pycache__"}
    return sorted(p for p in STDLIB.rglob("*.py")
                  if not skip & set(p.relative_to(STDLIB).parts) and p.stat().st_size < 400_000)


def read_corpora(prose_file: pathlib.Path) -> dict[str, dict[str, str]]:
    """{"train"|"heldout": {"code"|"prose": text}}."""
    code: dict[str, list[str]] = {"train": [], "heldout": []}
    for path in library_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        code["heldout" if held_out_module(path) else "train"].append(text)
    prose = prose_file.read_text(encoding="utf-8")
    cut = int(len(prose) * (1 - PROSE_HELD_OUT))
    cut = prose.index("\n\n", cut) + 2
    return {"train": {"code": "\n\n".join(code["train"]), "prose": prose[:cut]},
            "heldout": {"code": "\n\n".join(code["heldout"]), "prose": prose[cut:]}}


def cut_prompts(text: str, count: int, seed: int) -> list[str]:
    """``count`` prompts of ~PROMPT_CHARS characters, each starting at a line start."""
    rng = random.Random(seed)
    prompts: list[str] = []
    while len(prompts) < count:
        at = rng.randrange(0, max(1, len(text) - 2 * PROMPT_CHARS))
        at = text.find("\n", at) + 1
        piece = text[at:at + PROMPT_CHARS]
        if piece.strip():
            prompts.append(piece)
    return prompts


def write_prompts(corpora: dict[str, dict[str, str]], out: pathlib.Path) -> None:
    prompts = {split: {kind: cut_prompts(text, 48 if split == "train" else 24, seed=7 + i)
                       for i, (kind, text) in enumerate(corpora[split].items())}
               for split in corpora}
    (out / "prompts.json").write_text(json.dumps(prompts, indent=1), encoding="utf-8")


def train_tokenizer(corpora: dict[str, dict[str, str]], out: pathlib.Path, vocab: int) -> None:
    """A sentencepiece BPE vocabulary with byte fallback (every byte has a token) on the
    training text only; whitespace kept as it is, so code indentation survives."""
    lines = out / "tokenizer_text.txt"
    code, prose = corpora["train"]["code"], corpora["train"]["prose"]
    lines.write_text(code[:len(prose) * 2] + "\n" + prose, encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(lines), model_prefix=str(out / "tokenizer"), vocab_size=vocab,
        model_type="bpe", byte_fallback=True, character_coverage=1.0,
        normalization_rule_name="identity", remove_extra_whitespaces=False,
        allow_whitespace_only_pieces=True, split_digits=True, max_sentence_length=8192,
        unk_id=0, bos_id=1, eos_id=2, pad_id=-1, num_threads=2, minloglevel=2)
    lines.unlink()


def encode(sp: spm.SentencePieceProcessor, text: str) -> np.ndarray:
    """Token ids of ``text``, line by line (sentencepiece's trainer saw lines; "\\n" is a byte)."""
    newline = sp.piece_to_id("<0x0A>")
    ids: list[int] = []
    for line in text.split("\n"):
        ids.extend(sp.encode(line, add_bos=False) if line else [])
        ids.append(newline)
    return np.asarray(ids, dtype=np.int32)


# ---------------------------------------------------------------- training

def batch(streams: list[np.ndarray], size: int, length: int, rng: np.random.Generator,
          bos: int) -> torch.Tensor:
    """Half code, half prose windows, each after a BOS token (llama.cpp adds one to prompts)."""
    rows = []
    for i in range(size):
        stream = streams[i % len(streams)]
        at = int(rng.integers(0, len(stream) - length))
        rows.append(np.concatenate([[bos], stream[at:at + length - 1]]))
    return torch.from_numpy(np.stack(rows).astype(np.int64))


def learning_rate(peak: float, step: int, elapsed: float, budget: float) -> float:
    warm = min(1.0, (step + 1) / 150)
    done = min(1.0, elapsed / budget)
    return peak * warm * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * done)))


@torch.no_grad()
def held_out_loss(model: MixtralForCausalLM, streams: list[np.ndarray], length: int,
                  bos: int) -> list[float]:
    model.eval()
    rng = np.random.default_rng(123)
    losses = []
    for stream in streams:
        x = batch([stream], 16, length, rng, bos)
        losses.append(float(model(input_ids=x, labels=x, output_router_logits=False).loss))
    model.train()
    return losses


# A base model continues text: the "chat" is the messages' text itself, so that the engine's
# chat layer hands the model plain text (the GGUF carries it as tokenizer.chat_template).
PLAIN_TEMPLATE = "{% for message in messages %}{{ message['content'] }}{% endfor %}"


def write_tokenizer_config(hf: pathlib.Path, context: int) -> None:
    (hf / "tokenizer_config.json").write_text(json.dumps(
        {"add_bos_token": True, "add_eos_token": False, "bos_token": "<s>", "eos_token": "</s>",
         "unk_token": "<unk>", "model_max_length": context, "chat_template": PLAIN_TEMPLATE}),
        encoding="utf-8")


def export(model: MixtralForCausalLM, out: pathlib.Path) -> None:
    """config.json + model.safetensors in the classic Mixtral names (block_sparse_moe.experts.N.w1
    …), which the vendored convert_hf_to_gguf.py merges into llama.cpp's expert tensors."""
    hf = out / "hf.tmp"
    hf.mkdir(parents=True, exist_ok=True)
    cfg = model.config
    tensors: dict[str, torch.Tensor] = {}
    for name, value in model.state_dict().items():
        value = value.detach().to(torch.float32).contiguous()
        if ".mlp.experts.gate_up_proj" in name:
            base = name.replace(".mlp.experts.gate_up_proj", ".block_sparse_moe.experts")
            for e in range(cfg.num_local_experts):
                gate, up = value[e].chunk(2, dim=0)
                tensors[f"{base}.{e}.w1.weight"] = gate.contiguous()
                tensors[f"{base}.{e}.w3.weight"] = up.contiguous()
        elif ".mlp.experts.down_proj" in name:
            base = name.replace(".mlp.experts.down_proj", ".block_sparse_moe.experts")
            for e in range(cfg.num_local_experts):
                tensors[f"{base}.{e}.w2.weight"] = value[e].contiguous()
        else:
            tensors[name.replace(".mlp.gate.", ".block_sparse_moe.gate.")] = value
    save_file(tensors, str(hf / "model.safetensors"), metadata={"format": "pt"})
    config = cfg.to_dict()
    config.update(architectures=["MixtralForCausalLM"], model_type="mixtral", rope_theta=10000.0,
                  torch_dtype="float32")
    (hf / "config.json").write_text(json.dumps(config, indent=1, default=str), encoding="utf-8")
    write_tokenizer_config(hf, cfg.max_position_embeddings)
    (hf / "tokenizer.model").write_bytes((out / "tokenizer.model").read_bytes())
    final = out / "hf"
    if final.exists():
        for child in final.iterdir():
            child.unlink()
        final.rmdir()
    hf.rename(final)


def build_model(config: MixtralConfig) -> MixtralForCausalLM:
    """transformers' grouped expert matmul: ~25% faster a step on two CPU cores than its loop."""
    try:
        return MixtralForCausalLM._from_config(config, experts_implementation="grouped_mm")
    except (ValueError, ImportError, TypeError):
        return MixtralForCausalLM(config)


def load_export(model: MixtralForCausalLM, hf: pathlib.Path) -> None:
    """The inverse of ``export``: weights from ``hf/model.safetensors`` (classic names) into
    ``model`` (``--resume``: a run cut short goes on from its last checkpoint)."""
    from safetensors.torch import load_file  # noqa: PLC0415 - only when resuming

    saved, n = load_file(str(hf / "model.safetensors")), model.config.num_local_experts
    state = {}
    for name in model.state_dict():
        base = name.replace(".mlp.experts.gate_up_proj", ".block_sparse_moe.experts") \
            .replace(".mlp.experts.down_proj", ".block_sparse_moe.experts")
        if name.endswith("gate_up_proj"):
            state[name] = torch.stack([torch.cat([saved[f"{base}.{e}.w1.weight"],
                                                  saved[f"{base}.{e}.w3.weight"]]) for e in range(n)])
        elif name.endswith("down_proj"):
            state[name] = torch.stack([saved[f"{base}.{e}.w2.weight"] for e in range(n)])
        else:
            state[name] = saved[name.replace(".mlp.gate.", ".block_sparse_moe.gate.")]
    model.load_state_dict(state)


def train(args: argparse.Namespace, out: pathlib.Path) -> None:
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    sp = spm.SentencePieceProcessor(model_file=str(out / "tokenizer.model"))
    corpora = json.loads((out / "corpora.json").read_text(encoding="utf-8"))
    train_streams = [encode(sp, corpora["train"][k]) for k in ("code", "prose")]
    held_streams = [encode(sp, corpora["heldout"][k]) for k in ("code", "prose")]
    log(f"tokens: train code {len(train_streams[0])}, prose {len(train_streams[1])}; held-out "
        f"code {len(held_streams[0])}, prose {len(held_streams[1])}")
    model = build_model(model_config(sp.get_piece_size()))
    if args.resume:
        load_export(model, out / "hf")
        log(f"resumed from {out / 'hf'}")
    log(f"parameters: {sum(p.numel() for p in model.parameters()) / 1e6:.2f} M")
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2 and "embed" not in n]
    other = [p for n, p in model.named_parameters() if not (p.dim() >= 2 and "embed" not in n)]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                             {"params": other, "weight_decay": 0.0}], lr=args.lr, betas=(0.9, 0.95))
    rng, start, last_save, step = np.random.default_rng(args.seed), time.time(), time.time(), 0
    budget = args.minutes * 60
    while time.time() - start < budget:
        lr = learning_rate(args.lr, step + (150 if args.resume else 0), time.time() - start, budget)
        for group in opt.param_groups:
            group["lr"] = lr
        x = batch(train_streams, args.batch, args.length, rng, sp.bos_id())
        result = model(input_ids=x, labels=x, output_router_logits=True)
        opt.zero_grad(set_to_none=True)
        result.loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        step += 1
        if step % 20 == 0:
            ce = float(result.loss) - model.config.router_aux_loss_coef * float(result.aux_loss)
            log(f"step {step} t={time.time() - start:.0f}s lr={lr:.2e} ce={ce:.3f} "
                f"aux={float(result.aux_loss):.3f}")
        if time.time() - last_save > args.save_every * 60:
            checkpoint(model, out, held_streams, args, step)
            last_save = time.time()
    checkpoint(model, out, held_streams, args, step)
    log("done")


def checkpoint(model: MixtralForCausalLM, out: pathlib.Path, held: list[np.ndarray],
               args: argparse.Namespace, step: int) -> None:
    code, prose = held_out_loss(model, held, args.length, 1)
    export(model, out)
    log(f"checkpoint step {step}: held-out loss code {code:.3f} prose {prose:.3f} -> {out / 'hf'}")


def log(line: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {line}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=pathlib.Path, required=True)
    parser.add_argument("--prose", type=pathlib.Path, required=True,
                        help="Tiny Shakespeare's input.txt (karpathy/char-rnn)")
    parser.add_argument("--minutes", type=float, default=40.0)
    parser.add_argument("--vocab", type=int, default=2048)
    parser.add_argument("--batch", type=int, default=24)
    parser.add_argument("--length", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--save-every", type=float, default=5.0, help="minutes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--resume", action="store_true",
                        help="go on from OUT/hf (a cut or too short run), new schedule, no warm-up")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    corpora = read_corpora(args.prose)
    if not args.resume:                  # a resumed run keeps its text split and tokenizer
        (args.out / "corpora.json").write_text(json.dumps(corpora), encoding="utf-8")
        write_prompts(corpora, args.out)
        train_tokenizer(corpora, args.out, args.vocab)
    log(f"text: code {len(corpora['train']['code'])} chars, prose {len(corpora['train']['prose'])}"
        f" chars (held out: {len(corpora['heldout']['code'])}, {len(corpora['heldout']['prose'])})")
    train(args, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
