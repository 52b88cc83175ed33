"""``playeval analyze``: the retrospective analysis, procedural metrics and ranking comparisons of a run."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import typer
from rich import box
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from playeval.analysis import (
    RetroRunner,
    capability_profiles,
    compare,
    load_rankings,
    match_retros,
    match_rows,
    metric_specs,
    run_rankings,
    scored_matches,
    summarize,
    summarize_procedural,
)
from playeval.analysis.judge_agreement import RunAgreement, run_agreement
from playeval.analysis.load import run_costs
from playeval.analysis.ratings import SeatResult, elo_intervals, order_check
from playeval.analysis.rule_games import PASSING, rule_game_rows
from playeval.analysis.sides import (
    elo_formula,
    elo_games,
    elo_offsets,
    elo_rule,
    run_games,
    stored_matches,
    team_analysis,
    team_games,
)
from playeval.analysis.stability import format_stability, rating_rankings, stability, win_rate_rankings
from playeval.analysis.tied_rankings import PERMUTATIONS, Ranking
from playeval.cli.console import db_option, fail, print_table, stderr, stdout
from playeval.cli.judge_cmd import register_judge
from playeval.cli.team_tables import TeamCommands
from playeval.cli.usage_tables import print_usage
from playeval.core.game import Game
from playeval.core.info import TeamAnalysis
from playeval.core.registry import GameRegistry, default_registry
from playeval.engine import require_run
from playeval.models import ModelHub
from playeval.store import Store

analyze_app = typer.Typer(cls=TeamCommands, help="Retrospective analysis, procedural metrics, ranking comparisons, "
                          "and each team game's tables (playeval analyze GAME).", no_args_is_help=True)


def _fmt(value: float | None, percent: bool) -> str:
    if value is None:
        return "n/a"
    return f"{value * 100:.2f}" if percent else f"{value:.2f}"


def print_procedural(store: Store, run_id: str) -> None:
    """Table 3's form, one table per game, then the capability profile."""
    registry = default_registry()
    summaries = summarize_procedural(match_retros(store, run_id, registry), registry)
    console = stdout()
    if not summaries:
        console.print(f"run {run_id} has no retrospective outputs yet; run: playeval analyze retro {run_id}")
        return
    for game in sorted({s.game for s in summaries}):
        specs = metric_specs(registry.get(game))
        table = Table(title=f"{game}: procedural metrics", box=box.SIMPLE_HEAD, padding=(0, 1))
        table.add_column("model", overflow="fold")
        table.add_column("n", justify="right")
        for spec in specs:
            arrow = " ↓" if spec.lower_is_better else ""
            table.add_column(f"{spec.label}{' (%)' if spec.percent else ''}{arrow}\n[{spec.skill}]", justify="right")
        for summary in (s for s in summaries if s.game == game):
            table.add_row(summary.model, str(summary.matches),
                          *(_fmt(summary.values.get(spec.name), spec.percent) for spec in specs))
        print_table(console, table)
        notes: dict[str, list[str]] = {}
        for s in summaries:
            for note, count in s.missing if s.game == game else ():
                if count:
                    notes.setdefault(note, []).append(f"{s.model}: {count}")
        failed = [f"{s.model}: {s.failed_outputs}" for s in summaries if s.game == game and s.failed_outputs]
        for note, counts in notes.items():
            console.print(f"  {note}: {', '.join(counts)}")
        if failed:
            console.print(f"  unreadable outputs (after re-asks): {', '.join(failed)}")
    models = sorted({s.model for s in summaries})
    profile = Table(title="capability profile: mean rank among this run's models (1 = best)", box=box.SIMPLE_HEAD)
    profile.add_column("model", overflow="fold")
    profiles = capability_profiles(summaries, models, registry)
    for standing in profiles[0].skills:
        profile.add_column(standing.skill, justify="right")
    for model_profile in profiles:
        profile.add_row(model_profile.model,
                        *("n/a" if s.rank is None else f"{s.rank:.2f}" for s in model_profile.skills))
    print_table(console, profile)


@analyze_app.command("retro")
def retro(
    run_id: str = typer.Argument(None, help="Run id (default: the latest run)."),
    judge: str = typer.Option(None, "--judge", help="Model that classifies candidates for Akinator's disparity "
                                                    "ratio (default: the evaluated model itself)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the response cache."),
    db: str | None = db_option(),
) -> None:
    """Re-ask every finished match round by round for candidate lists or judgements, and store them."""
    with Store.open(db) as store:
        run_id = require_run(store, run_id)
        asyncio.run(_retro(store, run_id, judge, use_cache=not no_cache))
        print_procedural(store, run_id)


