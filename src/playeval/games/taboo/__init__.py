"""Taboo: a player leads the model towards a secret word; the model must answer without saying it."""

from playeval.games.taboo.baselines import ScriptedClueGiver, ScriptedGuesser, mechanical_clues
from playeval.games.taboo.data import CATEGORIES, load_words
from playeval.games.taboo.rules import (
    CLUE_GIVER,
    GUESSER,
    LEVEL_CATEGORIES,
    LIMIT,
    Round,
    Taboo,
    TabooState,
)
from playeval.games.taboo.words import same_word, says_word, word_forms

__all__ = ["CATEGORIES", "CLUE_GIVER", "GUESSER", "LEVEL_CATEGORIES", "LIMIT", "Round", "ScriptedClueGiver",
           "ScriptedGuesser", "Taboo", "TabooState", "load_words", "mechanical_clues", "same_word", "says_word",
           "word_forms"]
