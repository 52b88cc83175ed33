"""Loading the secret-object sets shipped with the package (see data/PROVENANCE.md).

``set2-only`` is Set 2 without what Set 1 also holds, so that ``set1`` and ``set2-only`` share no secret
(``Akinator.split_sets``, for a held-out comparison): the four objects in both of the paper's sets, and Set 2's
side of the four pairs of near-duplicates that name the same thing in other words (a couch for a sofa). The
paper's ``set2`` itself stays as published.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from playeval.core.errors import ConfigError
from playeval.core.normalize import normalize_name

SECRET_SETS = ("everyday", "set1", "set2", "set2-only")
SPLIT_SETS = ("set1", "set2-only")
"""Two sets that share no secret (``Game.split_sets``)."""
NEAR_DUPLICATES: tuple[tuple[str, str], ...] = (
    ("a sofa", "a couch"),
    ("a gaming console", "a video game console"),
    ("a fan", "a ceiling fan"),
    ("an armchair", "a recliner"),
)
"""(Set 1's object, Set 2's) pairs that name the same thing, or one a kind of the other (data/PROVENANCE.md)."""


def _read(name: str) -> tuple[str, ...]:
    raw = json.loads(files("playeval.games.akinator").joinpath("data", f"{name}.json").read_text("utf-8"))
    objects = [item["object"] if isinstance(item, dict) else item for item in raw]
    return tuple(str(obj) for obj in objects)


@cache
def load_secrets(name: str) -> tuple[str, ...]:
    """The objects of a named set: ``everyday`` (ours), ``set1`` and ``set2`` (the paper's Appendix B.1), and
    ``set2-only`` (Set 2 less Set 1's objects and their near-duplicates, in Set 2's order)."""
    if name not in SECRET_SETS:
        raise ConfigError(f"unknown akinator secret set {name!r}; known: {', '.join(SECRET_SETS)}")
    if name == "set2-only":
        taken = {normalize_name(obj) for obj in _read("set1")}
        taken |= {normalize_name(theirs) for _, theirs in NEAR_DUPLICATES}
        return tuple(obj for obj in _read("set2") if normalize_name(obj) not in taken)
    return _read(name)
