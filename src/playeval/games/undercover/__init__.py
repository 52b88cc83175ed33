"""Undercover (CK-Arena, issue 11): civilians share a concept, undercover agents hold a close one; describe, judge,
vote. See :mod:`playeval.games.undercover.rules`."""

from playeval.games.undercover.metrics import seat_metrics
from playeval.games.undercover.rules import JUDGE, MAX_CHARS, SEAT_METRICS, SEATS, Undercover
from playeval.games.undercover.state import CIVILIAN, UNDERCOVER, UndercoverState

__all__ = ["CIVILIAN", "JUDGE", "MAX_CHARS", "SEATS", "SEAT_METRICS", "UNDERCOVER", "Undercover", "UndercoverState",
           "seat_metrics"]
