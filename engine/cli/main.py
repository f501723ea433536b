"""``python -m engine``: check a machine and a model from the command line.

    info MODEL [--json]
    plan MODEL [--vram GB] [--ram GB] [--preset NAME] [--json]
    devices [--json] [--refresh]   what each installed llama.cpp back-end can use
         [--context N] [--threads N] [--gpu-expert-layers N] [--headroom GB]   as in Settings
    chat MODEL [--preset NAME] [--max-tokens N]
    chat --server URL [--model NAME] [--api-key-env VAR] [--ca-bundle PEM]   an office server
    trace MODEL --prompt TEXT --out t.npz [--max-tokens N] [--probs] [--hidden]   every token,
         loops included; --hidden also keeps the hidden state entering each MoE layer
      chat and trace also take the expert slot cache options:
      [--slots N | --slot-gib G | --no-slots] [--policy NAME] [--json]
      [--device NAME]              run on this device (a name from `devices`, or CPU)
    demo DIR                       write the built-in demo model
    models [--json] [--folder DIR]…   the models already on this computer, best fit first
    summarize FILE --model MODEL [--preset short] [--json]   (documents.py)
    summarize FILE --server URL [--model NAME]   the office server's model reads it
    ask FILE… --question TEXT --model MODEL [--json]   answer from the files, page references checked

Errors print one plain sentence and exit with status 2.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import sys
import threading

from engine.errors import EngineError
from engine.messages import Msg, msg


def build_parser() -> argparse.ArgumentParser:
    from engine.cli.devices import add_device_option, add_devices_parser

    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    info = sub.add_parser("info", help="what the model file contains")
    info.add_argument("model")
    info.add_argument("--json", action="store_true")
    plan = sub.add_parser("plan", help="the memory recipe for this machine (or a pretend one)")
    plan.add_argument("model")
    plan.add_argument("--vram", type=float, help="pretend GPU memory in GB (0 = no GPU)")
    plan.add_argument("--ram", type=float, help="pretend system memory in GB")
    plan.add_argument("--preset")
    _add_advanced(plan)
    plan.add_argument("--json", action="store_true")
    for name in ("chat", "trace"):
        command = sub.add_parser(name)
        command.add_argument("model", nargs="?" if name == "chat" else None)
        command.add_argument("--preset")
        command.add_argument("--max-tokens", type=int, default=256)
        command.add_argument("--temperature", type=float, default=0.7)
        command.add_argument("--seed", type=int, default=-1)
        slots = command.add_mutually_exclusive_group()
        slots.add_argument("--slots", type=int, help="expert slots per layer (0 = stock layout)")
        slots.add_argument("--slot-gib", type=float, help="expert slots in total, GiB")
        slots.add_argument("--no-slots", action="store_true", help="stock whole-layer layout")
        command.add_argument("--policy", help="residency policy (engine.residency registry)")
        command.add_argument("--json", action="store_true",
                             help="print the slot cache's counts as JSON on stdout at the end")
        add_device_option(command)
    add_devices_parser(sub)
    chat = sub.choices["chat"]
    think = chat.add_mutually_exclusive_group()
    think.add_argument("--think", dest="think", action="store_true", default=None,
                       help="think before answering (where the model's template allows)")
    think.add_argument("--no-think", dest="think", action="store_false")
    chat.add_argument("--server", help="an office server's address (OpenAI-compatible)")
    chat.add_argument("--model", dest="server_model", help="the model's name on that server")
    chat.add_argument("--api-key-env", help="environment variable holding the server's key")
    chat.add_argument("--ca-bundle", help="the office's certificate authority (PEM file)")
    trace = sub.choices["trace"]
    trace.add_argument("--prompt", required=True, action="append",
                       help="one conversation per --prompt; repeat a prompt to return to it")
    trace.add_argument("--out", required=True)
    trace.add_argument("--weights", action="store_true", help="also record gate weights")
    trace.add_argument("--probs", action="store_true",
                       help="also record the router's probabilities over all experts")
    trace.add_argument("--hidden", action="store_true",
                       help="also record the normalised hidden state entering each MoE layer")
    demo = sub.add_parser("demo", help="write the built-in demo model")
    demo.add_argument("directory")
    from engine.cli.documents import add_ask_parser, add_summarize_parser

    add_summarize_parser(sub)
    add_ask_parser(sub)
    from engine.cli.models import add_models_parser

    add_models_parser(sub)
    return parser


def _add_advanced(parser: argparse.ArgumentParser) -> None:
    """The Advanced values of the app's Settings, planned by the same entry point."""
    parser.add_argument("--context", type=int, help="conversation memory, tokens")
    parser.add_argument("--threads", type=int, help="processor cores used")
    parser.add_argument("--gpu-expert-layers", type=int,
                        help="expert layers on the graphics card (a forced layout: no slots)")
    parser.add_argument("--headroom", type=float,
                        help="graphics memory kept free, GB (the preset's otherwise)")


