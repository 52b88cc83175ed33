"""Akinator: the model asks yes/no questions to find a secret object."""

from playeval.games.akinator.data import SECRET_SETS, SPLIT_SETS, load_secrets
from playeval.games.akinator.rules import (
           ANSWERER,
           FULL_ANSWERS,
           GUESSER,
           JUDGE,
           LIMITS,
           STRICT_ANSWERS,
           Akinator,
           AkinatorState,
)

__all__ = ["ANSWERER", "FULL_ANSWERS", "GUESSER", "JUDGE", "LIMITS", "SECRET_SETS", "SPLIT_SETS", "STRICT_ANSWERS",
           "Akinator", "AkinatorState", "load_secrets"]
