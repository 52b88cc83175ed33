"""The Undercover concept pairs shipped in ``data/pairs.json`` (built from WordNet 3.0 by
``scripts/build_undercover_pairs.py``; see ``data/PROVENANCE.md``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files


@dataclass(frozen=True)
class ConceptPair:
    id: str
    category: str
    pos: str  # "noun" | "verb" | "adjective"
    civilian: str
    undercover: str
    similarity: float
    synsets: tuple[str, str]
    hypernym: str


@cache
def load_pairs() -> tuple[ConceptPair, ...]:
    """Every concept pair, in the file's order (by category, most similar first)."""
    raw = json.loads(files("playeval.games.undercover").joinpath("data/pairs.json").read_text("utf-8"))
    return tuple(
        ConceptPair(id=p["id"], category=p["category"], pos=p["pos"], civilian=p["civilian"],
                    undercover=p["undercover"], similarity=float(p["similarity"]),
                    synsets=(p["synsets"][0], p["synsets"][1]), hypernym=p["hypernym"])
        for p in raw["pairs"]
    )


def categories() -> tuple[str, ...]:
    """The category ids, sorted."""
    return tuple(sorted({pair.category for pair in load_pairs()}))
