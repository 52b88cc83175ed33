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


def _parts(rule_id: str) -> tuple[list[list[str]], list[str]]:
    """A rule's branches and excluded categories, read from its id (``rules.json``: branches joined by ``|``, the
    categories of a branch by ``+``, each excluded category after ``~``; category ids hold none of them)."""
    body, *excluded = rule_id.split(":", 1)[1].split("~")
    return [branch.split("+") for branch in body.split("|")], excluded


def _branch(tags: list[str], plurals: dict[str, str]) -> str:
    """A branch in words: adjectives before the kind ("small African mammals"), or two kinds at once."""
    facets = [plurals[tag] for tag in tags if tag in _facets()]
    kinds = [plurals[tag] for tag in tags if tag not in _facets()]
    if len(kinds) > 1:
        return f"things that are both {kinds[0]} and {kinds[1]}"
    return " ".join([*facets, *kinds])


def _guesses(rule_id: str, statement: str, plurals: dict[str, str]) -> tuple[tuple[str, bool, str], ...]:
    """Two right guesses (the statement, a paraphrase) and two near misses (a part of the rule left out) for a
    level-2 or level-3 rule of any form: both, either, except."""
    branches, excluded = _parts(rule_id)
    if len(branches) == 1 and not excluded:
        [tags] = branches
        facets = [plurals[tag] for tag in tags if tag in _facets()]
        kinds = [plurals[tag] for tag in tags if tag not in _facets()]
        if len(kinds) > 1:
            return ((f"things that are both {kinds[0]} and {kinds[1]}", True, "paraphrase"),
                    (statement, True, "exact"), (kinds[0], False, "near miss"), (kinds[1], False, "near miss"))
        if len(facets) > 1:
            return ((f"{kinds[0]} that are both {facets[0]} and {facets[1]}", True, "paraphrase"),
                    (statement, True, "exact"), (f"{facets[0]} {kinds[0]}", False, "near miss"),
                    (f"{facets[1]} {kinds[0]}", False, "near miss"))
        return ((f"{kinds[0]} that are {facets[0]}", True, "paraphrase"), (statement, True, "exact"),
                (kinds[0], False, "near miss"), (f"{facets[0]} things of any kind", False, "near miss"))
    named = [_branch(branch, plurals) for branch in branches]  # "African mammals" and "Asian mammals" as well
    base = named[0] if len(named) == 1 else " or ".join(named) if len(named) == 2 else \
        f"{', '.join(named[:-1])} or {named[-1]}"
    if not excluded:
        return ((f"anything that is one of these: {', '.join(named)}", True, "paraphrase"),
                (statement, True, "exact"), (named[0], False, "near miss"), (named[-1], False, "near miss"))
    left_out = [f"{plurals[tag]} ones" if tag in _facets() else plurals[tag] for tag in excluded]
    return ((f"{base} but not {' or '.join(left_out)}", True, "paraphrase"), (statement, True, "exact"),
            (base, False, "near miss"),
            (f"{base} but not {left_out[0]}" if len(left_out) > 1 else
             (named[0] if len(named) > 1 else f"{left_out[0].removesuffix(' ones')} {base}"
              if excluded[0] in _facets() else left_out[0]), False, "near miss"))


def judge_cases() -> tuple[JudgeCase, ...]:
    """Four guesses for each of 16 level-1 rules with a near miss in the data, for 4 level-2 rules and for 4
    level-3 rules (of every form: "both", "either", "except")."""
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
    for level, step in ((2, 12), (3, 7)):
        for number, rule in enumerate([rule for rule in load_rules() if rule.level == level][::step][:4]):
            seen = f"May come: {', '.join(rule.positives[:3])}"
            for index, (guess, correct, kind) in enumerate(_guesses(rule.id, rule.statement, plurals)):
                found.append(JudgeCase(id=f"static-L{level}-{number}-{index}",
                                       context={"statement": rule.statement, "seen": seen},
                                       answer=guess, correct=correct, kind=kind))
    return tuple(found)


WRITTEN = "data/judge_cases_written.jsonl"
"""The hand-written set (``data/PROVENANCE.md``): guesses written as players phrase them, on contexts from real
rules, not made from the templates above; the set the judge's accuracy is best read on."""


def written_cases(keys: Mapping[str, str]) -> tuple[JudgeCase, ...]:
    """The hand-written set, every case checked to hold ``keys`` (the game's ``judge_case_keys``)."""
    return packaged_cases("playeval.games.static_picnic", WRITTEN, "static_picnic", keys)
