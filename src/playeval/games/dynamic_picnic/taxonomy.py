"""The five kinds of rule a Dynamic Picnic game master writes (GuessTheRuleBench section 4.2), and the three
levels as the game master and the classifier are told them. Descriptions are playeval's own words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from playeval.core.rng import derive_seed

RuleType = Literal["attribute", "categorical", "logical", "relational", "semantic"]


@dataclass(frozen=True)
class RuleKind:
    """One kind of the taxonomy: its id (recorded in the spec), its name and what such a rule looks at."""

    id: RuleType
    name: str
    description: str


TAXONOMY: tuple[RuleKind, ...] = (
    RuleKind(id="attribute", name="attribute-based",
             description=("a property of the item itself or of its name: what it is made of, its size, shape or "
                          "texture, how its name is spelled")),
    RuleKind(id="categorical", name="categorical",
             description="membership of one category or family of things"),
    RuleKind(id="logical", name="logical",
             description="two conditions on the item joined by and, or, or but not"),
    RuleKind(id="relational", name="relational",
             description=("how the item relates to something else: where it is found, what it is used with or "
                          "for, how it compares in size or weight with another thing")),
    RuleKind(id="semantic", name="semantic",
             description=("what the item's name means or calls to mind beyond the object itself: associations, "
                          "occasions, stories, symbols")),
)
"""The descriptions give no example rules: a small game master copies them."""

INSPIRATIONS: tuple[str, ...] = (
    "a kitchen", "a garden", "a school", "sports", "music", "travel", "the weather", "animals", "a toolbox",
    "clothing", "toys", "the sea", "a farm", "an office", "a bathroom", "camping", "a birthday party", "a market",
    "the night sky", "a hospital", "a library", "a workshop", "a bakery", "winter", "summer", "a city street",
    "a forest", "a restaurant", "a museum", "science", "a train journey", "a wedding",
)
"""Themes one of which, drawn per rule written from the match's seed, the game master is offered as a starting
point: greedy decoding of the same request would otherwise give every match of a level and type the same rule."""


def inspiration(seed: int, attempt: int) -> str:
    """The theme offered for the match's ``attempt``-th rule (0 first)."""
    return INSPIRATIONS[derive_seed(seed, "dynamic_picnic", "inspiration", attempt) % len(INSPIRATIONS)]


SETS: tuple[str, str] = ("set1", "set2")
"""The two disjoint halves of the rules (``--secret-set``), by the cell of level and type a rule is written for, in
a checkerboard: at L1 and L3 the attribute-based, logical and semantic rules are in ``set1`` and the categorical
and relational ones in ``set2``, at L2 the other way round (8 cells against 7, every type in both sets). A rule
has one level and one type, so no rule is in both; the scripted game master's hand-written rules (one per cell)
split the same way."""


def set_of(level: int, kind_id: str) -> str | None:
    """The set of the rules of ``level`` and type ``kind_id`` (``None`` for a type the taxonomy does not have)."""
    ids = [kind.id for kind in TAXONOMY]
    if kind_id not in ids:
        return None
    return SETS[(ids.index(kind_id) + level + 1) % len(SETS)]


def kinds_in(secret_set: str, level: int) -> tuple[RuleKind, ...]:
    """The types whose rules of ``level`` are in ``secret_set``, in taxonomy order."""
    return tuple(kind for kind in TAXONOMY if set_of(level, kind.id) == secret_set)


LEVEL_DESCRIPTIONS: dict[int, str] = {
    1: "L1: plain and concrete; one property anyone would notice from a handful of examples.",
    2: "L2: needs some reasoning: two conditions combined, or a relation to something not shown.",
    3: "L3: abstract or layered: a property that is not visible in the item itself and takes insight to name.",
}


def rule_kind(kind_id: str) -> RuleKind:
    """The taxonomy entry ``kind_id``; ``KeyError`` when there is none."""
    for kind in TAXONOMY:
        if kind.id == kind_id:
            return kind
    raise KeyError(f"no rule type {kind_id!r}; known: {', '.join(kind.id for kind in TAXONOMY)}")
