"""The built-in games."""

from typing import Any

from playeval.core.game import Game
from playeval.games.akinator import Akinator

BUILTIN_GAMES: tuple[type[Game[Any]], ...] = (Akinator,)

__all__ = ["BUILTIN_GAMES", "Akinator"]
