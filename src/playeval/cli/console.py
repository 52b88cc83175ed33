"""Terminal output shared by the commands."""

from __future__ import annotations

from typing import Any, NoReturn

import typer
from rich.console import Console

from playeval.core.match import Outcome


def stdout() -> Console:
    return Console(highlight=False)


def stderr() -> Console:
    return Console(stderr=True, highlight=False)


def fail(message: str, code: int = 2) -> NoReturn:
    stderr().print(f"[bold red]error:[/] {message}", markup=True, soft_wrap=True)
    raise SystemExit(code)


def db_option() -> Any:
    return typer.Option(None, "--db", help="Database URL (default: $PLAYEVAL_DB or the SQLite file in the data dir).")


def outcome_label(outcome: Outcome, seat: str) -> str:
    """'won', 'lost', 'draw', 'forfeit' or 'aborted', from ``seat``'s point of view."""
    if outcome.status != "finished":
        return outcome.status
    if outcome.winner is None:
        return "draw"
    return "won" if outcome.winner == seat else "lost"
