#!/usr/bin/env python3
"""Build Dynamic Picnic's shipped rule bank from its hand-checked source.

The bank (``src/playeval/games/dynamic_picnic/data/default_bank.json``, the format ``RuleBank.load`` reads) is what
a Dynamic Picnic match plays by default, so that a match needs no game-master model to reach the player's first
turn. Its source, ``scripts/dynamic_picnic_bank_source.json``, lists each rule's statement, level, taxonomy type and
every item on each side, written or kept by hand; ``data/PROVENANCE.md`` says where each rule came from and how its
items were checked.

This script only arranges the source into bank entries, the same way every time: five items of each side, drawn
with a generator seeded by the rule's id, become the held-out items of the rule-application check (shuffled
together), and the rest stay examples in the source's order. It refuses a source that breaks what the game and the
rule audit need (an item on both sides, a side too short for ten example units after turn 1, a level and type
missing, a secret-set half without a rule of some level), each with one line saying which rule and why.

    python scripts/build_dynamic_picnic_bank.py            # write the bank
    python scripts/build_dynamic_picnic_bank.py --check    # exit 1 when the shipped bank is not what the source builds
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from playeval.core.normalize import normalize_name
from playeval.games.dynamic_picnic.bank import BankRule, RuleBank, rule_id
from playeval.games.dynamic_picnic.state import HELD_PER_SIDE
from playeval.games.dynamic_picnic.taxonomy import SETS, TAXONOMY, set_of
from playeval.guess_rule.audit import MIN_UNITS

REPO_ROOT = Path(__file__).resolve().parent.parent
SOURCE = REPO_ROOT / "scripts" / "dynamic_picnic_bank_source.json"
OUT = REPO_ROOT / "src" / "playeval" / "games" / "dynamic_picnic" / "data" / "default_bank.json"
FIRST_TURN = 2
"""Units turn 1 shows by default (``num_init_examples``); the audit wants ``MIN_UNITS`` beyond them."""
LEAST_PER_SIDE = HELD_PER_SIDE + FIRST_TURN + MIN_UNITS
HAND = "written by hand"
CHECKED = "checked by hand"


class SourceError(Exception):
    """A source rule the bank cannot hold; the message names it."""


def _seed(statement: str) -> int:
    return int(hashlib.sha256(("held_out:" + rule_id(statement)).encode("utf-8")).hexdigest()[:16], 16)


def _side(rule: dict[str, Any], name: str) -> list[str]:
    items = [str(item).strip() for item in rule[name]]
    keys = [normalize_name(item) for item in items]
    repeated = sorted({item for item, key in zip(items, keys, strict=True) if keys.count(key) > 1})
    if repeated:
        raise SourceError(f"{rule['statement']!r}: {name} lists {', '.join(repeated)} twice")
    if len(items) < LEAST_PER_SIDE:
        raise SourceError(f"{rule['statement']!r}: {len(items)} {name}, fewer than {LEAST_PER_SIDE} (5 held out, "
                          f"{FIRST_TURN} in turn 1 and {MIN_UNITS} more units)")
    return items


def bank_rule(rule: dict[str, Any]) -> BankRule:
    """One source rule as a bank entry (see the module's note)."""
    statement = str(rule["statement"]).strip()
    kinds = {kind.id for kind in TAXONOMY}
    if rule["type"] not in kinds or rule["level"] not in (1, 2, 3):
        raise SourceError(f"{statement!r}: level {rule['level']} and type {rule['type']!r} are not the game's")
    positives, negatives = _side(rule, "positives"), _side(rule, "negatives")
    both = {normalize_name(item) for item in positives} & {normalize_name(item) for item in negatives}
    if both:
        raise SourceError(f"{statement!r}: {', '.join(sorted(both))} on both sides")
    draw = random.Random(_seed(statement))
    held_yes = set(draw.sample(range(len(positives)), HELD_PER_SIDE))
    held_no = set(draw.sample(range(len(negatives)), HELD_PER_SIDE))
    held: list[tuple[str, str]] = [(positives[index], "yes") for index in sorted(held_yes)] + \
        [(negatives[index], "no") for index in sorted(held_no)]
    draw.shuffle(held)
    return BankRule(id=rule_id(statement), statement=statement, level=int(rule["level"]), type=str(rule["type"]),
                    positives=tuple(item for index, item in enumerate(positives) if index not in held_yes),
                    negatives=tuple(item for index, item in enumerate(negatives) if index not in held_no),
                    held_out=tuple(held),  # type: ignore[arg-type]
                    game_master=str(rule.get("game_master", HAND)), validator=CHECKED,
                    sources=tuple(str(source) for source in rule.get("sources", ())))


def build(source: Path = SOURCE) -> RuleBank:
    """The bank the source makes; ``SourceError`` when the source breaks a rule of the module's note."""
    rules = [bank_rule(rule) for rule in json.loads(source.read_text(encoding="utf-8"))["rules"]]
    ids = [rule.id for rule in rules]
    twice = sorted({rule.statement for rule in rules if ids.count(rule.id) > 1})
    if twice:
        raise SourceError(f"the same rule twice: {'; '.join(twice)}")
    cells = {(rule.level, rule.type) for rule in rules}
    missing = [f"L{level} {kind.id}" for level in (1, 2, 3) for kind in TAXONOMY if (level, kind.id) not in cells]
    if missing:
        raise SourceError(f"no rule of {', '.join(missing)}")
    for name in SETS:
        for level in (1, 2, 3):
            if not any(rule.level == level and set_of(level, rule.type) == name for rule in rules):
                raise SourceError(f"{name} has no rule of level {level}")
    return RuleBank(rules=tuple(sorted(rules, key=lambda rule: (rule.level, rule.id))))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check", action="store_true", help="compare with --out instead of writing it")
    args = parser.parse_args()
    try:
        bank = build(args.source)
    except (SourceError, KeyError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    text = bank.model_dump_json(indent=1) + "\n"
    if args.check:
        same = args.out.is_file() and args.out.read_text(encoding="utf-8") == text
        print(f"{args.out}: {'up to date' if same else 'differs from what the source builds'}")
        return 0 if same else 1
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {len(bank.rules)} rules to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
