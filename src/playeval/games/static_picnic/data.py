"""The Static Picnic data shipped in ``data/`` (built from WordNet 3.0 by ``scripts/build_static_picnic.py``)."""

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


@cache
def load_items() -> tuple[str, ...]:
    """Every item's name, sorted."""
    raw = json.loads(files("playeval.games.static_picnic").joinpath("data/items.json").read_text("utf-8"))
    return tuple(sorted(item["name"] for item in raw["items"]))


@cache
def load_rules() -> tuple[PicnicRule, ...]:
    raw = json.loads(files("playeval.games.static_picnic").joinpath("data/rules.json").read_text("utf-8"))
    return tuple(PicnicRule(id=rule["id"], level=int(rule["level"]), statement=rule["statement"],
                            positives=tuple(rule["positives"])) for rule in raw["rules"])


def rules_of_level(level: int) -> tuple[PicnicRule, ...]:
    return tuple(rule for rule in load_rules() if rule.level == level)