def _advanced(args) -> dict[str, int]:
    """--context/--threads/... in the planner's names (engine/plan/advanced.py)."""
    chosen = {"n_ctx": args.context, "n_threads": args.threads,
              "gpu_expert_layers": args.gpu_expert_layers,
              "vram_headroom_mib": None if args.headroom is None else round(args.headroom * 1024)}
    return {name: value for name, value in chosen.items() if value is not None}


def cmd_info(args) -> int:
    from engine.model.inspect_gguf import inspect_model, summarize

    facts = inspect_model(args.model)
    summary = summarize(facts)
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    for key, value in summary.items():
        if not isinstance(value, (list, dict)):
            print(f"{key:>22}: {value}")
    print(f"{'dense bytes':>22}: {facts.dense_bytes / 2**30:.2f} GiB")
    print(f"{'expert bytes':>22}: {facts.expert_bytes / 2**30:.2f} GiB")
    return 0


def _hardware(args):
    from engine.plan.hardware import HardwareInfo, probe

    if args.vram is None and args.ram is None:
        return probe()
    real = probe()
    ram = args.ram if args.ram is not None else real.ram_total_bytes / 1e9
    # pretend() takes the card's nominal size (8 → 8188 MiB as NVML reports it).
    vram = args.vram if args.vram is not None else (
        round(real.gpus[0].total_bytes / 2**30) if real.gpus else 0)
    return HardwareInfo.pretend(vram_gb=vram, ram_gb=ram, cores=real.cpu_physical_cores)


def cmd_plan(args) -> int:
    from engine.recipe import recipe_to_dict
    from engine.runtime.planning import plan_model
    from engine.cli.devices import planned_device

    planned = plan_model(args.model, _hardware(args), args.preset, _advanced(args))
    recipe, summary, hardware = planned.recipe, planned.summary, planned.hardware
    if args.json:
        print(json.dumps({"recipe": recipe_to_dict(recipe), "fit": summary.level,
                          "summary": str(summary.text),
                          "planned_for": planned_device(hardware)}, indent=2))
        return 0
    print(summary.text, f"[{summary.level}]")
    for card in hardware.unused_gpus:
        print(f"not used: {card.why_unused}")
    for field in dataclasses.fields(recipe):
        if field.name not in ("vram", "ram"):
            print(f"{field.name:>18}: {_plain(getattr(recipe, field.name))}")
    for device in ("vram", "ram"):
        estimate = getattr(recipe, device)
        parts = ", ".join(f"{f.name.removesuffix('_bytes')} {getattr(estimate, f.name) / 2**30:.2f}"
                          for f in dataclasses.fields(estimate))
        print(f"{device.upper():>18}: {estimate.total_bytes / 2**30:.2f} GiB ({parts})")
    return 0


def _plain(value):
    """A recipe field as IT reads it: a note (a catalogue message) in English."""
    return str(value) if isinstance(value, Msg) else value


def _load(args, with_weights: bool = False, with_hidden: bool = False, with_probs: bool = False,
          record_routing: bool = False):
    from engine.api import LoadRequest
    from engine.cli.devices import use_device
    from engine.runtime.loader import load_with_fallback

    use_device(getattr(args, "device", None))    # before llama_cpp is imported
    request = LoadRequest(model_path=args.model, recipe=_cli_recipe(args),
                          record_routing=record_routing)
    loaded = load_with_fallback(request, lambda f, m: None,
                                lambda r: print(f"[{r.note}]", file=sys.stderr), with_weights,
                                with_hidden, with_probs)
    for prepare in getattr(args, "prepare", ()):   # a tool's steps (tools/routing_replay.py)
        prepare(loaded)
    return loaded


