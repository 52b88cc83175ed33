"""The Static Picnic data shipped in ``data/`` (built from WordNet 3.0 by ``scripts/build_static_picnic.py``; its
two disjoint halves of the categories by ``scripts/split_static_picnic.py``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files


@dataclass(frozen=True)
class PicnicRule:
    id: str
    level: int
    statement: str
    positives: tuple[str, ...]
    categories: tuple[str, ...] = ()
    """The ids of the categories whose items it admits (one at L1, two at L2, three at L3)."""


@cache
def load_items() -> tuple[str, ...]:
    """Every item's name, sorted."""
    raw = json.loads(files("playeval.games.static_picnic").joinpath("data/items.json").read_text("utf-8"))
    return tuple(sorted(item["name"] for item in raw["items"]))


@cache
def load_rules() -> tuple[PicnicRule, ...]:
    raw = json.loads(files("playeval.games.static_picnic").joinpath("data/rules.json").read_text("utf-8"))
    return tuple(PicnicRule(id=rule["id"], level=int(rule["level"]), statement=rule["statement"],
                            positives=tuple(rule["positives"]), categories=tuple(rule["categories"]))
                 for rule in raw["rules"])


@cache
def load_sets() -> dict[str, frozenset[str]]:
    """The two halves of the categories (``set1``, ``set2``): no category is in both."""
    raw = json.loads(files("playeval.games.static_picnic").joinpath("data/sets.json").read_text("utf-8"))
    return {name: frozenset(categories) for name, categories in raw["sets"].items()}


def rules_of_level(level: int, secret_set: str | None = None) -> tuple[PicnicRule, ...]:
    """The rules of ``level``; with ``secret_set``, only those whose every category is in that half (a rule whose
    categories straddle the halves is in neither set)."""
    rules = tuple(rule for rule in load_rules() if rule.level == level)
    if secret_set is None:
        return rules
    half = load_sets()[secret_set]
    return tuple(rule for rule in rules if set(rule.categories) <= half)
