"""How a miss is paid for: the processor computes it, or its expert is copied to the graphics card.

When an expert a token needs is not in a GPU slot, the processor computes it from the weights
in system memory (a miss), and the residency policy may also copy it into a slot for the
tokens that follow (an upload). The two use different parts of the machine: uploads the
PCIe link, misses the processor and its memory. At load the slot cache measures both
(``llama_slot_cache_probe``, under 200 ms): host->GPU copies from page-locked and from
ordinary memory, and the processor computing experts from the weights, each in GB/s of
expert weights. The rule (after FreeToken's split of misses by measured bandwidth): a
layer may upload, per token, about as many experts as the link can copy in the time the
processor spends on that layer's misses (about half of the k routed experts at the budgets
an 8 GB card allows). When the processor is much faster than the link, misses stay on the
processor and few uploads run; when the link is faster, every miss may be uploaded.
"""

from __future__ import annotations

from engine.messages import msg
from engine.recipe import TransferFigures, TransferRule

# The share of a token's routed experts that miss at the slot budgets an 8 GB card allows
# (the residency simulator: 60-72% hits at a quarter of a layer's experts).
PLANNED_MISS_SHARE = 0.5


def upload_rule(figures: TransferFigures, k: int, pinned_weights: bool = False) -> TransferRule:
    """The cap for ``k`` routed experts a token; the link is the pinned path when the weights
    are page-locked, otherwise staging through pinned memory, which is no faster than the
    slower of the two measured copies."""
    measured = [gbs for gbs in (figures.pinned_gbs, figures.pageable_gbs) if gbs > 0]
    link = figures.pinned_gbs if pinned_weights else min(measured, default=0.0)
    if link <= 0 or figures.cpu_gbs <= 0:
        return TransferRule(k, link, figures, msg("plan.transfer_unmeasured"))
    cap = max(1, min(k, round(k * PLANNED_MISS_SHARE * link / figures.cpu_gbs)))
    code = "plan.transfer_cpu_faster" if figures.cpu_gbs > link else "plan.transfer_link_faster"
    reason = msg(code, cpu=f"{figures.cpu_gbs:.1f}", link=f"{link:.1f}", cap=cap, k=k)
    return TransferRule(cap, round(link, 2), figures, reason)
