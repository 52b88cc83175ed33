"""A fixed Undercover concept pair for the arena tests, so that a test can look for the words in every response
without meeting them by chance in the page's own text (a drawn pair may hold "round" or "vote").

In the test's process: ``monkeypatch.setattr(rules, "_load_pairs", pairs)``; in an arena server a test starts:
``fix()`` before the app is made (``browser_kit.serve(..., setup="undercover_pair")``).
"""

from __future__ import annotations

from playeval.games.undercover.pairs import ConceptPair

CIVILIAN_WORD = "lion"
UNDERCOVER_WORD = "tiger"
PAIR = ConceptPair(id="test-lion-tiger", category="animal", pos="noun", civilian=CIVILIAN_WORD,
                   undercover=UNDERCOVER_WORD, similarity=0.9, synsets=("lion.n.01", "tiger.n.02"),
                   hypernym="big cat")
ROLES = {"undercover.judge": "scripted"}
"""The arena's role bindings for these tests: Undercover's judge is the game's scripted judge."""


def pairs() -> tuple[ConceptPair, ...]:
    return (PAIR,)


def fix() -> None:
    """Every Undercover match of this process draws :data:`PAIR`."""
    from playeval.games.undercover import rules

    rules._load_pairs = pairs
