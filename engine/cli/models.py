"""``python -m engine models [--json] [--folder DIR]… [--vram GB] [--ram GB]``: the models on
this computer (engine/model/finder.py), each planned for it, best first
(engine/runtime/found_models.py): the list the wizard and Settings show.
"""

from __future__ import annotations

import json
import time

GIB = 2 ** 30
SOURCES = {"lmstudio": "LM Studio", "ollama": "Ollama", "jan": "Jan", "gpt4all": "GPT4All",
           "huggingface": "Hugging Face", "downloads": "Downloads", "documents": "Documents",
           "organisation": "organisation"}


def add_models_parser(sub) -> None:
    command = sub.add_parser("models", help="the models already on this computer, best fit first")
    command.add_argument("--folder", action="append", default=[],
                         help="also search this folder (as the organisation's policy file does)")
    command.add_argument("--vram", type=float, help="pretend GPU memory in GB (0 = no GPU)")
    command.add_argument("--ram", type=float, help="pretend system memory in GB")
    command.add_argument("--preset")
    command.add_argument("--json", action="store_true")


def cmd_models(args, hardware) -> int:
    from engine.runtime.found_models import choice_to_dict, models_here

    started = time.perf_counter()
    choices = models_here(hardware, args.folder, args.preset)
    rows = [choice_to_dict(choice) for choice in choices]
    if args.json:
        print(json.dumps({"models": rows, "seconds": round(time.perf_counter() - started, 3)},
                         indent=2))
        return 0
    if not rows:
        print("No models found. Choose a model file (.gguf) in the app, or name a folder with --folder.")
        return 0
    for row in rows:
        print(_line(row))
    return 0


def _line(row: dict) -> str:
    what = ", ".join(part for part in (
        row["architecture"], f"{row['experts_used']} of {row['experts']} experts" if row["experts"] else "",
        "thinks" if row["thinks"] else "") if part)
    head = f"{row['name']}  ({SOURCES.get(row['source'], row['source'])}, " \
           f"{row['size_bytes'] / GIB:.1f} GB{', ' + what if what else ''})"
    low, high = row["words_per_second"]
    if row["fit"] == "red":
        verdict = f"too big: {row['plan'] or row['problem']}"
    elif row["problem"]:
        verdict = f"cannot be used: {row['problem']}"
    else:
        verdict = f"{row['fit']}: about {low:.0f}-{high:.0f} words a second on the {row['runs_on']}"
    return f"{head}\n    {verdict}\n    {row['path']}"
