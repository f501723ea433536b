"""On a card smaller than any setting's, the wizard names the setting it uses as fitted to
that card, in every sentence ("fits the smallest one to the 2 GB card",
then "will use the setting for laptops with an 8 GB graphics card")."""

from __future__ import annotations

from app.settings.model import Settings
from tests.app.fakes import fake_hardware
from tests.app.fakes import model_file


def _checked(make_app, qtbot, tmp_path, vram_gib):
    rotary = make_app(settings=Settings(), wizard=True, hardware=fake_hardware(vram_gib=vram_gib))
    wizard = rotary.dialogs.wizard
    qtbot.waitUntil(lambda: wizard.hardware is not None, timeout=3000)
    with qtbot.waitSignal(wizard.chooser.check_finished, timeout=3000):
        wizard.chooser.check(str(model_file(tmp_path)))
    return wizard


def test_a_2_gb_card_is_named_fitted_in_the_setting_and_the_last_page(qtbot, make_app, tmp_path):
    wizard = _checked(make_app, qtbot, tmp_path, 2)
    verdict, recipe = wizard.chooser.verdict.text(), wizard.model_page.recipe.text()
    assert "smallest" in verdict and "2.0 GB" in verdict
    assert "fitted to the 2.0 GB this card has" in recipe, recipe
    wizard.next()
    wizard.next()
    assert wizard.currentPage() is wizard.done_page
    assert "fitted to the 2.0 GB this card has" in wizard.done_page.summary.text()


def test_an_8_gb_card_is_not_said_to_be_fitted(qtbot, make_app, tmp_path):
    wizard = _checked(make_app, qtbot, tmp_path, 8)
    assert "fitted" not in wizard.model_page.recipe.text()
    assert "smallest" not in wizard.chooser.verdict.text()