async def _retro(store: Store, run_id: str, judge: str | None, use_cache: bool) -> None:
    async with ModelHub(use_cache=use_cache) as hub:
        runner = RetroRunner(store, hub, default_registry(), judge=judge)
        plan = runner.plan(run_id)
        for address in plan.models:
            hub.get(address)  # unknown models and missing keys fail before any work
        err = stderr()
        err.print(f"run [bold]{run_id}[/]: {len(plan.tasks)} retrospective outputs to produce, "
                  f"{plan.stored} already stored, {len(plan.skipped_matches)} matches not analysable")
        for match_id, why in plan.skipped_matches[:5]:
            err.print(f"  skipped {match_id}: {why}", markup=False)
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TimeRemainingColumn(), console=err) as progress:
            bar = progress.add_task("outputs", total=len(plan.tasks))

            def on_output(task: object, record: object) -> None:
                progress.advance(bar)

            summary = await runner.run(run_id, plan, on_output=on_output)
        err.print(f"produced {summary.produced} outputs ({summary.failed} unreadable after re-asks)")


@analyze_app.command("metrics")
def metrics(run_id: str = typer.Argument(None, help="Run id (default: the latest run)."),
            db: str | None = db_option()) -> None:
    """Print the procedural metrics (Table 3's form) and the capability profile of a run."""
    with Store.open(db, write=False) as store:
        print_procedural(store, require_run(store, run_id))


@analyze_app.command("compare")
def compare_cmd(
    run_id: str = typer.Argument(None, help="Run id (default: the latest run)."),
    rankings: Path = typer.Option(..., "--rankings", help="JSON file: {name: [best, ...]} or {name: {model: rank}}."),
    p: float = typer.Option(0.9, "--p", help="RBO persistence."),
    permutations: int = typer.Option(1000, "--permutations", help="Permutations for the RBO test."),
    seed: int = typer.Option(0, "--seed", help="Seed of the permutation test."),
    db: str | None = db_option(),
) -> None:
    """Kendall's tau (with its exact test) and RBO (with a permutation test) between the run's and the file's
    rankings; a comparison that cannot be told from chance (too few models or matches) is refused, saying why."""
    theirs = load_rankings(rankings)
    registry = default_registry()
    with Store.open(db, write=False) as store:
        run_id = require_run(store, run_id)
        rows = match_rows(store, run_id, registry)
        results = summarize(rows)
        summaries = summarize_procedural(match_retros(store, run_id, registry), registry)
        models = sorted({r.model for r in results})
        ours = run_rankings(results, capability_profiles(summaries, models, registry), registry,
                            matches=scored_matches(rows))
    found = compare({name: ranking.ranking for name, ranking in ours.items()}, theirs,
                    matches={name: ranking.matches for name, ranking in ours.items()}, p=p,
                    permutations=permutations, seed=seed)
    reasons = list(dict.fromkeys(refusal.reason for refusal in found.refused))
    if not found.rows and reasons:
        fail(f"no comparison can be told from chance: {escape('; '.join(reasons))}")
    if not found.rows:
        fail("no pair of rankings shares two or more models; are the model names the same in the file?")
    table = Table(title=f"run {run_id} vs {rankings.name}", box=box.SIMPLE_HEAD, padding=(0, 1))
    for column in ("run ranking", "other ranking", "n", "matches", "ties", "tau", "p (tau)", "test", "RBO",
                   "p (RBO)"):
        table.add_column(column, justify="left" if "ranking" in column or column == "test" else "right")
    for row in found.rows:
        table.add_row(row.ours, row.theirs, str(len(row.models)), str(row.fewest_matches),
                      str(ours[row.ours].tied_pairs), f"{row.tau:.2f}", f"{row.p:.4f}", row.method,
                      f"{row.rbo:.2f}", f"{row.rbo_p:.4f}")
    console = stdout()
    print_table(console, table)
    console.print("tau test: one-sided (H1: the rankings agree); exact: the share of all n! orderings of the models "
                  "agreeing at least as well (GameArena's Appendix D.1 variance gives p-values far too small at "
                  "this n); normal: the normal approximation, for many models. RBO: extrapolated, "
                  f"p = {p}; its p-value from {permutations} random orderings (seed {seed}). matches: the fewest "
                  "scored matches of any compared model. ties: pairs of models the run scored equally; tau is tau-b "
                  "then, and its test keeps the ties (permutation: from random pairings, for many models), while "
                  "RBO takes tied models by name. Rankings in which every model ties are left out.")
    for reason in reasons:
        console.print(f"not compared: {reason}", markup=False)


