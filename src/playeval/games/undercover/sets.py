"""Undercover's named secret sets: each concept category, and two halves that split the categories between them.

``--secret-set CATEGORY`` draws from one category's pairs; ``half1`` and ``half2`` (``Undercover.split_sets``) are
disjoint unions of whole categories, about half the pairs each (207 and 199 of 406), for a held-out comparison:
the same run on each half, then ``playeval analyze stability``. Each half holds nouns, verbs and adjectives, and
kindred themes are split between them (mammals in one, birds and other animals in the other; fruit, vegetables and
the kitchen in one, cooked food and drinks in the other), so neither half is the easier kind of word. No word is in
both halves: a seat's word is its secret, and two categories that share one (milk is a drink and a food; stream a
landform and a verb of motion) are in the same half. A category added to the pairs must be placed in one half (the
tests check that the halves cover every category and share no word).
"""

from __future__ import annotations

from types import MappingProxyType

HALVES: MappingProxyType[str, tuple[str, ...]] = MappingProxyType({
    "half1": (
        "adjectives-clean-and-full", "adjectives-colour", "adjectives-feelings", "adjectives-speed-and-strength",
        "clothing", "fruit-and-vegetables", "furniture", "kitchen", "landforms", "mammals", "musical-instruments",
        "plants", "professions", "verbs-motion",
    ),
    "half2": (
        "adjectives-looks-age-and-health", "adjectives-size-and-shape", "adjectives-temperature-and-weather",
        "adjectives-touch-light-and-sound", "birds", "body", "buildings", "drinks", "food", "other-animals",
        "sports", "tools", "vehicles", "verbs-food-and-hands", "verbs-speech-and-sound",
    ),
})
SPLIT_SETS = ("half1", "half2")
CATEGORIES: tuple[str, ...] = tuple(sorted(category for half in HALVES.values() for category in half))
SECRET_SETS: tuple[str, ...] = (*SPLIT_SETS, *CATEGORIES)


def set_categories(name: str) -> frozenset[str]:
    """The categories a secret set draws from: a half's, or the one category ``name`` names."""
    return frozenset(HALVES.get(name, (name,)))
