"""``playeval leaderboard``: ratings per board and overall with their intervals, chance and people beside them."""

from __future__ import annotations

import json

import typer
from rich import box
from rich.table import Table

from playeval.analysis.bradley_terry import DEFAULT_RESAMPLES, RatedPlayer
from playeval.analysis.leaderboard import (
    BoardResult,
    Leaderboard,
    WinRate,
    leaderboard_notes,
    load_leaderboard,
    ranks,
)
from playeval.cli.console import db_option, fail, print_table, stdout
from playeval.core.errors import NotFoundError
from playeval.core.registry import default_registry
from playeval.store import Store

NONE = "—"
NOT_ABOVE_CHANCE = "not above chance"


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def _rank(rows: tuple[RatedPlayer, ...], player: str) -> str:
    rank, tied = ranks(rows).get(player, (0, False))
    return f"{rank}=" if tied else str(rank)


def _rating(row: RatedPlayer | None) -> tuple[str, str, str]:
    if row is None:
        return NONE, NONE, NONE
    return f"{row.rating:.0f}", f"[{row.low:.0f}, {row.high:.0f}]", str(row.matches)


def _rate(row: WinRate | None) -> tuple[str, str, str]:
    if row is None:
        return NONE, NONE, NONE
    return f"{row.rate:.2f}", f"[{row.low:.2f}, {row.high:.2f}]" + ("*" if row.clustered else ""), str(row.n)


def board_table(board: BoardResult) -> Table:
    """One board: its models by rating (then any model with a rate but no comparison), its baselines, its people."""
    elo = {row.model: row for row in board.team_elo}
    people = f", people's: {board.people_matches}" if board.people_matches else ""
    table = Table(title=f"{board.name}: {_count(board.matches, 'match', 'matches')} ({board.rated} rated{people})",
                  box=box.SIMPLE_HEAD, padding=(0, 1))
    table.add_column("rank", justify="right")
    table.add_column("player", no_wrap=True)
    for column in ("rating", "95% interval", "matches", "win rate", "95% CI", "n"):
        table.add_column(column, justify="right", no_wrap=True)
    if elo:
        table.add_column("team Elo [95%]", justify="right", no_wrap=True)
    table.add_column("", no_wrap=True)

    def add(rank: str, player: str, rating: RatedPlayer | None, rate: WinRate | None, mark: str) -> None:
        team = elo.get(player)
        extra = (f"{team.rating:.1f} [{team.low:.1f}, {team.high:.1f}]" if team else NONE,) if elo else ()
        table.add_row(rank, player, *_rating(rating), *_rate(rate), *extra, mark)

    shown = set()
    for row in board.ratings:
        shown.add(row.player)
        add(_rank(board.ratings, row.player), row.player, row, board.rate_of(row.player),
            NOT_ABOVE_CHANCE if row.player in board.not_above_chance else "")
    for rate in board.rates:
        if not rate.baseline and rate.player not in shown:
            add(NONE, rate.player, None, rate, NOT_ABOVE_CHANCE if rate.player in board.not_above_chance else "")
    baselines = {row.player: row for row in board.baseline_ratings}
    for name in dict.fromkeys([*baselines, *(rate.player for rate in board.rates if rate.baseline)]):
        add(NONE, name, baselines.get(name), board.rate_of(name), "baseline")
    for person in board.people:
        table.add_row(NONE, f"{person.label} (as {person.seat})", NONE, NONE, NONE, f"{person.rate:.2f}",
                      f"[{person.low:.2f}, {person.high:.2f}]", str(person.n), *((NONE,) if elo else ()),
                      "not rated")
    return table


def overall_table(board: Leaderboard) -> Table:
    table = Table(title=f"overall: {_count(len(board.boards), 'board', 'boards')}, each weighing the same",
                  box=box.SIMPLE_HEAD, padding=(0, 1))
    table.add_column("rank", justify="right")
    table.add_column("player", no_wrap=True)
    for column in ("rating", "95% interval", "matches", "boards"):
        table.add_column(column, justify="right", no_wrap=True)
    table.add_column("", no_wrap=True)
    for row in (*board.overall, *board.overall_baselines):
        baseline = row in board.overall_baselines
        boards = sum(1 for result in board.boards
                     if any(r.player == row.player for r in (*result.ratings, *result.baseline_ratings)))
        table.add_row(NONE if baseline else _rank(board.overall, row.player), row.player, *_rating(row), str(boards),
                      "baseline" if baseline else "")
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