@analyze_app.command("rules")
def rules_cmd(
    run_id: str = typer.Argument(None, help="Run id (default: the latest run)."),
    passing: float = typer.Option(PASSING, "--pass", help="Share of held-out items a guess must get right to "
                                                         "pass the rule-application check."),
    db: str | None = db_option(),
) -> None:
    """GuessTheRuleBench's table: win rate with a Wilson 95% interval, the wins the rules and the judge decided,
    turns, examples, time, and the rule-application check beside it (accuracy, its chance level and Cohen's kappa
    against the right answers, and how often the judge agrees with it)."""
    with Store.open(db, write=False) as store:
        run_id = require_run(store, run_id)
        rows = rule_game_rows(store, run_id, default_registry(), passing=passing)
    if not rows:
        fail(f"run {run_id} has no finished guess-the-rule matches played by a model")
    table = Table(title=f"run {run_id}: guess-the-rule games", box=box.SIMPLE_HEAD, padding=(0, 1))
    for column in ("game", "level", "model", "n", "win [95% CI]", "won by rules/judge", "turns", "items seen",
                   "s/match", "check acc.", "chance", "kappa", "judge agrees"):
        table.add_column(column, justify="left" if column in ("game", "model") else "right")
    for row in rows:
        interval = f"{row.win_rate:.2f} [{row.ci_low:.2f}, {row.ci_high:.2f}]" if row.win_rate is not None else "n/a"
        table.add_row(row.game, f"L{row.level}", row.model, str(row.matches), interval,
                      f"{row.rule_wins}/{row.wins - row.rule_wins}", _number(row.turns),
                      _number(row.examples_seen), _number(row.seconds), _rate(row.check_accuracy),
                      _rate(row.check_chance), _kappa(row.check_kappa), f"{_rate(row.agreement)} ({row.judged})")
    console = stdout()
    print_table(console, table)
    console.print(f"win: a guess accepted (a forfeit is a loss); items seen: what the player was shown (a picnic "
                  f"example is two items, one that may come and one that may not; the Math Game's are values); "
                  f"won by rules/judge: the wins whose guess the rules "
                  f"accepted without asking the judge (the rule in its own words, or a Math Game formula giving "
                  f"every value) / those the judge role accepted; check acc.: the last rule-application check of "
                  f"each match; chance: what chance scores on the items those checks asked (the share of the "
                  f"commonest right answer: 50% on balanced yes/no items; 0 for the Math Game's next values, "
                  f"open numbers); kappa: Cohen's kappa of the answers against the right ones over those items "
                  f"(0: no better than chance, 1: all right); judge agrees: of the guesses both judged and "
                  f"checked, the share where the judge accepted exactly those that got at least {passing:.0%} of "
                  f"the held-out items right.")


@analyze_app.command("agreement")
def agreement_cmd(
    run_id: str = typer.Argument(None, help="Run id (default: the latest run)."),
    passing: float = typer.Option(PASSING, "--pass", help="Share of held-out items a guess must get right to "
                                                         "pass the rule-application check."),
    resamples: int = typer.Option(1000, "--resamples", min=1, help="Bootstrap resamples of the questions."),
    seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap."),
    as_json: bool = typer.Option(False, "--json", help="Print the numbers as JSON instead of tables."),
    db: str | None = db_option(),
) -> None:
    """How the run's judges agreed: panel members with each other (unanimous share, Cohen's or Fleiss' kappa,
    bootstrap 95% intervals) per game and scale, the rule games' judges with the rule-application check, and
    what decided each verdict (the model's word, a calibrated threshold, the rules)."""
    with Store.open(db, write=False) as store:
        run_id = require_run(store, run_id)
        found = run_agreement(store, run_id, default_registry(), passing=passing, resamples=resamples, seed=seed)
    if not (found.agreement or found.checks or found.decided):
        fail(f"run {run_id} has no judge's verdict (no game of it asks a judged role)")
    if as_json:
        typer.echo(json.dumps(dataclasses.asdict(found), indent=2))
        return
    _print_agreement(found)


def _interval(value: float | None, low: float | None, high: float | None, percent: bool) -> str:
    if value is None:
        return "n/a"
    shown = _rate if percent else _fixed
    return f"{shown(value)} [{shown(low)}, {shown(high)}]"


