"""``playeval results``: the outcome table of a run."""

from __future__ import annotations

import typer
from rich import box
from rich.table import Table

from playeval.analysis import match_rows, summarize
from playeval.analysis.chance import NOT_ABOVE, chance_verdicts, key_of, player_label, split_baselines
from playeval.analysis.load import ModelCost, run_costs
from playeval.analysis.outcomes import ModelResult, unscored_text
from playeval.analysis.rule_games import rule_game_rows
from playeval.analysis.sides import team_games
from playeval.analysis.verdict_accuracy import verdict_rows, verdict_tables
from playeval.analysis.verdict_sources import run_verdict_sources, verdict_lines
from playeval.cli.console import db_option, print_table, stdout
from playeval.cli.team_tables import print_counts, print_result_table
from playeval.cli.usage_tables import WORK_COLUMNS, WORK_NOTE, work_cells
from playeval.core.baselines import is_baseline
from playeval.core.registry import default_registry
from playeval.engine import interruption_lines, require_run
from playeval.engine.batch import recorded_config
from playeval.models.pricing import format_usd
from playeval.store import Store


def _interval(value: float | None, low: float | None, high: float | None, digits: int) -> str:
    """``0.50 [0.15, 0.85]``; the value alone without an interval; ``n/a`` without a value."""
    if value is None:
        return "n/a"
    if low is None or high is None:
        return f"{value:.{digits}f}"
    return f"{value:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def _scored(result: ModelResult) -> str:
    """The interval's n: the scored matches, and the seats in them where the model held several of a table."""
    return f"{result.scored_matches} ({result.scored} seats)" if result.clustered else str(result.scored_matches)


def print_results(store: Store, run_id: str) -> None:
    """One row per game, model and team (the team column only where a game has teams), then the baseline
    players' rows under them, by name; each model marked against the random baseline where the run has one."""
    run = store.get_run(run_id)
    registry = default_registry()
    results = summarize(match_rows(store, run_id, registry))
    models, baselines = split_baselines(results)
    verdicts = chance_verdicts(results)
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
    for column in ("matches", "win [95% CI]", "n", *(("vs random",) if verdicts else ()), "rounds [95% CI]",
                   "forfeits", "not scored", "invalid", *(("score",) if scores else ()), "tokens", "s/match"):
        table.add_column(column, justify="right", no_wrap=True)

    def add(result: ModelResult, label: str) -> None:
        per_match = result.seconds / result.matches if result.matches else 0.0
        table.add_row(
            *((result.game,) if several else ()),
            label,
            *((result.team or "-",) if teams else ()),
            str(result.played),
            _interval(result.win_rate, result.win_low, result.win_high, 2),
            _scored(result),
            *((verdicts.get(key_of(result)) or ("" if is_baseline(result.model) else "-"),) if verdicts else ()),
            _interval(result.avg_rounds, result.rounds_low, result.rounds_high, 1),
            str(result.forfeits),
            unscored_text(result),
            f"{result.invalid_move_rate:.0%}",
            *((scores[result.game].text(result.score) if result.game in scores else "-",) if scores else ()),
            f"{result.tokens:,}",
            f"{per_match:.1f}",
        )

    for result in models:
        add(result, result.model)
    if baselines:
        table.add_section()
        table.add_row(*(("",) if several else ()), "baselines", style="dim")
        for result in baselines:
            add(result, f"  {player_label(result.model)}")
    console = stdout()
    print_table(console, table)
    if not results:
        console.print("no finished matches in this run yet")
    else:
        console.print("win: wins over scored seats, with a 95% interval over matches: Wilson's where each match gave "
                      "the model one seat, a bootstrap of the matches where it held several seats of one table "
                      "(n then counts those seats too); n/a when nothing was scored. n: the scored matches. "
                      "Forfeits count as losses; not scored: matches left out of the win rate, by why (opponent "
                      "forfeit: another seat ran out of re-asks; role failed: the game master or another role gave "
                      "no usable reply; aborted: stopped from outside). invalid: rejected replies per reply; "
                      "rounds: over matches the rules finished, with a t interval; s/match: the evaluated model's "
                      "own time.")
        if verdicts:
            console.print(f"vs random: against the random baseline on the same game and setups: {NOT_ABOVE} when "
                          "the two 95% intervals overlap, above or below chance when they do not.")
        if baselines:
            console.print("baselines: players of known character a game provides (playeval run --baselines), on "
                          "the same setups as the models; not ranked among them.")
        if scores:
            console.print("score: each game's own per-seat number, the mean over seats: "
                          + "; ".join(f"{game}: {info.label}" for game, info in scores.items()) + ".")
    for game in team_games(default_registry(), [result.game for result in results]):
        print_counts(store, run_id, game)
    print_check_chance(store, run_id)
    for accuracy in verdict_tables(verdict_rows(store, run_id, registry),
                                   lambda game: registry.get(game).presentation.name):
        print_result_table(console, accuracy)
    for line in verdict_lines(recorded_config(store, run_id), run_verdict_sources(store, run_id)):
        console.print(line, markup=False)
    print_costs(run_costs(store, run_id))


