"""``playeval results``: the outcome table of a run."""

from __future__ import annotations

import typer
from rich import box
from rich.table import Table

from playeval.analysis import match_rows, summarize
from playeval.analysis.load import ModelCost, run_costs
from playeval.analysis.sides import team_games
from playeval.analysis.verdict_accuracy import verdict_rows, verdict_tables
from playeval.analysis.verdict_sources import run_verdict_sources, verdict_lines
from playeval.cli.console import db_option, print_table, stdout
from playeval.cli.team_tables import print_counts, print_result_table
from playeval.core.registry import default_registry
from playeval.engine import interruption_lines, require_run
from playeval.engine.batch import recorded_config
from playeval.models.pricing import format_usd
from playeval.store import Store


def _rounds(mean: float | None, sd: float | None) -> str:
    return "n/a" if mean is None else f"{mean:.1f}±{sd or 0.0:.1f}"


def print_results(store: Store, run_id: str) -> None:
    """One row per game, model and team (the team column only where a game has teams): every evaluated seat a
    model held counts, so ``n`` counts seats."""
    run = store.get_run(run_id)
    registry = default_registry()
    results = summarize(match_rows(store, run_id, registry))
    scores = {game: info for game in dict.fromkeys(r.game for r in results)
              if game in registry.ids() and (info := getattr(registry.get(game), "score", None)) is not None}
    table = Table(title=f"run {run_id}: {run.game} L{run.level} ({run.status})", box=box.SIMPLE_HEAD, padding=(0, 1))
    several = len({r.game for r in results}) > 1
    teams = any(r.team is not None for r in results)
    if several:
        table.add_column("game")
    table.add_column("model", no_wrap=True)
    if teams:
        table.add_column("team", no_wrap=True)
    for column in ("n", "prompts", "win ±sd", "rounds ±sd", "forfeits", "invalid", *(("score",) if scores else ()),
                   "tokens", "s/match"):
        table.add_column(column, justify="right", no_wrap=True)
    for result in results:
        per_match = result.seconds / result.matches if result.matches else 0.0
        table.add_row(
            *((result.game,) if several else ()),
            result.model,
            *((result.team or "-",) if teams else ()),
            str(result.matches),
            str(result.variants),
            f"{result.win_rate:.2f}±{result.win_rate_std:.2f}",
            _rounds(result.avg_rounds, result.avg_rounds_std),
            str(result.forfeits) + (f" (+{result.opponent_forfeits} opp.)" if result.opponent_forfeits else ""),
            f"{result.invalid_move_rate:.0%}",
            *((scores[result.game].text(result.score) if result.game in scores else "-",) if scores else ()),
            f"{result.tokens:,}",
            f"{per_match:.1f}",
        )
    console = stdout()
    print_table(console, table)
    if not results:
        console.print("no finished matches in this run yet")
    else:
        console.print("prompts: system prompt variants seen; sd: standard deviation across them; "
                      "forfeits count as losses, and matches the opponent forfeited (opp.) are left out of the "
                      "win rate; invalid: rejected replies per reply; "
                      "rounds: over matches the rules finished; "
                      "s/match: the evaluated model's own time.")
        if scores:
            console.print("score: each game's own per-seat number, the mean over seats: "
                          + "; ".join(f"{game}: {info.label}" for game, info in scores.items()) + ".")
    for game in team_games(default_registry(), [result.game for result in results]):
        print_counts(store, run_id, game)
    for verdicts in verdict_tables(verdict_rows(store, run_id, registry),
                                   lambda game: registry.get(game).presentation.name):
        print_result_table(console, verdicts)
    for line in verdict_lines(recorded_config(store, run_id), run_verdict_sources(store, run_id)):
        console.print(line, markup=False)
    print_costs(run_costs(store, run_id))


def print_costs(costs: list[ModelCost]) -> None:
    """Tokens and cost per model over every call of the run (judges' and unfinished matches' too), and in all."""
    if not costs:
        return
    table = Table(title="cost: every model call of the run", box=box.SIMPLE_HEAD, padding=(0, 1))
    table.add_column("model", no_wrap=True)
    for column in ("calls", "cached", "tokens in", "tokens out", "cost"):
        table.add_column(column, justify="right", no_wrap=True)
    for row in costs:
        table.add_row(row.model, str(row.calls), str(row.cached_calls), f"{row.prompt_tokens:,}",
                      f"{row.completion_tokens:,}", format_usd(row.cost_usd))
    console = stdout()
    print_table(console, table)
    unpriced = costs[-1].unpriced_calls
    note = ("cost: from the price table (USD per million tokens; override in $PLAYEVAL_PRICES or "
            "~/.config/playeval/prices.toml); cached calls cost nothing")
    if unpriced:
        note += (f"; unknown: {unpriced} call(s) with no price recorded (a model missing from the table, or "
                 "stored before prices were)")
    console.print(note + ".")


def register(app: typer.Typer) -> None:
    @app.command("results")
    def results(run_id: str = typer.Argument(None, help="Run id (default: the latest run)."),
                db: str | None = db_option()) -> None:
        """Per model: win rate (± std across prompt variants), rounds, forfeits, tokens, time."""
        with Store.open(db, write=False) as store:
            run = require_run(store, run_id)
            print_results(store, run)
            for line in interruption_lines(store, run):  # one line per reason a stopped run left matches unfinished
                stdout().print(f"{line}; finish them with: playeval run --resume {run}", markup=False)
