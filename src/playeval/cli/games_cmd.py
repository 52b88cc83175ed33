"""``playeval games``: the registered games with their levels and seats."""

from __future__ import annotations

import typer
from rich.table import Table

from playeval.cli.console import stdout
from playeval.core.registry import default_registry


def register(app: typer.Typer) -> None:
    @app.command("games")
    def games() -> None:
        """List the games with their levels and seats."""
        table = Table(title="playeval games")
        table.add_column("game", style="bold")
        table.add_column("levels")
        table.add_column("seats")
        for game in default_registry():
            levels = "\n".join(f"L{level.level}: {level.description}" for level in game.levels)
            seats = "\n".join(f"{seat.name}{' (evaluated)' if seat.evaluated else ''}: {seat.role}"
                              for seat in game.seats)
            table.add_row(f"{game.id}\n{game.title}", levels, seats)
        stdout().print(table)
