"""Metrics as pure functions: GameArena's procedural metrics, and how a game scores its retrospective outputs.

Games import these to compute their own metrics (``Game.score_retro``); nothing here reads a store or calls a
model.
"""

from playeval.metrics.procedural import (
    JUDGEMENT_LEVELS,
    bluffing_metrics,
    candidate_list_metrics,
    disparity_ratio,
    judgement_level,
)
from playeval.metrics.retro import score_candidates, score_judgements

__all__ = [
    "JUDGEMENT_LEVELS",
    "bluffing_metrics",
    "candidate_list_metrics",
    "disparity_ratio",
    "judgement_level",
    "score_candidates",
    "score_judgements",
]
