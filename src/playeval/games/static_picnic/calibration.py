"""Static Picnic judge's calibration set: labelled rule/guess pairs made from the shipped data. Right guesses state
the rule's category in other words (its plural label, 'any kind of ...'); wrong ones are near misses (a narrower or
a broader category of the data, one of a level-2 rule's two categories alone, or a level-3 rule with one of its
three categories left out) or vague ('things people like'). Half are right."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib.resources import files

from playeval.core.game import JudgeCase
from playeval.core.judge_cases import packaged_cases
from playeval.games.static_picnic.data import load_rules

_VAGUE = ("things people like to have around", "useful things", "things you can find somewhere", "ordinary objects")


@cache
def _categories() -> tuple[dict[str, str], dict[str, frozenset[str]]]:
    """Each category's plural label (a description facet's adjective, such as "small"), and its items."""
    raw = json.loads(files("playeval.games.static_picnic").joinpath("data/items.json").read_text("utf-8"))
    plurals = {category["id"]: str(category["plural"]) for category in raw["categories"]}
    members: dict[str, set[str]] = {}
    for item in raw["items"]:
        for tag in item["tags"]:
            members.setdefault(tag, set()).add(item["name"])
    return plurals, {tag: frozenset(names) for tag, names in members.items()}


def _near_miss(positives: frozenset[str], members: dict[str, frozenset[str]]) -> str | None:
    """A category strictly inside or around the rule's items (the closest in size), if the data has one."""
    close = [tag for tag, names in members.items() if len(names) >= 3 and names != positives
             and (names < positives or (names > positives and len(names) <= 4 * len(positives)))]
    return min(close, key=lambda tag: (abs(len(members[tag]) - len(positives)), tag)) if close else None


@cache
def _facets() -> frozenset[str]:
    """The ids of the description facets (size, taste, colour, habitat, origin)."""
    raw = json.loads(files("playeval.games.static_picnic").joinpath("data/items.json").read_text("utf-8"))
    return frozenset(category["id"] for category in raw["categories"] if category.get("facet"))


def judge_cases() -> tuple[JudgeCase, ...]:
    """Four guesses for each of 16 level-1 rules with a near miss in the data, for 4 level-2 rules and for 4
    level-3 rules."""
    plurals, members = _categories()
    found: list[JudgeCase] = []
    level_one = [rule for rule in load_rules() if rule.level == 1]
    picked = [rule for rule in level_one if _near_miss(frozenset(rule.positives), members)][::5][:16]
    for number, rule in enumerate(picked):
        [tag] = rule.id.removeprefix("L1:").split("+")
        miss = _near_miss(frozenset(rule.positives), members)
        assert miss is not None
        seen = f"May come: {', '.join(rule.positives[:3])}"
        for index, (guess, correct, kind) in enumerate((
                (plurals[tag], True, "paraphrase"), (f"any kind of {plurals[tag]}", True, "paraphrase"),
                (plurals[miss], False, "near miss"), (_VAGUE[number % len(_VAGUE)], False, "vague"))):
            found.append(JudgeCase(id=f"static-L1-{number}-{index}", context={"statement": rule.statement,
                                                                             "seen": seen},
                                   answer=guess, correct=correct, kind=kind))
    for number, rule in enumerate([rule for rule in load_rules() if rule.level == 2][::12][:4]):
        first, second = rule.id.removeprefix("L2:").split("+")
        seen = f"May come: {', '.join(rule.positives[:3])}"
        for index, (guess, correct, kind) in enumerate((
                (f"things that are both {plurals[first]} and {plurals[second]}", True, "paraphrase"),
                (rule.statement, True, "exact"), (plurals[first], False, "near miss"),
                (plurals[second], False, "near miss"))):
            found.append(JudgeCase(id=f"static-L2-{number}-{index}", context={"statement": rule.statement,
                                                                             "seen": seen},
                                   answer=guess, correct=correct, kind=kind))
    for number, rule in enumerate([rule for rule in load_rules() if rule.level == 3][::7][:4]):
        ids = rule.id.removeprefix("L3:").split("+")
        facets = [plurals[tag] for tag in ids if tag in _facets()]
        [kind] = [tag for tag in ids if tag not in _facets()]
        if len(facets) != 2:
            raise ValueError(f"level-3 rule {rule.id} should name one kind and two descriptions")
        seen = f"May come: {', '.join(rule.positives[:3])}"
        for index, (guess, correct, kind_of_case) in enumerate((
                (f"{plurals[kind]} that are both {facets[0]} and {facets[1]}", True, "paraphrase"),
                (rule.statement, True, "exact"), (f"{facets[0]} {plurals[kind]}", False, "near miss"),
                (f"{facets[1]} {plurals[kind]}", False, "near miss"))):
            found.append(JudgeCase(id=f"static-L3-{number}-{index}", context={"statement": rule.statement,
                                                                             "seen": seen},
                                   answer=guess, correct=correct, kind=kind_of_case))
    return tuple(found)


WRITTEN = "data/judge_cases_written.jsonl"
"""The hand-written set (``data/PROVENANCE.md``): guesses written as players phrase them, on contexts from real
rules, not made from the templates above; the set the judge's accuracy is best read on."""


def written_cases(keys: Mapping[str, str]) -> tuple[JudgeCase, ...]:
    """The hand-written set, every case checked to hold ``keys`` (the game's ``judge_case_keys``)."""
    return packaged_cases("playeval.games.static_picnic", WRITTEN, "static_picnic", keys)
