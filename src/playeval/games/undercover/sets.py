"""Undercover's named secret sets: each concept category, and two halves that split the categories between them.

``--secret-set CATEGORY`` draws from one category's pairs; ``half1`` and ``half2`` (``Undercover.split_sets``) are
disjoint unions of whole categories, about half the pairs each (208 and 198 of 406), for a held-out comparison:
the same run on each half, then ``playeval analyze stability``. Each half holds nouns, verbs and adjectives, and
kindred themes are split between them (mammals in one, birds and other animals in the other; cooked food in one,
fruit, drinks and the kitchen in the other), so neither half is the easier kind of word. A category added to the
pairs must be placed in one half (a test checks that the halves cover every category).
"""

from __future__ import annotations

from types import MappingProxyType

HALVES: MappingProxyType[str, tuple[str, ...]] = MappingProxyType({
    "half1": (
        "adjectives-clean-and-full", "adjectives-colour", "adjectives-feelings", "adjectives-speed-and-strength",
        "buildings", "clothing", "drinks", "fruit-and-vegetables", "kitchen", "mammals", "musical-instruments",
        "plants", "professions", "verbs-motion",
    ),
    "half2": (
        "adjectives-looks-age-and-health", "adjectives-size-and-shape", "adjectives-temperature-and-weather",
        "adjectives-touch-light-and-sound", "birds", "body", "food", "furniture", "landforms", "other-animals",
        "sports", "tools", "vehicles", "verbs-food-and-hands", "verbs-speech-and-sound",
    ),
})
SPLIT_SETS = ("half1", "half2")
CATEGORIES: tuple[str, ...] = tuple(sorted(category for half in HALVES.values() for category in half))
SECRET_SETS: tuple[str, ...] = (*SPLIT_SETS, *CATEGORIES)


def set_categories(name: str) -> frozenset[str]:
    """The categories a secret set draws from: a half's, or the one category ``name`` names."""
    return frozenset(HALVES.get(name, (name,)))
