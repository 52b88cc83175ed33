"""``playeval leaderboard``: ratings per board and overall with their intervals, chance and people beside them."""

from __future__ import annotations

import json

import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from playeval.analysis.bradley_terry import DEFAULT_RESAMPLES, RatedPlayer
from playeval.analysis.leaderboard import (
    BoardLine,
    BoardResult,
    Leaderboard,
    board_lines,
    leaderboard_notes,
    load_leaderboard,
    overall_lines,
)
from playeval.cli.console import db_option, fail, print_table, stdout
from playeval.core.errors import NotFoundError
from playeval.core.registry import default_registry
from playeval.store import Store

NONE = "—"


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def _rating(row: RatedPlayer | None) -> tuple[str, str, str]:
    if row is None:
        return NONE, NONE, NONE
    return f"{row.rating:.0f}", f"[{row.low:.0f}, {row.high:.0f}]", str(row.matches)


def _rate(line: BoardLine) -> tuple[str, str, str]:
    if line.rate is None or line.low is None or line.high is None:
        return NONE, NONE, NONE
    return (f"{line.rate:.2f}", f"[{line.low:.2f}, {line.high:.2f}]" + ("*" if line.clustered else ""),
            str(line.n))


def board_table(board: BoardResult) -> Table:
    """One board: its models by rating (then any model with a rate but no comparison), its baselines, its people."""
    people = f", people's: {board.people_matches}" if board.people_matches else ""
    unscored = "".join(f", {count} not scored: {reason}" for reason, count in board.unscored)
    title = f"{board.name}: {_count(board.matches, 'match', 'matches')} ({board.rated} rated{unscored}{people})"
    table = Table(title=escape(title),
                  box=box.SIMPLE_HEAD, padding=(0, 1))
    table.add_column("rank", justify="right")
    table.add_column("player", no_wrap=True)
    for column in ("rating", "95% interval", "matches", "win rate", "95% CI", "n"):
        table.add_column(column, justify="right", no_wrap=True)
    elo = bool(board.team_elo)
    if elo:
        table.add_column("team Elo [95%]", justify="right", no_wrap=True)
    table.add_column("", no_wrap=True)
    for line in board_lines(board):
        team = line.team_elo
        extra = (f"{team.rating:.1f} [{team.low:.1f}, {team.high:.1f}]" if team else NONE,) if elo else ()
        table.add_row(line.rank, escape(line.player), *_rating(line.rating), *_rate(line), *extra, line.mark)
    return table


def overall_table(board: Leaderboard) -> Table:
    table = Table(title=f"overall: {_count(len(board.boards), 'board', 'boards')}, each game weighing the same",
                  box=box.SIMPLE_HEAD, padding=(0, 1))
    table.add_column("rank", justify="right")
    table.add_column("player", no_wrap=True)
    for column in ("rating", "95% interval", "matches", "boards"):
        table.add_column(column, justify="right", no_wrap=True)
    table.add_column("", no_wrap=True)
    for line in overall_lines(board):
        table.add_row(line.rank, escape(line.player), *_rating(line.rating), str(line.boards), line.mark)
    return table


def print_leaderboard(board: Leaderboard) -> None:
    console = stdout()
    for result in board.boards:
        print_table(console, board_table(result))
    if board.overall or board.overall_baselines:
        print_table(console, overall_table(board))
    for line in leaderboard_notes(board):
        console.print(line, markup=False)


def register(app: typer.Typer) -> None:
    @app.command("leaderboard")
    def leaderboard(
        run_ids: list[str] = typer.Argument(None, help="Run ids (default: every run in the database)."),
        as_json: bool = typer.Option(False, "--json", help="Print the leaderboard as JSON (overall, games, "
                                                          "baselines, and more), best first."),
        resamples: int = typer.Option(DEFAULT_RESAMPLES, "--resamples", min=0,
                                      help="Bootstrap resamples of the matches for the ratings' intervals."),
        seed: int = typer.Option(0, "--seed", help="Seed of the bootstraps."),
        db: str | None = db_option(),
    ) -> None:
        """Ratings per game and configuration and overall (every game weighing the same), with 95% intervals,
        each model's win rate beside the baselines' and people's, and Undercover's team Elo."""
        registry = default_registry()
        with Store.open(db, write=False) as store:
            for run_id in run_ids or ():
                try:
                    store.get_run(run_id)
                except NotFoundError:
                    fail(f"no run {run_id!r} in the database")
            if not run_ids and store.latest_run_id() is None:
                fail("no runs recorded yet; start one with: playeval run GAME --models ...")
            board = load_leaderboard(store, registry, list(run_ids) if run_ids else None, resamples=resamples,
                                     seed=seed)
        if not board.scored:
            where = f"run(s) {', '.join(run_ids)}" if run_ids else "any run"
            fail(f"nothing scored in {where}: no finished match with a model's or baseline's seat that counts "
                 "(aborted matches and the opponent's forfeits are not scored)")
        if as_json:
            typer.echo(json.dumps(board.to_json(), indent=2))
            return
        print_leaderboard(board)
