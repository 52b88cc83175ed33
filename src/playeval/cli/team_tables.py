"""A team game's tables at the terminal, as the game declares them: ``playeval analyze GAME`` for every game with a
team analysis (``Game.teams``), its counts in ``playeval results``, and the tables a game adds of its own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import typer
import typer.core
from rich import box
from rich.console import Console
from rich.table import Table

from playeval.analysis.cells import Figure, ResultTable
from playeval.analysis.chance import player_label
from playeval.analysis.sides import (
    ALL,
    SideResults,
    SideRow,
    possessive,
    side_results,
    sides_caption,
    team_analysis,
    team_games,
)
from playeval.cli.console import db_option, fail, print_table, stdout
from playeval.core.errors import PlayevalError
from playeval.core.info import TeamAnalysis
from playeval.core.registry import default_registry
from playeval.engine import require_run
from playeval.store import Store


def figure_text(value: Figure) -> str:
    """A figure as the terminal shows it: ``0.50 [0.15, 0.85]`` for a rate or a mean, a count as it is."""
    return value if isinstance(value, str) else str(value) if isinstance(value, int) else value.text()


def print_result_table(console: Console, table: ResultTable) -> None:
    """The table (when it has columns), then its caption."""
    if table.columns:
        shown = Table(title=table.title, box=box.SIMPLE_HEAD, padding=(0, 1))
        for column in table.columns:
            shown.add_column(column.heading, justify="right" if column.numeric else "left")
        for row in table.rows:
            shown.add_row(*(figure_text(value) for value in row))
        print_table(console, shown)
    if table.caption:
        console.print(table.caption)


def _number2(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _labelled(results: SideResults) -> list[tuple[SideRow, str]]:
    """The rows to show, each with its label: the models', then the baseline players' by name (as ``playeval
    results`` lists them, under a "baselines" row)."""
    rows = [(row, row.model) for row in results.rows]
    return [*rows, *((row, f"  {player_label(row.model)}") for row in results.baselines)]


def print_sides(results: SideResults, analysis: TeamAnalysis, runs: str) -> None:
    """The tables of ``playeval analyze GAME``: per model and side (the baseline players' rows apart, under the
    models'), each measure group the game shows apart, the caption, the win rate by category, then the game's own
    tables."""
    console = stdout()
    game = results.game
    main = [measure for group in analysis.groups if group.table is None for measure in group.measures]
    sides = Table(title=f"run(s) {runs}: {game}, {results.matches} matches, per model and side",
                  box=box.SIMPLE_HEAD, padding=(0, 1))
    marked = results.verdicts
    for column in ("model", "side", "n", "win [95% CI]", *(("vs random",) if marked else ()), "run's rate",
                   *(measure.label for measure in main)):
        sides.add_column(column, justify="left" if column in ("model", "side") else "right")
    apart: list[Table] = []
    for group in (group for group in analysis.groups if group.table is not None):
        table = Table(title=f"{game}: {group.table}", box=box.SIMPLE_HEAD, padding=(0, 1))
        for column in ("model", "side", *(measure.label for measure in group.measures)):
            table.add_column(column, justify="left" if column in ("model", "side") else "right")
        apart.append(table)
    groups = [group for group in analysis.groups if group.table is not None]
    for index, (row, label) in enumerate(_labelled(results)):
        baseline = index >= len(results.rows)
        if index == len(results.rows):
            for table in (sides, *apart):
                table.add_section()
                table.add_row("baselines", style="dim")
        mark = ("" if baseline or row.side == ALL else row.verdict or "-",) if marked else ()
        sides.add_row(label, row.side, row.n_text(), row.wins.text(), *mark, _number2(row.reference),
                      *(figure_text(row.values[measure.name]) for measure in main))
        for table, group in zip(apart, groups, strict=True):
            table.add_row(label, row.side, *(figure_text(row.values[measure.name]) for measure in group.measures))
    print_table(console, sides)
    for table in apart:
        print_table(console, table)
    console.print(sides_caption(analysis, results))
    if analysis.category is not None:
        first = possessive(analysis.teams[0].label)
        categories = Table(title=f"{game}: win rate by {analysis.category}", box=box.SIMPLE_HEAD, padding=(0, 1))
        for column in ("category", "model", "n", "win [95% CI]"):
            categories.add_column(column, justify="left" if column in ("category", "model") else "right")
        for item in results.categories:
            categories.add_row(item.category, item.model or f"({first} matches)", item.wins.n_text(),
                               item.wins.text())
        print_table(console, categories)
        console.print(f"n: the matches (a category's own row: the {first} share of them; a model's: its seats in "
                      "them beside, where it held several of one table); 95% intervals over the matches.")
    for extra in results.tables.terminal:
        print_result_table(console, extra)


def print_counts(store: Store, run_id: str, game: str) -> None:
    """The counts a team game declares for ``playeval results``, per model, and where its full results are."""
    analysis = team_analysis(default_registry().get(game))
    if analysis is None or not analysis.counts:
        return
    found = side_results(store, [run_id], default_registry(), game)
    if found is None:
        return
    titles = {measure.name: measure.title.lower() for measure in analysis.measures}
    table = Table(title=f"{game}: {analysis.counts_title}", box=box.SIMPLE_HEAD, padding=(0, 1))
    table.add_column("model", no_wrap=True)
    for column in ("n", *(titles[name] for name in analysis.counts)):
        table.add_column(column, justify="right", no_wrap=True)
    models = sum(row.side == ALL for row in found.rows)
    for index, (row, label) in enumerate((row, label) for row, label in _labelled(found) if row.side == ALL):
        if index == models:
            table.add_section()
            table.add_row("baselines", style="dim")
        table.add_row(label, row.n_text(), *(figure_text(row.values[name]) for name in analysis.counts))
    console = stdout()
    print_table(console, table)
    console.print(f"{analysis.counts_note} playeval analyze {game} {run_id}".lstrip())


def _runs(store: Store, run_ids: Sequence[str] | None) -> list[str]:
    runs = list(run_ids) if run_ids else [require_run(store, None)]
    for run_id in runs:
        require_run(store, run_id)
    return runs


def _team_command(game: str, description: str) -> Any:
    """``playeval analyze GAME`` for a team game."""
    app = typer.Typer()

    @app.command(game, help=f"{description}: per model and side, win rate (95% interval over matches) beside the "
                            "run's side rates, the random baseline's where the run has one, and the game's "
                            "measures; the win rate by category where it has one, and its own tables.")
    def command(run_ids: list[str] = typer.Argument(None, help="Run ids (default: the latest run)."),
                db: str | None = db_option()) -> None:
        analysis = team_analysis(default_registry().get(game))
        assert analysis is not None
        with Store.open(db, write=False) as store:
            runs = _runs(store, run_ids)
            results = side_results(store, runs, default_registry(), game)
        if results is None:
            fail(f"no finished {game} match in run(s) {', '.join(runs)}")
        print_sides(results, analysis, ", ".join(runs))

    return typer.main.get_command(app)


class TeamCommands(typer.core.TyperGroup):
    """The analyze group, with a command per team game of the registry (a plugin's too), found when asked for."""

    def _teams(self) -> list[str]:
        try:
            registry = default_registry()
        except PlayevalError:
            return []
        return [game for game in team_games(registry, registry.ids()) if game not in self.commands]

    def list_commands(self, ctx: Any) -> list[str]:
        return [*super().list_commands(ctx), *self._teams()]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is not None or cmd_name not in self._teams():
            return found
        return _team_command(cmd_name, default_registry().get(cmd_name).presentation.name)