def _cli_recipe(args):
    """The planner's recipe with the slot options applied; on a machine without a GPU,
    ``--slots N`` still gives every MoE layer N slots (CPU banks: counts, not speed)."""
    from engine.model.inspect_gguf import inspect_model
    from engine.plan.hardware import probe
    from engine.runtime.planning import SlotChoice, plan_recipe

    facts = inspect_model(args.model)
    choice = SlotChoice(args.slots, args.slot_gib, args.policy, off=args.no_slots)
    recipe = plan_recipe(facts, probe(), args.preset, slots=choice)
    if args.slots and not recipe.expert_slots and recipe.n_gpu_layers == 0 and facts.is_moe:
        counts = [args.slots if i in facts.moe_layers else 0 for i in range(facts.n_layers)]
        recipe = dataclasses.replace(recipe, expert_slots=tuple(counts),
                                     residency_policy=args.policy or recipe.residency_policy)
    return recipe


def _print_slot_json(loaded, decode_tps: list[float], turns: list[dict] | None = None) -> None:
    cache = loaded.native.slot_cache
    totals = cache.totals if cache is not None else None
    recipe = loaded.recipe
    print(json.dumps({
        "slot_cache": cache is not None, "note": _plain(loaded.native.slot_cache_note),
        "policy": recipe.residency_policy if cache is not None else None,
        "slots_per_layer": dict(zip(map(str, cache.layers), cache.slots)) if cache else {},
        "slot_bytes": cache.bank_bytes if cache else 0,
        "decode_steps": totals.steps if totals else 0,
        "hits": totals.hits if totals else 0, "misses": totals.misses if totals else 0,
        "hit_rate": totals.hit_rate if totals else None,
        "uploads": totals.uploads if totals else 0,
        "uploaded_bytes": totals.uploaded_bytes if totals else 0,
        "restored_bytes": totals.restored_bytes if totals else 0,
        "counters": cache.counters() if cache else {},
        "upload_cap": cache.policy.upload_cap if cache else None,
        "transfer": _transfer(cache),
        "prompt_note": _plain(recipe.prompt_note),
        "decode_tps": decode_tps,
        "turns": turns or [],
        "placement": _placement_json(loaded.placement)}, indent=2))


def _turn_json(stats) -> dict:
    """One answer's reading: tokens read, tokens reused and where the reused state came from."""
    return {"prompt_tokens": stats.prompt_tokens, "reused_tokens": stats.reused_tokens,
            "reuse": str(stats.reuse), "ttft_s": round(stats.ttft_s, 4),
            "generated_tokens": stats.generated_tokens}


def _placement_json(placement) -> dict | None:
    """What the loaded model placed on each device (never the plan)."""
    if placement is None:
        return None
    return {"backend": placement.backend, "summary": _plain(placement.message),
            "gpu": placement.gpu.device if placement.gpu else None,
            "devices": [dict(dataclasses.asdict(d), total_bytes=d.total_bytes)
                        for d in placement.devices]}


def _transfer(cache) -> dict | None:
    """The upload cap measured at load (it lives in the slot cache), as JSON."""
    rule = cache.transfer if cache is not None else None
    if rule is None:
        return None
    return dict(dataclasses.asdict(rule), reason=str(rule.reason))


def _chat_request(args, messages):
    from engine.api import ChatRequest

    return ChatRequest(messages=tuple(messages), max_tokens=args.max_tokens,
                       temperature=args.temperature, seed=args.seed,
                       think=getattr(args, "think", None), conversation_id=1)


