"""Loading the word lists shipped with the package (see data/PROVENANCE.md)."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from playeval.core.errors import ConfigError

CATEGORIES: tuple[str, ...] = ("animals", "places", "food")


@cache
def load_words(category: str) -> tuple[str, ...]:
    """The secret words of a category: ``animals``, ``places`` or ``food`` (lowercase, written for playeval)."""
    if category not in CATEGORIES:
        raise ConfigError(f"unknown taboo word list {category!r}; known: {', '.join(CATEGORIES)}")
    raw = json.loads(files("playeval.games.taboo").joinpath("data", f"{category}.json").read_text("utf-8"))
    return tuple(str(word) for word in raw)
