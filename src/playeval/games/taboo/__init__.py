"""Taboo: a player leads the model towards a secret word; the model must answer without saying it."""

from playeval.games.taboo.baseline_players import TabooBaseline
from playeval.games.taboo.baselines import ScriptedClueGiver, ScriptedGuesser, candidates, mechanical_clues
from playeval.games.taboo.data import CATEGORIES, SPLIT_SETS, load_words, split_words, word_pool
from playeval.games.taboo.rules import (
    CLUE_GIVER,
    GUESSER,
    LEVEL_CATEGORIES,
    LIMIT,
    Round,
    Taboo,
    TabooState,
)
from playeval.games.taboo.scoring import GUESS, PAPER, SCORING, guess_only, scoring_of
from playeval.games.taboo.words import same_word, says_word, word_forms

__all__ = ["CATEGORIES", "CLUE_GIVER", "GUESS", "GUESSER", "LEVEL_CATEGORIES", "LIMIT", "PAPER", "SCORING",
           "SPLIT_SETS", "Round", "ScriptedClueGiver", "ScriptedGuesser", "Taboo", "TabooBaseline", "TabooState",
           "candidates", "guess_only", "load_words", "mechanical_clues", "same_word", "says_word", "scoring_of",
           "split_words", "word_forms", "word_pool"]
