"""Bluffing: a player makes a statement about themselves; the model questions them and judges its truth."""

from playeval.games.bluffing.baselines import NaiveQuestioner, RandomQuestioner, ScriptedBluffer, ScriptedQuestioner
from playeval.games.bluffing.data import SPLIT_SETS, STATEMENT_SETS, Persona, load_personas, load_statements
from playeval.games.bluffing.rules import (
    BLUFFER,
    LIMIT,
    QUESTIONER,
    TRUTHS,
    Bluffing,
    BluffingState,
    Exchange,
)

__all__ = ["BLUFFER", "LIMIT", "QUESTIONER", "SPLIT_SETS", "STATEMENT_SETS", "TRUTHS", "Bluffing", "BluffingState",
           "Exchange", "NaiveQuestioner", "Persona", "RandomQuestioner", "ScriptedBluffer", "ScriptedQuestioner",
           "load_personas", "load_statements"]
