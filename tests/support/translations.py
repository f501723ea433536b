"""Read the translations where they live: the .ts files of resources/i18n (Qt Linguist),
through build_translations.read_ts, the reader the build itself uses."""

from __future__ import annotations

import sys
from pathlib import Path

I18N = Path(__file__).resolve().parents[2] / "resources" / "i18n"
LANGUAGES = ("ko", "zh_CN")
ENGINE_CONTEXT = "engine"


def ts_translations(language: str) -> dict[tuple[str, str], str | None]:
    """(context, English) -> the translation in ``language`` (None: not translated yet)."""
    if str(I18N) not in sys.path:
        sys.path.insert(0, str(I18N))
    from build_translations import read_ts  # resources/i18n is no package

    return read_ts(I18N / f"rotary_{language}.ts")


def engine_translations(language: str) -> dict[str, str | None]:
    """The engine catalogue's templates and their translations (context ``engine``)."""
    return {source: text for (context, source), text in ts_translations(language).items()
            if context == ENGINE_CONTEXT}