def cmd_chat(args) -> int:
    from engine.api import ChatMessage

    if args.server:
        from engine.cli.remote import run_chat
        return run_chat(args)
    if not args.model:
        raise EngineError(msg("engine.name_a_model"))
    loaded, history, speeds, turns = _load(args), [], [], []
    print(loaded.summary, "\nType a message; an empty line quits.", file=sys.stderr)
    try:
        for line in sys.stdin:
            if not line.strip():
                break
            history.append(ChatMessage("user", line.strip()))
            run = loaded.start_chat(_chat_request(args, history), threading.Event(),
                                    conversation=True)
            out = sys.stderr if args.json else sys.stdout   # stdout keeps only the JSON
            for record in run.records():
                if record.thinking:             # thinking apart, on stderr: not the answer
                    print(record.thinking, end="", flush=True, file=sys.stderr)
                print(record.text, end="", flush=True, file=out)
            print(file=out)
            history.append(ChatMessage("assistant", run.text))
            stats = run.stats
            speeds.append(round(stats.decode_tps, 2))
            turns.append(_turn_json(stats))
            print(f"\n[reading {stats.prompt_tps:.1f} tok/s, writing {stats.decode_tps:.1f} tok/s; "
                  f"read {stats.prompt_tokens} tokens, {stats.reused_tokens} kept ({stats.reuse})]",
                  file=sys.stderr)
        if args.json:
            _print_slot_json(loaded, speeds, turns)
    finally:
        loaded.close()
    return 0


def cmd_trace(args) -> int:
    from engine.runtime.experts.predictor import prediction_accuracy
    from engine.residency.trace import save_trace

    loaded = _load(args, with_weights=args.weights, with_hidden=True, with_probs=args.probs,
                   record_routing=True)
    try:
        if not loaded.facts.is_moe:
            raise EngineError(msg("engine.no_experts_to_record"))
        steps, contexts = _record_conversations(loaded, args)
        trace = loaded.routing_trace(steps)
        meta = dict(trace.meta, contexts=contexts)
        save_trace(args.out, trace.ids, trace.weights, meta, pred=trace.pred, probs=trace.probs,
                   hidden=trace.hidden if args.hidden else None)
        if args.json:
            _print_slot_json(loaded, [])
    finally:
        loaded.close()
    ids = trace.ids
    print(f"{ids.shape[0]} tokens × {ids.shape[1]} layers × top-{ids.shape[2]} → {args.out}")
    if trace.pred is not None:
        print(f"next-layer prediction from hidden states: "
              f"{prediction_accuracy(trace.pred, ids):.0%} of experts")
    return 0


def _record_conversations(loaded, args) -> tuple[list, list]:
    """One fresh conversation per --prompt; a repeated prompt returns to its context id.
    Each runs its full length: a measurement records a looping model's routing too."""
    from engine.api import ChatMessage

    steps: list = []
    contexts: list[list] = []
    context_ids: dict[str, str] = {}
    for prompt in args.prompt:
        context_id = context_ids.setdefault(prompt, f"c{len(context_ids)}")
        contexts.append([len(steps), context_id])
        request = dataclasses.replace(_chat_request(args, [ChatMessage("user", prompt)]),
                                      conversation_id=list(context_ids).index(prompt),
                                      stop_loops=False)
        run = loaded.start_chat(request, threading.Event())
        for _ in run.records():
            pass
        steps.extend(run.routing)
    return steps, contexts


def cmd_devices(args) -> int:
    from engine.cli.devices import cmd_devices as run

    return run(args)


def cmd_demo(args) -> int:
    from engine.demo.demo_model import ensure_demo_model

    print(ensure_demo_model(args.directory))
    return 0


def cmd_ask(args) -> int:
    from engine.cli.documents import cmd_ask as run

    return run(args)


def cmd_models(args) -> int:
    from engine.cli.models import cmd_models as run

    return run(args, _hardware(args))


def cmd_summarize(args) -> int:
    from engine.cli.documents import cmd_summarize as run

    return run(args)


COMMANDS = {"info": cmd_info, "plan": cmd_plan, "chat": cmd_chat, "trace": cmd_trace,
            "devices": cmd_devices, "demo": cmd_demo, "summarize": cmd_summarize, "ask": cmd_ask,
            "models": cmd_models}


def main(argv: list[str] | None = None) -> int:
    return run(build_parser().parse_args(argv))


def run(args: argparse.Namespace) -> int:
    """One parsed command, its errors as one plain sentence (status 2)."""
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    logging.getLogger("rotary.llama").setLevel(logging.ERROR)   # llama.cpp is chatty
    try:
        return COMMANDS[args.command](args)
    except EngineError as error:
        print(error.message, file=sys.stderr)
        if error.details:
            print(f"  details: {error.details.splitlines()[0]}", file=sys.stderr)
        return 2
