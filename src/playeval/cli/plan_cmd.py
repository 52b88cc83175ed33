"""``playeval plan``: how many matches a run needs to tell models apart, before paying for it."""

from __future__ import annotations

import typer
from rich import box
from rich.table import Table

from playeval.analysis.power import detectable, game_numbers, requirement
from playeval.cli.console import fail, print_table, stdout
from playeval.cli.run_cmd import game_ids
from playeval.core.errors import ConfigError
from playeval.core.game import evaluated_seats
from playeval.core.registry import GameRegistry, default_registry
from playeval.core.rng import match_rng

_METHOD = ("normal approximation for two independent proportions (Fleiss eq. 4.14), two-sided; the level is shared "
           "among the ranking's adjacent pairs (Bonferroni)")


def _model_count(text: str) -> int:
    """``4`` or a comma-separated list of models (counted)."""
    text = text.strip()
    if text.isdigit():
        count = int(text)
    else:
        count = len([p for p in text.split(",") if p.strip()])
    if count < 2:
        fail(f"--models: a ranking needs at least 2 models, got {text!r}")
    return count


def _seats(registry: GameRegistry, game_id: str) -> int:
    """Evaluated seats of the game's default table at level 1."""
    game = registry.get(game_id)
    level = game.levels[0].level if game.levels else 1
    try:
        spec = game.new_spec(level, 0, match_rng(0))
    except ConfigError:
        return sum(1 for seat in game.seats if seat.evaluated)
    return len(evaluated_seats(game, spec)) or 1


def register(app: typer.Typer) -> None:
    @app.command("plan")
    def plan(
        games: str = typer.Option(..., "--games", "-g", help="Games of the run: comma-separated ids, or 'all'."),
        models: str = typer.Option(..., "--models", "-m",
                                   help="How many models the run ranks: a number, or the comma-separated models."),
        detect: float = typer.Option(0.1, "--detect",
                                     help="Difference in true win rate to tell apart (0.1: 0.45 against 0.55)."),
        n: int | None = typer.Option(None, "--n", help="Instead: the difference that this many game numbers find."),
        base: float = typer.Option(0.5, "--base", help="Win rate the two models are centred on (0.5: the most "
                                                        "matches; lower or higher needs fewer)."),
        alpha: float = typer.Option(0.05, "--alpha", help="Level of the test (0.05: 95 %)."),
        power: float = typer.Option(0.8, "--power", help="Chance of finding a true difference of --detect."),
    ) -> None:
        """Matches per model a run needs to separate two models whose true win rates differ by --detect, at 95 %
        with 80 % power (normal approximation), per game and for the overall rating; or, with --n, what a run of
        that size can separate."""
        registry = default_registry()
        ids = game_ids(games, registry)
        if not ids:
            fail("--games: name at least one game (see `playeval games`), or 'all'")
        k = _model_count(models)
        try:
            need = requirement(detect, k, base=base, alpha=alpha, power=power)
        except ValueError as err:
            fail(str(err))
        out = stdout()
        out.print(f"method: {_METHOD}", soft_wrap=True)
        if n is not None:
            if n < 1:
                fail(f"--n must be at least 1, got {n}")
            table = Table(title=f"what --n {n} separates ({k} models, alpha {alpha:g}, power {power:g})",
                          box=box.SIMPLE_HEAD)
            for column in ("game", "evaluated seats", "results per model", "smallest difference"):
                table.add_column(column)
            for game_id in ids:
                seats = _seats(registry, game_id)
                per_model = n * seats
                smallest = detectable(per_model, models=k, base=base, alpha=alpha, power=power)
                table.add_row(game_id, str(seats), str(per_model),
                              "none below 1" if smallest >= 1.0 else f"{smallest:.2f}")
            pooled = n * sum(_seats(registry, g) for g in ids)
            overall = detectable(pooled, models=k, base=base, alpha=alpha, power=power)
            print_table(out, table)
            out.print(f"overall rating (every game weighted equally, the difference the same in every game): "
                      f"{'none below 1' if overall >= 1.0 else f'{overall:.2f}'} from {pooled} results per model",
                      soft_wrap=True)
            return
        table = Table(title=f"to separate a difference of {detect:g} in win rate ({k} models, alpha {alpha:g} "
                            f"shared by {k - 1} adjacent pairs, power {power:g})", box=box.SIMPLE_HEAD)
        for column in ("game", "evaluated seats", "results per model", "--n", "matches in the run"):
            table.add_column(column)
        total = 0
        for game_id in ids:
            seats = _seats(registry, game_id)
            numbers = game_numbers(need.per_model, seats)
            matches = numbers * k
            total += matches
            table.add_row(game_id, str(seats), str(need.per_model), str(numbers), f"{matches:,}")
        print_table(out, table)
        pooled_n = max(1, -(-need.per_model // len(ids)))
        out.print(f"each game on its own: {total:,} matches in all ({need.per_model} results per model and game; "
                  f"a table game counts its evaluated seats as independent, which is optimistic)", soft_wrap=True)
        out.print(f"overall rating only (every game weighted equally, the difference the same in every game): about "
                  f"{pooled_n} results per model and game", soft_wrap=True)
