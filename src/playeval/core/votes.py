"""Counting a round of votes, as games that vote players out share it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable


def plurality(targets: Iterable[str]) -> tuple[str, int] | None:
    """The target with strictly the most votes and its count; ``None`` on a tie for the most or with no votes."""
    ranked = Counter(targets).most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0]
