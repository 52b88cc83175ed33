"""The built-in games."""

from typing import Any

from playeval.core.game import Game
from playeval.games.akinator import Akinator
from playeval.games.bluffing import Bluffing
from playeval.games.dynamic_picnic import DynamicPicnic
from playeval.games.functions_picnic import FunctionsPicnic
from playeval.games.math import MathGame
from playeval.games.static_picnic import StaticPicnic
from playeval.games.taboo import Taboo
from playeval.games.undercover import Undercover

BUILTIN_GAMES: tuple[type[Game[Any]], ...] = (Akinator, Bluffing, DynamicPicnic, FunctionsPicnic, MathGame,
                                              StaticPicnic, Taboo, Undercover)

__all__ = ["BUILTIN_GAMES", "Akinator", "Bluffing", "DynamicPicnic", "FunctionsPicnic", "MathGame", "StaticPicnic",
           "Taboo", "Undercover"]
