"""``playeval games``: the registered games with their levels and seats."""

from __future__ import annotations

import typer
from rich.table import Table

from playeval.cli.console import stdout
from playeval.core.registry import default_registry


def register(app: typer.Typer) -> None:
    @app.command("games")
    def games() -> None:
        """List the games with their levels, seats, roles (and who plays them by default) and options."""
        table = Table(title="playeval games")
        table.add_column("game", style="bold")
        table.add_column("levels")
        table.add_column("seats and roles")
        table.add_column("options")
        for game in default_registry():
            levels = "\n".join(f"L{level.level}: {level.description}" for level in game.levels)
            seats = [f"{seat.name}{' (evaluated)' if seat.evaluated else ''}: {seat.role}" for seat in game.seats]
            roles = [f"role {role.name} (default {role.default}): {role.does}" for role in game.roles]
            options = "\n".join(f"{option.name}={option.default}: {option.description}" for option in game.options)
            table.add_row(f"{game.id}\n{game.title}", levels, "\n".join(seats + roles), options or "-")
        stdout().print(table)
