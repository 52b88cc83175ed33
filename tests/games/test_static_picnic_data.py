"""The Static Picnic data set as shipped: items, categories and rules (no NLTK or WordNet needed).

The data is built by ``scripts/build_static_picnic.py`` from WordNet 3.0; see
``src/playeval/games/static_picnic/data/PROVENANCE.md``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
from importlib.resources import files
from itertools import combinations
from typing import Any

import pytest

MIN_ITEMS = 500
MIN_CATEGORIES = 70
MIN_RULES = 250
MIN_POSITIVES = 4
MAX_POSITIVE_SHARE = 0.6


def _data_file(name: str) -> str:
    return files("playeval").joinpath("games", "static_picnic", "data", name).read_text("utf-8")


@cache
def _load(name: str) -> dict[str, Any]:
    data = json.loads(_data_file(name))
    assert isinstance(data, dict)
    return data


def items() -> list[dict[str, Any]]:
    return list(_load("items.json")["items"])


def categories() -> list[dict[str, Any]]:
    return list(_load("items.json")["categories"])


def rules() -> list[dict[str, Any]]:
    return list(_load("rules.json")["rules"])


def members() -> dict[str, frozenset[str]]:
    """Category id -> names of the items tagged with it."""
    found: dict[str, set[str]] = {category["id"]: set() for category in categories()}
    for item in items():
        for tag in item["tags"]:
            found[tag].add(item["name"])
    return {key: frozenset(value) for key, value in found.items()}


def normalise(name: str) -> str:
    """Case, spaces, hyphens and regular plurals folded (as the build script does)."""
    key = re.sub(r"[^a-z]", "", name.lower())
    for suffix, replacement in (("ies", "y"), ("ves", "f"), ("ses", "s"), ("xes", "x"), ("ches", "ch"), ("s", "")):
        if key.endswith(suffix) and len(key) > len(suffix) + 2:
            return key[: -len(suffix)] + replacement
    return key


def max_positives() -> float:
    return MAX_POSITIVE_SHARE * len(items())


@pytest.mark.parametrize("name", ["items.json", "rules.json"])
def test_files_are_canonical_json(name: str) -> None:
    """Valid JSON, ASCII, written exactly as the build script writes it (so regenerating is a no-op diff)."""
    text = _data_file(name)
    assert text.isascii()
    assert text == json.dumps(json.loads(text), indent=1, ensure_ascii=True) + "\n"


def test_meta_names_the_source_and_counts() -> None:
    for name in ("items.json", "rules.json"):
        meta = _load(name)["meta"]
        assert "WordNet 3.0" in meta["source"]
        assert meta["generator"] == "scripts/build_static_picnic.py"
        assert meta["counts"]["items"] == len(items())
        assert meta["counts"]["categories"] == len(categories())
        assert meta["counts"]["rules"] == len(rules())
        for level in (1, 2, 3):
            assert meta["counts"][f"L{level}"] == sum(rule["level"] == level for rule in rules())


def test_enough_items_with_unique_non_empty_names() -> None:
    names = [item["name"] for item in items()]
    assert len(names) >= MIN_ITEMS
    assert names == sorted(names)
    assert all(name and name == name.strip() for name in names)
    assert all(re.fullmatch(r"[a-z]+( [a-z]+)?", name) for name in names), "lowercase words, at most two"
    assert len(set(names)) == len(names)
    duplicates = [key for key, count in Counter(normalise(name) for name in names).items() if count > 1]
    assert duplicates == [], f"names equal after folding case and plurals: {duplicates}"


def test_items_carry_known_sorted_tags() -> None:
    known = {category["id"] for category in categories()}
    for item in items():
        assert item["tags"], item["name"]
        assert item["tags"] == sorted(set(item["tags"])), item["name"]
        assert set(item["tags"]) <= known, item["name"]
        assert item["synsets"] and all(re.fullmatch(r".+\.n\.\d\d", s) for s in item["synsets"])
        assert item["definition"]


def test_enough_categories_with_unique_ids_labels_and_item_sets() -> None:
    cats = categories()
    assert len(cats) >= MIN_CATEGORIES
    ids = [category["id"] for category in cats]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    labels = [category["label"] for category in cats]
    assert len(set(labels)) == len(labels), "labels must be unique"
    assert all(label and label == label.strip() for label in labels)
    kinds = [category for category in cats if category["facet"] is None]
    facets = [category for category in cats if category["facet"] is not None]
    synsets = [category["synset"] for category in kinds] + [s for c in kinds for s in c["merged_synsets"]]
    assert len(set(synsets)) == len(synsets) and all(synsets)
    assert facets, "description facets (size, taste, colour, habitat, origin) give level 3 its rules"
    assert all(c["synset"] is None and c["merged_synsets"] == [] and "WordNet" in c["definition"] for c in facets)
    assert {category["facet"] for category in facets} <= {"size", "taste", "colour", "habitat", "origin"}
    sets = members()
    assert len(set(sets.values())) == len(sets), "categories with the same items must be merged"
    for category in cats:
        assert category["size"] == len(sets[category["id"]]), category["id"]
        assert MIN_POSITIVES <= category["size"] <= max_positives(), category["id"]


def test_rules_are_well_formed_and_unique() -> None:
    known = {category["id"] for category in categories()}
    all_rules = rules()
    ids = [rule["id"] for rule in all_rules]
    assert len(set(ids)) == len(ids)
    assert [(rule["level"], rule["id"]) for rule in all_rules] == sorted(
        (rule["level"], rule["id"]) for rule in all_rules
    )
    combos = [tuple(rule["categories"]) for rule in all_rules]
    assert len(set(combos)) == len(combos)
    positive_sets = [frozenset(rule["positives"]) for rule in all_rules]
    assert len(set(positive_sets)) == len(positive_sets), "no two rules may have the same positives"
    for rule in all_rules:
        assert rule["level"] in (1, 2, 3)
        assert len(rule["categories"]) == rule["level"], rule["id"]
        assert rule["categories"] == sorted(set(rule["categories"])), rule["id"]
        assert set(rule["categories"]) <= known, rule["id"]
        assert rule["positives"] == sorted(set(rule["positives"])), rule["id"]


def test_rule_statements_use_the_category_labels() -> None:
    labels = {category["id"]: category["label"] for category in categories()}
    plurals = {category["id"]: category["plural"] for category in categories()}
    for rule in rules():
        statement = rule["statement"]
        assert statement.startswith("items that are "), rule["id"]
        if rule["level"] == 1:
            assert statement == f"items that are {plurals[rule['categories'][0]]}", rule["id"]
            continue
        if set(rule["categories"]) & facet_ids():
            continue  # adjectives before a kind: test_rules_with_a_facet_name_one_narrow_kind_...
        for category in rule["categories"]:
            assert labels[category] in statement, (rule["id"], labels[category])
        if rule["level"] == 2:
            assert statement.startswith("items that are both "), rule["id"]
        else:
            assert statement.endswith(" at once"), rule["id"]


def test_rule_positives_are_the_items_carrying_all_its_tags() -> None:
    by_tags = {item["name"]: set(item["tags"]) for item in items()}
    for rule in rules():
        expected = sorted(name for name, tags in by_tags.items() if set(rule["categories"]) <= tags)
        assert rule["positives"] == expected, rule["id"]


def test_rule_sizes_are_between_four_items_and_sixty_percent() -> None:
    for rule in rules():
        assert MIN_POSITIVES <= len(rule["positives"]) <= max_positives(), rule["id"]


def test_every_category_of_a_rule_matters() -> None:
    """Intersections are non-trivial: strictly smaller than each category alone, and dropping any
    one category of an L2/L3 rule would let in more items."""
    sets = members()
    for rule in rules():
        positives = frozenset(rule["positives"])
        for category in rule["categories"]:
            if rule["level"] > 1:
                assert len(positives) < len(sets[category]), (rule["id"], category)
        for rest in combinations(rule["categories"], rule["level"] - 1):
            if rest:
                assert frozenset.intersection(*(sets[c] for c in rest)) != positives, (rule["id"], rest)


def test_each_level_one_rule_is_a_category() -> None:
    sets = members()
    level_one = {rule["categories"][0]: frozenset(rule["positives"]) for rule in rules() if rule["level"] == 1}
    assert level_one == sets


def test_level_two_rules_exist() -> None:
    assert sum(rule["level"] == 2 for rule in rules()) > 0


def test_level_three_rules_exist() -> None:
    assert sum(rule["level"] == 3 for rule in rules()) >= 30


def test_enough_rules() -> None:
    assert len(rules()) >= MIN_RULES


def facet_ids() -> frozenset[str]:
    return frozenset(category["id"] for category in categories() if category["facet"] is not None)


def test_level_three_rules_need_all_three_categories_and_are_new() -> None:
    """Each L3 rule: three categories, each of which matters (leaving any one out admits more items), 4 to 60 %
    of the items, and positives that no L1 or L2 rule has (so it is not a lower-level rule in disguise)."""
    sets = members()
    lower = {frozenset(rule["positives"]) for rule in rules() if rule["level"] < 3}
    for rule in (rule for rule in rules() if rule["level"] == 3):
        positives = frozenset(rule["positives"])
        assert len(rule["categories"]) == 3, rule["id"]
        assert MIN_POSITIVES <= len(positives) <= max_positives(), rule["id"]
        assert positives not in lower, rule["id"]
        for pair in combinations(rule["categories"], 2):
            admitted = frozenset.intersection(*(sets[c] for c in pair))
            assert admitted > positives, (rule["id"], pair)


def test_rules_with_a_facet_name_one_narrow_kind_before_which_the_facets_stand() -> None:
    """A rule with a description facet has exactly one kind, no broader than a fifth of the items, and
    reads as adjectives before that kind's plural ("items that are small sweet-tasting solid food")."""
    facets = facet_ids()
    labels = {category["id"]: category["label"] for category in categories()}
    plurals = {category["id"]: category["plural"] for category in categories()}
    sizes = {category["id"]: category["size"] for category in categories()}
    with_facets = [rule for rule in rules() if rule["level"] > 1 and set(rule["categories"]) & facets]
    assert with_facets
    for rule in with_facets:
        [kind] = [c for c in rule["categories"] if c not in facets]
        assert sizes[kind] <= 0.2 * len(items()), rule["id"]
        assert rule["statement"].endswith(f" {plurals[kind]}"), rule["id"]
        for facet in set(rule["categories"]) & facets:
            assert f" {labels[facet]} " in rule["statement"], (rule["id"], facet)


def test_level_three_needs_the_facets() -> None:
    """WordNet's hypernym tree alone gives no level-3 rule: every L3 rule has at least one facet."""
    assert all(set(rule["categories"]) & facet_ids() for rule in rules() if rule["level"] == 3)
