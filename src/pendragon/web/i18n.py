"""The page's translations: ``i18n/<language>.json``, one flat object of keys per language.

Every interface string and every card, knight and location name and text is in these
files; the page words everything through them. English is the reference: every language
must have exactly its keys and the same ``{placeholders}`` in each string.

>>> LANGUAGES
('en', 'ru', 'cs', 'pl')
>>> load("en")["app.title"]
'Pendragon'
>>> problems("ru")
[]
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

LANGUAGES = ("en", "ru", "cs", "pl")
I18N_DIR = Path(__file__).resolve().parent / "i18n"
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


@cache
def load(language: str) -> dict[str, str]:
    """The translation table of ``language``."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}; known: {', '.join(LANGUAGES)}")
    with open(I18N_DIR / f"{language}.json", encoding="utf-8") as handle:
        data = json.load(handle)
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        raise ValueError(f"{language}.json must map keys to strings")
    return data


def placeholders(text: str) -> set[str]:
    """The ``{names}`` used in ``text``."""
    return set(_PLACEHOLDER.findall(text))


def problems(language: str) -> list[str]:
    """What ``language`` lacks or has extra compared with English (empty when complete)."""
    reference = load("en")
    table = load(language)
    found = [f"missing key {key}" for key in reference if key not in table]
    found += [f"extra key {key}" for key in table if key not in reference]
    for key, text in table.items():
        if key in reference and placeholders(text) != placeholders(reference[key]):
            found.append(f"placeholders of {key} differ from English")
        if key in reference and not text.strip():
            found.append(f"empty text for {key}")
    return found
