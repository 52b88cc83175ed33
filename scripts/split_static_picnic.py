#!/usr/bin/env python3
"""Split the Static Picnic categories into two halves, ``set1`` and ``set2`` (``data/sets.json``).

A held-out comparison (the same run on each set, then ``playeval analyze stability``) needs two sets of secrets
that share nothing. Splitting the rules alone would leave "large mammals" in one set and "large birds" in the
other; splitting the *categories* keeps a set's rules to categories the other set never names. A rule belongs to
the set holding every one of its categories; a rule whose categories fall on both sides is in neither (it is still
drawn when no set is named).

Every category of 17 items or more has one level-1 rule, so level 1 splits about evenly whatever the split;
levels 2 and 3 lose the rules that straddle it. The split is the best a seeded local search finds: start from a
random assignment of the categories that level-2 and level-3 rules use, flip one category at a time while that
keeps more rules whole (the smaller set's count at level 3 weighs more), from ``RESTARTS`` seeded starts.
The categories no level-2 or level-3 rule uses (``items.json`` lists them all, also those in no rule) then go,
in sorted order, to the half with fewer categories.

Run from the repository's root (only the standard library is needed)::

    python3 scripts/split_static_picnic.py

The output is deterministic: the same ``rules.json`` gives byte-identical ``sets.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "src" / "playeval" / "games" / "static_picnic" / "data"
SETS = ("set1", "set2")
RESTARTS = 40
L3_WEIGHT = 30
"""How much one more level-3 rule kept in the smaller set counts against one more level-2 rule."""


def kept(rules: Sequence[tuple[int, tuple[str, ...]]], side: dict[str, int]) -> Counter[tuple[int, int]]:
    """Rules kept whole by ``side``, by (level, half)."""
    found: Counter[tuple[int, int]] = Counter()
    for level, categories in rules:
        halves = {side[category] for category in categories}
        if len(halves) == 1:
            found[(level, halves.pop())] += 1
    return found


def score(rules: Sequence[tuple[int, tuple[str, ...]]], side: dict[str, int]) -> int:
    counts = kept(rules, side)
    return min(counts[(2, 0)], counts[(2, 1)]) + L3_WEIGHT * min(counts[(3, 0)], counts[(3, 1)])


def search(rules: Sequence[tuple[int, tuple[str, ...]]], categories: Sequence[str]) -> dict[str, int]:
    """The best split of ``categories`` the seeded local search finds (see the module's note)."""
    best: tuple[int, dict[str, int]] | None = None
    for restart in range(RESTARTS):
        rng = random.Random(restart)
        side = {category: rng.randrange(2) for category in categories}
        current = score(rules, side)
        improved = True
        while improved:
            improved = False
            for category in categories:
                side[category] ^= 1
                flipped = score(rules, side)
                if flipped > current:
                    current, improved = flipped, True
                else:
                    side[category] ^= 1
        if best is None or current > best[0]:
            best = (current, dict(side))
    assert best is not None
    return best[1]


def split(raw_rules: Iterable[dict[str, object]], every_category: Iterable[str] = ()
          ) -> tuple[dict[str, list[str]], dict[str, dict[str, int]]]:
    """The two halves of the categories (those of the rules and ``every_category``), and how many rules of each
    level each keeps."""
    rules = [(int(str(rule["level"])), tuple(str(c) for c in rule["categories"]))  # type: ignore[attr-defined]
             for rule in raw_rules]
    joint = sorted({category for level, categories in rules if level > 1 for category in categories})
    side = search([rule for rule in rules if rule[0] > 1], joint)
    sizes = Counter(side.values())
    named = {category for _, categories in rules for category in categories} | set(every_category)
    for category in sorted(named - set(joint)):
        half = 0 if sizes[0] <= sizes[1] else 1
        side[category] = half
        sizes[half] += 1
    counts = kept(rules, side)
    halves = {name: sorted(category for category, half in side.items() if half == index)
              for index, name in enumerate(SETS)}
    per_set = {name: {f"L{level}": counts[(level, index)] for level in (1, 2, 3)} for index, name in enumerate(SETS)}
    return halves, per_set


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the directory holding rules.json and items.json")
    args = parser.parse_args(list(argv) if argv is not None else None)
    source = (args.data / "rules.json").read_bytes()
    items = json.loads((args.data / "items.json").read_bytes())
    halves, per_set = split(json.loads(source)["rules"], (category["id"] for category in items["categories"]))
    out = {"meta": {"generator": "scripts/split_static_picnic.py", "rules_sha256": hashlib.sha256(source).hexdigest(),
                    "restarts": RESTARTS, "l3_weight": L3_WEIGHT, "rules_kept": per_set},
           "sets": halves}
    (args.data / "sets.json").write_text(json.dumps(out, indent=1, ensure_ascii=True) + "\n", encoding="utf-8")
    print(json.dumps(per_set))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
