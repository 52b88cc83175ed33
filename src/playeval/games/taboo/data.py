"""Loading the word lists shipped with the package (see data/PROVENANCE.md), and their two halves."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from playeval.core.errors import ConfigError
from playeval.core.match import MatchSpec

CATEGORIES: tuple[str, ...] = ("animals", "places", "food")
LEVEL_CATEGORIES: dict[int, str] = {1: "animals", 2: "places", 3: "food"}
SPLIT_SETS: tuple[str, str] = ("set1", "set2")
"""Two disjoint halves of every word list, for a held-out comparison (GameArena's Set 1 against Set 2): ``set1``
holds the words at even positions of each list, ``set2`` those at odd positions. Taking every other word, rather
than the first half, keeps the common words (which open each list) and the rarer ones in both halves."""


@cache
def load_words(category: str) -> tuple[str, ...]:
    """The secret words of a category: ``animals``, ``places`` or ``food`` (lowercase, written for playeval)."""
    if category not in CATEGORIES:
        raise ConfigError(f"unknown taboo word list {category!r}; known: {', '.join(CATEGORIES)}")
    raw = json.loads(files("playeval.games.taboo").joinpath("data", f"{category}.json").read_text("utf-8"))
    return tuple(str(word) for word in raw)


@cache
def split_words(category: str, half: str) -> tuple[str, ...]:
    """The words of ``category`` in the named half (``set1`` or ``set2``, see :data:`SPLIT_SETS`). No word is in
    two lists, so the two halves share no word across all the lists either."""
    if half not in SPLIT_SETS:
        raise ConfigError(f"unknown taboo half {half!r}; known: {', '.join(SPLIT_SETS)}")
    return load_words(category)[SPLIT_SETS.index(half)::2]


def category_of(spec: MatchSpec) -> str:
    """The word list a match draws from: its ``secret_set`` when that names a list, else its level's list (a
    half, ``set1`` or ``set2``, is a half of the level's list)."""
    named = spec.params.get("secret_set")
    if named and str(named) in CATEGORIES:
        return str(named)
    return LEVEL_CATEGORIES.get(spec.level, CATEGORIES[0])


def word_pool(spec: MatchSpec) -> tuple[str, ...]:
    """The words a match's secret was drawn from, read from its public settings (``params`` and level) alone: what
    a player may know without seeing the secret (a baseline's guesses, the scripted guesser's candidates)."""
    named = spec.params.get("secret_set")
    if named and str(named) in SPLIT_SETS:
        return split_words(category_of(spec), str(named))
    return load_words(category_of(spec))
