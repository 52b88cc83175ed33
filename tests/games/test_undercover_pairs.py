"""The shipped Undercover concept pairs (data/pairs.json, built by scripts/build_undercover_pairs.py)."""

from __future__ import annotations

import json
import re
from collections import Counter
from importlib.resources import files

from playeval.games.undercover.pairs import ConceptPair, categories, load_pairs

# Documented in data/PROVENANCE.md: nouns and verbs carry Wu-Palmer similarity in
# [0.5, 1), colour adjectives the path similarity 1/3 through their shared head adjective,
# the later adjective clusters 1/(1+d) for a path of d <= 2 steps (0.5 or 0.3333).
MIN_SIMILARITY = 0.5


def _raw() -> dict:
    return json.loads(files("playeval.games.undercover").joinpath("data/pairs.json").read_text("utf-8"))


def _stem(word: str) -> str:
    for suffix, repl in (("ies", "y"), ("ves", "f"), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + repl
    return word


def test_enough_pairs_and_categories() -> None:
    pairs = load_pairs()
    assert len(pairs) >= 300
    assert len(categories()) >= 12
    assert all(isinstance(pair, ConceptPair) for pair in pairs)


def test_verb_and_adjective_sets_present() -> None:
    by_pos = Counter(pair.pos for pair in load_pairs())
    assert set(by_pos) == {"noun", "verb", "adjective"}
    assert by_pos == {"noun": 309, "verb": 46, "adjective": 51}


def test_adjective_set_beyond_colours() -> None:
    adjectives = [pair for pair in load_pairs() if pair.pos == "adjective"]
    new = [pair for pair in adjectives if pair.category != "adjectives-colour"]
    assert len(new) >= 40
    assert len({pair.category for pair in new}) >= 3
    for pair in adjectives:
        a, b = pair.civilian, pair.undercover
        assert a != b and a not in b and b not in a, pair
        assert pair.category.startswith("adjectives-"), pair


def test_fields_valid() -> None:
    ids = [pair.id for pair in load_pairs()]
    assert len(ids) == len(set(ids))
    for pair in load_pairs():
        assert re.fullmatch(r"[a-z]+", pair.civilian) and re.fullmatch(r"[a-z]+", pair.undercover), pair
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", pair.category), pair
        tag = {"noun": "n", "verb": "v", "adjective": "[as]"}[pair.pos]
        for synset in (*pair.synsets, pair.hypernym):
            assert re.fullmatch(rf"[a-z_\-]+\.{tag}\.\d\d", synset), pair
        assert pair.synsets[0] != pair.synsets[1]
        assert pair.id == f"{pair.category}:{pair.civilian}-{pair.undercover}"


def test_words_distinct_not_plural_nor_substring() -> None:
    for pair in load_pairs():
        a, b = pair.civilian, pair.undercover
        assert a != b and _stem(a) != _stem(b), pair
        assert a not in b and b not in a, pair


def test_no_duplicate_pair_in_either_order() -> None:
    keys = [frozenset((pair.civilian, pair.undercover)) for pair in load_pairs()]
    assert len(keys) == len(set(keys))


def test_a_word_is_used_once_per_category() -> None:
    for category in categories():
        words = [w for p in load_pairs() if p.category == category for w in (p.civilian, p.undercover)]
        assert len(words) == len(set(words)), category


def test_similarity_in_documented_range() -> None:
    for pair in load_pairs():
        if pair.category == "adjectives-colour":
            assert pair.similarity == round(1 / 3, 4), pair
        elif pair.pos == "adjective":
            assert pair.similarity in (0.5, round(1 / 3, 4)), pair
        else:
            assert MIN_SIMILARITY <= pair.similarity < 1.0, pair


def test_meta_counts_match_pairs() -> None:
    raw = _raw()
    pairs = load_pairs()
    assert raw["meta"]["pairs"] == len(pairs)
    assert raw["meta"]["per_category"] == dict(sorted(Counter(p.category for p in pairs).items()))
    assert raw["meta"]["per_pos"] == dict(sorted(Counter(p.pos for p in pairs).items()))


def test_ascii_json_with_final_newline() -> None:
    text = files("playeval.games.undercover").joinpath("data/pairs.json").read_bytes()
    assert text.isascii() and text.endswith(b"}\n")
