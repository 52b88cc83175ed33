"""Bluffing: a player makes a statement about themselves; the model questions them and judges its truth."""

from playeval.games.bluffing.baselines import ScriptedBluffer, ScriptedQuestioner
from playeval.games.bluffing.data import STATEMENT_SETS, Persona, load_personas, load_statements
from playeval.games.bluffing.rules import (
    BLUFFER,
    LIMIT,
    QUESTIONER,
    TRUTHS,
    Bluffing,
    BluffingState,
    Exchange,
)

__all__ = ["BLUFFER", "LIMIT", "QUESTIONER", "STATEMENT_SETS", "TRUTHS", "Bluffing", "BluffingState", "Exchange",
           "Persona", "ScriptedBluffer", "ScriptedQuestioner", "load_personas", "load_statements"]
