"""Terminal output shared by the commands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

if TYPE_CHECKING:  # every command imports this module; the games' core is for the commands that use it
    from playeval.core.match import Outcome


def stdout() -> Console:
    return Console(highlight=False)


def print_table(console: Console, table: Table) -> None:
    """Print ``table`` at its natural width, even where the console is narrower (a pipe is 80 columns).

    Rich would otherwise squeeze it to fit, cutting numbers and model names short or collapsing whole columns;
    a line wider than the terminal wraps, which loses nothing.
    """
    natural = console.measure(table, options=console.options.update_width(10_000)).maximum
    if natural <= console.width:
        console.print(table)
        return
    wide = Console(file=console.file, width=natural, highlight=False, no_color=console.no_color,
                   force_terminal=console.is_terminal)
    wide.print(table)


def stderr() -> Console:
    return Console(stderr=True, highlight=False)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` and exit. The message is text, not markup: rich read ``pip install
    'playeval[local]'`` as a style tag and printed ``pip install 'playeval'``."""
    stderr().print(f"[bold red]error:[/] {escape(message)}", markup=True, soft_wrap=True)
    raise SystemExit(code)


def db_option() -> Any:
    return typer.Option(None, "--db", help="Database URL (default: $PLAYEVAL_DB or the SQLite file in the data dir).")


def outcome_label(outcome: Outcome, seat: str) -> str:
    """'won', 'lost', 'draw', 'forfeit' or 'aborted', from ``seat``'s point of view."""
    if outcome.status != "finished":
        return outcome.status
    if outcome.drawn:
        return "draw"
    return "won" if outcome.result_for(seat).won else "lost"
