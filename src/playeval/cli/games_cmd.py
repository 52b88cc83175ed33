"""``playeval games``: the registered games with their levels and seats, then each game's baseline players and the
pair of secret sets it offers for a held-out comparison (a reader sizing a run needs both: the chance level it will
be shown against, and how to check that a ranking survives another set of secrets)."""

from __future__ import annotations

from typing import Any

import typer
from rich.table import Table

from playeval.cli.console import stdout
from playeval.core.baselines import baseline_address, game_baselines
from playeval.core.game import Game, split_sets_of
from playeval.core.registry import default_registry

NO_BASELINES = "none declared: --baselines adds no player to its lineups"
NO_SPLIT = "none offered"
HELD_OUT = ("A held-out comparison: the same run once on each set of the pair (--secret-set SET), then "
            "playeval analyze stability RUN_A RUN_B.")


def baselines_text(game: Game[Any]) -> str:
    """The game's baseline players as the listing shows them, one a line: the address a run plays it under and how
    it plays."""
    declared = game_baselines(game)
    if not declared:
        return NO_BASELINES
    return "\n".join(f"{baseline_address(info.name)}: {info.description}" for info in declared)


def split_text(game: Game[Any]) -> str:
    """The game's two disjoint secret sets and how a held-out comparison is run on them."""
    pair = split_sets_of(game)
    if pair is None:
        return NO_SPLIT
    first, second = pair
    return f"{first} and {second} (no secret in both)"


def register(app: typer.Typer) -> None:
    @app.command("games")
    def games() -> None:
        """List the games with their levels, seats, roles (and who plays them by default) and options; then each
        game's baseline players and its pair of disjoint secret sets for a held-out comparison."""
        registry = default_registry()
        table = Table(title="playeval games")
        table.add_column("game", style="bold")
        table.add_column("levels")
        table.add_column("seats and roles")
        table.add_column("options")
        chance = Table(title="baselines (playeval run --baselines) and held-out secret sets (--secret-set)")
        chance.add_column("game", style="bold")
        chance.add_column("baseline players")
        chance.add_column("held-out pair of secret sets")
        chance.caption = HELD_OUT
        for game in registry:
            levels = "\n".join(f"L{level.level}: {level.description}" for level in game.levels)
            seats = [f"{seat.name}{' (evaluated)' if seat.evaluated else ''}: {seat.role}" for seat in game.seats]
            roles = [f"role {role.name} (default {role.default}): {role.does}" for role in game.roles]
            options = "\n".join(f"{option.name}={option.default}: {option.description}" for option in game.options)
            table.add_row(f"{game.id}\n{game.title}", levels, "\n".join(seats + roles), options or "-")
            chance.add_row(game.id, baselines_text(game), split_text(game))
        stdout().print(table)
        stdout().print(chance)