def print_check_chance(store: Store, run_id: str) -> None:
    """The guess-the-rule games' check accuracy beside its chance level and Cohen's kappa (``analysis.rule_games``):
    the score column alone cannot say whether 50% is a grasp of the rule or a coin."""
    rows = [row for row in rule_game_rows(store, run_id, default_registry()) if row.check_items]
    if not rows:
        return
    table = Table(title="the rule-application check beside chance", box=box.SIMPLE_HEAD, padding=(0, 1))
    for column in ("game", "level", "model", "items", "check acc.", "chance", "kappa"):
        table.add_column(column, justify="left" if column in ("game", "model") else "right", no_wrap=True)
    for row in rows:
        table.add_row(row.game, f"L{row.level}", row.model, str(row.check_items),
                      "n/a" if row.check_accuracy is None else f"{row.check_accuracy:.0%}",
                      "n/a" if row.check_chance is None else f"{row.check_chance:.0%}",
                      "n/a" if row.check_kappa is None else f"{row.check_kappa:+.2f}")
    console = stdout()
    print_table(console, table)
    console.print("chance: what chance scores on the items asked (the share of the commonest right answer: 50% on "
                  "balanced yes/no items; 0% for the Math Game's next values, open numbers); kappa: Cohen's kappa "
                  "of the answers against the right ones (0: no better than chance, 1: all right).")


def print_costs(costs: list[ModelCost]) -> None:
    """Tokens, cost and the local backend's work per model over every call of the run (judges' and unfinished
    matches' too), and in all."""
    if not costs:
        return
    table = Table(title="cost: every model call of the run", box=box.SIMPLE_HEAD, padding=(0, 1))
    table.add_column("model", no_wrap=True)
    worked = bool(costs[-1].work.reported)  # the local backend's figures, shown only for a run that has them
    for column in ("calls", "cached", "tokens in", "tokens out", "cost", *(WORK_COLUMNS if worked else ())):
        table.add_column(column, justify="right", no_wrap=True)
    for row in costs:
        table.add_row(row.model, str(row.calls), str(row.cached_calls), f"{row.prompt_tokens:,}",
                      f"{row.completion_tokens:,}", format_usd(row.cost_usd),
                      *(work_cells(row.work) if worked else ()))
    console = stdout()
    print_table(console, table)
    if costs[-1].work.reported:
        console.print(WORK_NOTE, markup=False)
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
        """Per model: win rate with its 95% interval over matches, beside chance, rounds, forfeits, tokens, time."""
        with Store.open(db, write=False) as store:
            run = require_run(store, run_id)
            print_results(store, run)
            for line in interruption_lines(store, run):  # one line per reason a stopped run left matches unfinished
                stdout().print(f"{line}; finish them with: playeval run --resume {run}", markup=False)
