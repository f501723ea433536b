"""``python -m engine devices [--json] [--refresh]``: what each installed back-end can use.

One row per device of every back-end variant (engine/native/backends.py): back-end, ggml's
device name (what ``engine chat MODEL --device NAME`` takes), type, memory; then the device
Rotary chooses and the graphics cards it sees but cannot use, with what to do; and where
two back-ends serve one card, what the load's probe measured (engine/runtime/devices/backend_probe.py).
"""

from __future__ import annotations

import dataclasses
import json

from engine.errors import EngineError
from engine.messages import msg

GIB = 2 ** 30


def add_devices_parser(sub) -> None:
    command = sub.add_parser("devices", help="the devices each installed llama.cpp back-end can use")
    command.add_argument("--json", action="store_true")
    command.add_argument("--refresh", action="store_true",
                         help="ask every back-end again (the list is kept until the next boot)")


def add_device_option(command) -> None:
    command.add_argument("--device", help="run on this device (a name from `engine devices`, "
                                          "or CPU); default: the best one found")


def use_device(name: str | None) -> None:
    """Choose ``name``'s back-end before llama_cpp is imported (``--device``)."""
    from engine.native import backends

    if not name:
        return
    try:
        backends.select(name)
    except LookupError as error:
        raise EngineError(msg("hardware.no_such_device", name=name)) from error


def planned_device(hardware) -> dict:
    """The device a plan is for, and the cards seen but not used (``engine plan``)."""
    gpu = hardware.gpus[0] if hardware.gpus else None
    return {"device": (gpu.device or None) if gpu else "CPU",
            "backend": (gpu.backend or None) if gpu else "CPU",
            "name": gpu.name if gpu else "processor", "pretend": hardware.is_pretend,
            "unused_gpus": [{"name": g.name, "why": str(g.why_unused)}
                            for g in hardware.unused_gpus]}


def report(refresh: bool = False) -> dict:
    from engine.native import backends
    from engine.plan.hardware import _probe_gpus, usable_gpus
    from engine.runtime.devices.backend_probe import remembered

    listing = backends.device_listing(refresh=refresh)
    choice = backends.choose(listing) if listing else None
    nvml, _, _ = _probe_gpus()
    _, unused = usable_gpus(nvml, choice) if choice else ((), ())
    return {
        "variants": [{"variant": item.variant.name, "folder": item.variant.folder,
                      "error": item.error, "note": item.note, "seconds": round(item.seconds, 3),
                      "devices": [dataclasses.asdict(d) for d in item.devices]}
                     for item in listing],
        "chosen": None if choice is None else {
            "variant": choice.variant.name, "device": choice.device_name,
            "name": choice.device.description if choice.device else "processor"},
        "unused_gpus": [{"name": g.name, "why": str(g.why_unused)} for g in unused],
        "measured": remembered(),
        "processor": processor_code(),
        "unused_backends": backends.not_used(choice) if choice else []}


def cmd_devices(args) -> int:
    data = report(args.refresh)
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    print(f"{'back-end':<10} {'device':<10} {'type':<6} {'memory':>17}  name")
    for variant in data["variants"]:
        if variant["error"]:
            print(f"{variant['variant']:<10} (could not start: {variant['error']})")
        for d in variant["devices"]:
            memory = f"{d['free_bytes'] / GIB:.1f}/{d['total_bytes'] / GIB:.1f} GiB"
            print(f"{d['backend']:<10} {d['name']:<10} {d['kind']:<6} {memory:>17}  "
                  f"{d['description']}  [{variant['variant']}]")
    if not data["variants"]:
        print("no llama.cpp back-end is installed")
    if data["chosen"]:
        chosen = data["chosen"]
        print(f"\nRotary runs on: {chosen['device']} ({chosen['name']}), "
              f"back-end {chosen['variant']}")
    for gpu in data["unused_gpus"]:
        print(f"not used: {gpu['name']}: {gpu['why']}")
    for row in data["measured"]:
        speeds = ", ".join(f"{r['variant']} {r['device']} "
                           + (f"{r['decode_tps']:.1f} tokens/s" if not r["error"] else "failed")
                           for r in row["results"])
        print(f"measured on {row['card']} for {row['family']}: {speeds}; "
              f"runs {row['winner'] or 'by the rule'}")
    for line in data["processor"]["lines"]:
        print(line)
    for line in data["unused_backends"]:
        print(line)
    return 0


def processor_code() -> dict:
    """Which build of the CPU back-end runs (engine/native/cpu_isa.py) for each weight kind the
    calibration measures: the measured fastest, or the flags' choice until it has run; and the
    one this process loaded, if it did. ``lines``: the same in words (the message catalogue)."""
    from engine.native import backends, cpu_isa
    from engine.native import cpu_isa_record as record

    root, path = backends.backends_root(), backends.calibration_path()
    found = cpu_isa.measurement(root, path)
    rows = []
    for kind in cpu_isa.WEIGHT_KINDS:
        choice = cpu_isa.plan(root, weights=kind, measurements=path)
        rows.append({"weights": kind, "variant": choice.name, "label": choice.label,
                     "basis": choice.basis, "score": round(choice.score, 3),
                     **{m: round(r, 3) for m, r in record.ratios(found, kind, choice.name).items()},
                     "reason": choice.reason})
    choice = cpu_isa.active() or cpu_isa.plan(root, weights="")
    return {"variant": choice.name, "label": choice.label, "reason": choice.reason,
            "folder": choice.variant.folder if choice.variant else None,
            "by_weights": rows, "lines": [str(line) for line in _code_lines(rows)]}


def _code_lines(rows: list[dict]) -> list:
    first = rows[0]
    if not first["basis"]:          # asked for, or nothing to choose: the same for every kind
        asked = first["reason"].startswith("ROTARY_CPU_ISA")
        return [msg("hardware.processor_code_asked" if asked else "hardware.processor_code_only",
                    label=first["label"], variant=first["variant"])]
    lines = [msg("hardware.processor_code_heading")]
    for row in rows:
        if row["basis"] == "measured":
            lines.append(msg("hardware.processor_code_measured", weights=row["weights"],
                             label=row["label"], variant=row["variant"], score=row["score"]))
        else:
            lines.append(msg("hardware.processor_code_flags", weights=row["weights"],
                             label=row["label"], variant=row["variant"]))
    return lines
