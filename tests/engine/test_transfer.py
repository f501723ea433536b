"""The upload cap from measured transfer speeds (engine/plan/transfer.py): no GPU needed."""

from __future__ import annotations

import dataclasses

import pytest

from engine.plan.transfer import upload_rule
from engine.recipe import TransferFigures, recipe_from_dict, recipe_to_dict


def figures(pinned=12.0, pageable=6.0, cpu=40.0):
    return TransferFigures(pinned_gbs=pinned, pageable_gbs=pageable, cpu_gbs=cpu, probe_s=0.1)


@pytest.mark.parametrize("pinned, pageable, cpu, pinned_weights, cap", [
    (12.0, 6.0, 40.0, False, 1),    # laptop: fast DDR5, PCIe 4.0 x8, staged copies -> 6 GB/s link
    (12.0, 6.0, 40.0, True, 1),     # pinned weights: 12 GB/s link, still < CPU -> round(1.2)
    (25.0, 12.0, 12.0, True, 8),    # desktop PCIe 4.0 x16, slow RAM: every miss may go up
    (25.0, 20.0, 20.0, False, 4),   # link as fast as the CPU: half of k
    (1.0, 0.5, 200.0, False, 1),    # never below one: a layer can still turn over
])
def test_the_cap_follows_link_over_cpu(pinned, pageable, cpu, pinned_weights, cap):
    rule = upload_rule(figures(pinned, pageable, cpu), k=8, pinned_weights=pinned_weights)
    assert rule.cap == cap
    assert rule.link_gbs == (pinned if pinned_weights else min(pinned, pageable))
    assert f"up to {rule.cap} of the 8" in str(rule.reason)


def test_unmeasured_speeds_leave_every_miss_uploadable():
    rule = upload_rule(figures(0.0, 0.0, 40.0), k=8)
    assert rule.cap == 8 and "could not be measured" in str(rule.reason)
    assert upload_rule(figures(12.0, 6.0, 0.0), k=4).cap == 4


def test_the_measured_rule_lives_in_the_slot_cache_not_in_the_recipe(cpu_recipe):
    """One object holds the measured cap (SlotCache.transfer); a recipe saved with the old
    ``transfer`` field still reads."""
    recipe = cpu_recipe(upload_cap=3)
    assert "transfer" not in {f.name for f in dataclasses.fields(recipe)}
    old = dict(recipe_to_dict(recipe), transfer=dataclasses.asdict(upload_rule(figures(), k=8)))
    assert recipe_from_dict(old) == recipe