def _fixed(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _print_agreement(found: RunAgreement) -> None:
    console = stdout()
    if found.agreement:
        table = Table(title=f"run {found.run_id}: agreement of judge panels", box=box.SIMPLE_HEAD, padding=(0, 1))
        for column in ("game", "role", "scale", "members", "questions", "unanimous [95% CI]", "kappa",
                       "kappa [95% CI]", "left out"):
            table.add_column(column, justify="left" if column in ("game", "role", "scale", "kappa") else "right")
        for row in found.agreement:
            table.add_row(row.game, row.role, row.kind, str(row.members), str(row.questions),
                          _interval(row.unanimous, row.unanimous_low, row.unanimous_high, True),
                          "Cohen" if row.method == "cohen" else "Fleiss",
                          _interval(row.kappa, row.kappa_low, row.kappa_high, False), str(row.left_out))
        print_table(console, table)
        console.print("unanimous: questions every member decided alike; kappa: agreement beyond what each member's "
                      "own accept rate gives by chance (Cohen's for two members, Fleiss' for more; n/a when every "
                      "member always said the same); intervals: percentile bootstrap over the questions. A scale "
                      "with three answers counts as passed or not; left out: questions a member gave no verdict on.")
    else:
        console.print(f"run {found.run_id} has no panel of two or more judges; bind several models to a judge role "
                      "(--role judge=A,B) to measure their agreement.")
    if found.checks:
        table = Table(title=f"run {found.run_id}: judges against the rule-application check", box=box.SIMPLE_HEAD,
                      padding=(0, 1))
        for column in ("game", "judge", "model", "judged", "agrees [95% CI]"):
            table.add_column(column, justify="left" if column in ("game", "judge", "model") else "right")
        for check in found.checks:
            table.add_row(check.game, check.judge, check.model or "-", str(check.judged),
                          _interval(check.agreement, check.low, check.high, True))
        print_table(console, table)
        console.print(f"agrees: of the guesses judged whose check was made, the share where the verdict accepted "
                      f"exactly those that got at least {found.passing:.0%} of the held-out items right (Wilson 95% "
                      f"intervals); panel: the panel's verdict, beside each member's.")
    table = Table(title=f"run {found.run_id}: what decided the verdicts", box=box.SIMPLE_HEAD, padding=(0, 1))
    for column in ("game", "question", "word", "threshold", "rules", "unrecorded"):
        table.add_column(column, justify="left" if column in ("game", "question") else "right")
    for decided in found.decided:
        table.add_row(decided.game, decided.kind, str(decided.word), str(decided.threshold), str(decided.rules),
                      str(decided.unrecorded))
    print_table(console, table)
    console.print("word: the model's own answer; threshold: a calibrated threshold on its probability of accepting; "
                  "rules: the game's rules, no judge asked; unrecorded: a verdict with no record (a scripted judge, "
                  "a person).")


@analyze_app.command("elo")
def elo_cmd(
    run_ids: list[str] = typer.Argument(None, help="Run ids, in the order they were played (default: the latest run)."),
    game: str = typer.Option(None, "--game", help="One team game (default: each game of the runs that declares a "
                                                  "team Elo)."),
    resamples: int = typer.Option(1000, "--resamples", min=1, help="Bootstrap resamples of the games."),
    seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap."),
    db: str | None = db_option(),
) -> None:
    """CK-Arena's team Elo over the runs' games of each team game that declares one (Undercover's, a plugin's):
    ratings with bootstrap 95% intervals, and the forward-versus-reverse order check."""
    registry = default_registry()
    if game is not None and (game not in registry.ids() or _elo_of(registry.get(game)) is None):
        rated_games = [g for g in registry.ids() if _elo_of(registry.get(g)) is not None]
        fail(f"{game} has no team Elo; games with one: {', '.join(rated_games) or 'none'}")
    with Store.open(db, write=False) as store:
        runs = list(run_ids) if run_ids else [require_run(store, None)]
        for run_id in runs:
            require_run(store, run_id)
        chosen = [game] if game else [g for g in team_games(registry, run_games(store, runs))
                                      if _elo_of(registry.get(g)) is not None]
        rated = {g: elo_games(registry.get(g), stored_matches(store, runs, g)) for g in chosen}
    rated = {g: games for g, games in rated.items() if games}
    if not rated:
        fail(f"no finished {game or 'team'} game with models on both sides in run(s) {', '.join(runs)}")
    for name, games in rated.items():
        _print_elo(name, games, resamples, seed)


def _elo_of(game: Game[Any]) -> TeamAnalysis | None:
    analysis = team_analysis(game)
    return analysis if analysis is not None and analysis.elo is not None else None


def _print_elo(game: str, games: list[list[SeatResult]], resamples: int, seed: int) -> None:
    analysis = _elo_of(default_registry().get(game))
    assert analysis is not None
    rule = elo_rule(analysis)
    board = elo_intervals(games, rule, resamples=resamples, seed=seed)
    check = order_check(games, rule)
    table = Table(title=f"team Elo over {len(games)} {game} games", box=box.SIMPLE_HEAD, padding=(0, 1))
    for column in ("model", "games", "Elo", "95% interval", "reverse order"):
        table.add_column(column, justify="left" if column == "model" else "right")
    for row in board:
        table.add_row(row.model, str(row.games), f"{row.rating:.1f}", f"[{row.low:.1f}, {row.high:.1f}]",
                      f"{check.reverse[row.model]:.1f}")
    console = stdout()
    print_table(console, table)
    pearson = "n/a (fewer than two models, or no spread)" if check.pearson_r is None else f"{check.pearson_r:.3f}"
    offsets = "".join(f"{offset}; " for offset in elo_offsets(analysis))
    console.print(f"ratings start at 0; {offsets}actual score {elo_formula(analysis)}; intervals: {resamples} "
                  f"bootstrap resamples of the games, kept in play order. Forward vs reverse order: Pearson r "
                  f"{pearson}, largest difference {check.largest_difference:.1f}.")


def _number(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}"


def _rate(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def _kappa(value: float | None) -> str:
    return "n/a" if value is None else f"{value:+.2f}"


RankingSource = Callable[[Store, GameRegistry, Sequence[str]], Mapping[str, Ranking]]
"""What ``analyze stability`` ranks by: for a list of run ids, ``{scope: [model or [tied models], best first]}``."""


RANKED_BY: dict[str, Callable[[bool], RankingSource]] = {
    "rating": lambda with_baselines: partial(rating_rankings, with_baselines=with_baselines),
    "win-rate": lambda with_baselines: partial(win_rate_rankings, with_baselines=with_baselines),
}
"""What ``analyze stability --by`` ranks by: the leaderboard's ratings (the default) or plain win rates."""


def stability_cmd(
    run_a: str = typer.Argument(..., help="The first run (e.g. played on secret set 1)."),
    run_b: str = typer.Argument(..., help="The second run of the same models (set 2, another seed...)."),
    by: str = typer.Option("rating", "--by", help="Rank by the leaderboard's 'rating' (Bradley-Terry, as "
                                                  "`playeval leaderboard`) or by 'win-rate'."),
    with_baselines: bool = typer.Option(False, "--with-baselines",
                                        help="Rank the baseline players with the models (with three models alone "
                                             "even identical rankings are chance at p = 1/6)."),
    permutations: int = typer.Option(PERMUTATIONS, "--permutations", min=1,
                                     help="Random pairings for the tau test where models tie and are too many "
                                          "to count every pairing."),
    seed: int = typer.Option(0, "--seed", help="Seed of those pairings."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of the table."),
    db: str | None = db_option(),
) -> None:
    """Do two runs of the same models rank them alike? Per game and overall: Kendall's tau with its exact
    test, RBO, and the pairs of models whose order swapped; models ranked in one run only are left out."""
    if by not in RANKED_BY:
        fail(f"--by: expected {' or '.join(RANKED_BY)}, got {by!r}")
    source = RANKED_BY[by](with_baselines)
    registry = default_registry()
    with Store.open(db, write=False) as store:
        for run_id in (run_a, run_b):
            require_run(store, run_id)
        side_a = source(store, registry, [run_a])
        side_b = source(store, registry, [run_b])
    for run_id, side in ((run_a, side_a), (run_b, side_b)):
        if not side:
            fail(f"run {run_id} ranks no models: it needs finished, scored matches of two models or more that "
                 "did not all score the same")
    found = stability(side_a, side_b, label_a=run_a, label_b=run_b, permutations=permutations, seed=seed)
    if not found.scopes:
        fail(f"runs {run_a} and {run_b} rank no game in common (A: {', '.join(sorted(side_a))}; "
             f"B: {', '.join(sorted(side_b))})")
    if as_json:
        typer.echo(json.dumps(found.as_json(), indent=2))
    else:
        typer.echo(format_stability(found))


analyze_app.command("stability")(stability_cmd)


@analyze_app.command("usage")
def usage_cmd(run_id: str = typer.Argument(None, help="Run id (default: the latest run)."),
              db: str | None = db_option()) -> None:
    """Where a run's model time went, per model: prompt tokens sent, evaluated and needed (what a perfect prefix
    cache would have computed), seconds of prompt and of generation, and tokens per second."""
    with Store.open(db, write=False) as store:
        print_usage(run_costs(store, require_run(store, run_id)))


register_judge(analyze_app)


def register(app: typer.Typer) -> None:
    app.add_typer(analyze_app, name="analyze")
