"""The game registry.

A registry is an object, not module state. ``default_registry()`` builds one
from the built-in games (``playeval.games.BUILTIN_GAMES``) and any plugin
games installed under the ``playeval.games`` entry-point group.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from importlib.metadata import entry_points
from typing import Any

from playeval.core.errors import ConfigError
from playeval.core.game import Game

GameFactory = Callable[[], Game[Any]]


class GameRegistry:
    def __init__(self) -> None:
        self._factories: dict[str, GameFactory] = {}

    def add(self, game_id: str, factory: GameFactory) -> None:
        """Register a game class (or factory); its seat and role names must be distinct."""
        if game_id in self._factories:
            raise ValueError(f"game {game_id!r} registered twice")
        seats = [seat.name for seat in getattr(factory, "seats", ())]
        roles = [role.name for role in getattr(factory, "roles", ())]
        if len(set(seats) | set(roles)) != len(seats) + len(roles):
            raise ValueError(f"game {game_id!r}: seat and role names must all be distinct, got {seats + roles}")
        self._factories[game_id] = factory

    def get(self, game_id: str) -> Game[Any]:
        try:
            return self._factories[game_id]()
        except KeyError:
            known = ", ".join(sorted(self._factories)) or "none"
            raise ConfigError(f"unknown game {game_id!r}; known games: {known}") from None

    def ids(self) -> list[str]:
        return sorted(self._factories)

    def __iter__(self) -> Iterator[Game[Any]]:
        return (self.get(game_id) for game_id in self.ids())


def default_registry() -> GameRegistry:
    """A new registry of the built-in games and every game installed through the ``playeval.games`` entry point
    (built afresh on each call, so a game installed meanwhile is found)."""
    from playeval.games import BUILTIN_GAMES

    registry = GameRegistry()
    for cls in BUILTIN_GAMES:
        registry.add(cls.id, cls)
    for entry in entry_points(group="playeval.games"):
        cls = entry.load()
        registry.add(cls.id, cls)
    return registry
