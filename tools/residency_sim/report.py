"""Tables, JSON and a plot from simulator result rows (see ``RunResult.row``)."""

from __future__ import annotations

import json
from collections import defaultdict

BASELINES_FOR_GAP = ("lru", "lfu", "lfru")


def _by_trace(rows: list[dict]) -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        grouped[row["trace"]].append(row)
    return grouped


def gap_closed(rows: list[dict], policy: str = "rotary") -> dict[float, float | None]:
    """Per budget: (policy - best simple) / (OPT - best simple), one trace's rows."""
    cell = {(r["policy"], r["fraction"]): r["hit_rate"] for r in rows}
    closed = {}
    for fraction in sorted({r["fraction"] for r in rows}):
        base = [cell.get((b, fraction)) for b in BASELINES_FOR_GAP]
        base = [b for b in base if b is not None]
        opt, mine = cell.get(("opt", fraction)), cell.get((policy, fraction))
        if not base or opt is None or mine is None:
            continue
        best = max(base)
        closed[fraction] = (mine - best) / (opt - best) if opt > best + 1e-12 else None
    return closed


def table(rows: list[dict], errors: list[str] = ()) -> str:
    """Plain-text table: per trace, policy rows x budget columns of hit rate and tokens/s."""
    lines = []
    for trace, trace_rows in _by_trace(rows).items():
        lines += _trace_table(trace, trace_rows) + [""]
    lines += [f"skipped: {e}" for e in dict.fromkeys(errors)]
    lines.append("OPT: Belady with the one-step delay, the upload cap and bypass (optimal demand admission)")
    return "\n".join(lines)


def _trace_table(trace: str, rows: list[dict]) -> list[str]:
    fractions = sorted({r["fraction"] for r in rows})
    cell = {(r["policy"], r["fraction"]): r for r in rows}
    policies = list(dict.fromkeys(r["policy"] for r in rows))
    width = max(16, 2 + max(len(p) for p in policies))
    lines = [f"== {trace}  (hit rate % | MODELLED decode t/s | uploads/token)",
             f"{'policy':<{width}}" + "".join(f"{f * 100:>22.1f}%" for f in fractions)]
    for policy in policies:
        lines.append(f"{policy:<{width}}" + "".join(_cell(cell.get((policy, f))) for f in fractions))
    for policy in [p for p in policies if p.startswith("rotary")]:
        closed = gap_closed(rows, policy)
        text = "  ".join(f"{f * 100:.1f}%: {'n/a' if v is None else f'{v:+.2f}'}" for f, v in closed.items())
        lines.append(f"  gap to OPT closed by {policy} (vs best of LRU/LFU/LFRU): {text}")
    return lines


def _cell(row: dict | None) -> str:
    if row is None:
        return f"{'-':>23}"
    return f"{row['hit_rate'] * 100:>8.1f} |{row['tokens_per_s']:>6.1f} |{row['uploads_per_token']:>5.1f}"


def write_json(path: str, rows: list[dict], settings: dict, errors: list[str] = ()) -> None:
    grouped = _by_trace(rows)
    gaps = {trace: {str(f): v for f, v in gap_closed(rs).items()} for trace, rs in grouped.items()}
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"settings": settings, "results": rows, "gap_closed_by_rotary": gaps,
                   "skipped": list(dict.fromkeys(errors))}, handle, indent=1)


def plot(rows: list[dict], path: str) -> None:
    """Hit rate vs budget per policy, one panel per trace (matplotlib, Agg backend)."""
    import matplotlib  # noqa: PLC0415 - the optional plot extra, only when plotting
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    grouped = _by_trace(rows)
    cols = min(3, len(grouped))
    nrows = (len(grouped) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(5 * cols, 3.8 * nrows), squeeze=False)
    for ax, (trace, trace_rows) in zip(axes.flat, grouped.items()):
        _panel(ax, trace, trace_rows)
    for ax in list(axes.flat)[len(grouped):]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _panel(ax, trace: str, rows: list[dict]) -> None:
    for policy in dict.fromkeys(r["policy"] for r in rows):
        points = sorted((r["fraction"], r["hit_rate"]) for r in rows if r["policy"] == policy)
        style = "--" if policy == "opt" else "-"
        width = 2.5 if policy.startswith("rotary") else 1.2
        ax.plot([p[0] * 100 for p in points], [p[1] * 100 for p in points], style,
                marker="o", markersize=3, linewidth=width, label=policy)
    ax.set_title(trace, fontsize=9)
    ax.set_xlabel("GPU slots, % of a layer's experts")
    ax.set_ylabel("decode hit rate, %")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
