"""The built-in games."""

from playeval.games.akinator import Akinator

BUILTIN_GAMES: tuple[type, ...] = (Akinator,)

__all__ = ["BUILTIN_GAMES", "Akinator"]
