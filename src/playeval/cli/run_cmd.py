"""``playeval run``: a batch of matches, persisted as they happen, resumable."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from playeval.analysis.until_separated import RoundReport, play_until_separated, round_line
from playeval.analysis.verdict_sources import calibration_lines
from playeval.cli.console import db_option, fail, outcome_label, stderr
from playeval.cli.results_cmd import print_results
from playeval.core.info import Scalar
from playeval.core.match import Outcome
from playeval.core.registry import GameRegistry, default_registry
from playeval.engine import (
    MAX_N,
    BatchRunner,
    PlannedMatch,
    RunConfig,
    RunInterrupted,
    UntilSeparated,
    baseline_lines,
    check_config,
    check_models,
    create_run,
    first_matches,
    interruption_lines,
    pending_matches,
    run_config,
    with_baselines,
)
from playeval.engine.batch import OnMatch
from playeval.models import DEFAULT_MODEL, MAX_TIMEOUT_S, ModelHub, check_timeout
from playeval.store import Store

if TYPE_CHECKING:
    from playeval.engine.ray_executor import RayRunner

EXECUTORS: tuple[str, ...] = ("asyncio", "ray")


def _split(models: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in models.split(",") if part.strip())


def game_ids(text: str, registry: GameRegistry) -> tuple[str, ...]:
    """``akinator``, ``akinator,taboo`` or ``all``; each name checked against the registry (also ``playeval
    plan``'s ``--games``)."""
    names = registry.ids() if text.strip() == "all" else _split(text)
    for name in names:
        registry.get(name)
    return tuple(names)


def _secret_sets(text: str | None, games: tuple[str, ...]) -> dict[str, str]:
    """``set1`` (one game) or ``akinator=set1,bluffing=set2``."""
    if not text:
        return {}
    if "=" not in text:
        if len(games) != 1:
            fail("with several games, name each game's set: --secret-set akinator=set1,bluffing=set2")
        return {games[0]: text.strip()}
    sets: dict[str, str] = {}
    for part in _split(text):
        game, _, name = part.partition("=")
        if not game.strip() or not name.strip():
            fail(f"--secret-set: expected GAME=SET, got {part!r}")
        sets[game.strip()] = name.strip()
    return sets


def _pairs(values: list[str] | None, flag: str) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for value in values or []:
        key, sep, setting = value.partition("=")
        if not sep or not key.strip() or not setting.strip():
            fail(f"{flag}: expected NAME=VALUE, got {value!r}")
        pairs.append((key.strip(), setting.strip()))
    return pairs


def _options(values: list[str] | None, games: tuple[str, ...]) -> dict[str, dict[str, Scalar]]:
    """``--option players=8`` (every game of the run that has it... with one game) or ``GAME.players=8``."""
    options: dict[str, dict[str, Scalar]] = {}
    for key, value in _pairs(values, "--option"):
        game, _, name = key.rpartition(".")
        if not game:
            if len(games) != 1:
                fail(f"--option {key}: with several games, name the game: --option GAME.{key}={value}")
            game = games[0]
        if game not in games:
            fail(f"--option {key}: {game} is not a game of this run")
        options.setdefault(game, {})[name] = value
    return options


class MatchRunner(Protocol):
    async def run(self, run_id: str, on_match: OnMatch | None = None) -> None: ...


def _ray_runner(store: Store, registry: GameRegistry, address: str | None, use_cache: bool) -> RayRunner:
    """The Ray executor, joined to its cluster; refused before a run is created when Ray is missing, the store is
    not PostgreSQL or the cluster cannot be reached."""
    try:
        from playeval.engine.ray_executor import RayRunner, shared_store_url
    except ModuleNotFoundError as err:
        if err.name != "ray":
            raise
        fail("--executor ray needs Ray: pip install 'playeval[ray]'")
    shared_store_url(store)
    runner = RayRunner(store, registry, address=address, use_cache=use_cache)
    runner.connect()
    return runner


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run(
        game: str = typer.Argument(None, help="Game id, several separated by commas, or 'all' "
                                               "(see `playeval games`); omit with --resume."),
        models: str = typer.Option(DEFAULT_MODEL, "--models", "-m", help="Comma-separated models to evaluate."),
        opponent: str = typer.Option(DEFAULT_MODEL, "--opponent",
                                     help="Model for the seats a game does not evaluate, or 'scripted'."),
        role: list[str] = typer.Option(None, "--role", help="Bind a role to a model: ROLE=MODEL or GAME.ROLE=MODEL "
                                                            "(MODEL may be 'scripted'); repeatable. Defaults: "
                                                            "see `playeval games`."),
        option: list[str] = typer.Option(None, "--option", help="A game option: NAME=VALUE (one game) or "
                                                                "GAME.NAME=VALUE; repeatable."),
        n: int = typer.Option(3, "--n", help="Game numbers: each model plays every game n times (per seat, "
                                             f"in games with several evaluated seats); 1 to {MAX_N:,}."),
        level: int = typer.Option(1, "--level", help="Game level."),
        seed: int = typer.Option(0, "--seed", help="Run seed: same seed, same secrets and prompt variants."),
        concurrency: int = typer.Option(1, "--concurrency", help="Matches played at once."),
        secret_set: str = typer.Option(None, "--secret-set",
                                       help="Named set of secrets: SET for one game, or GAME=SET,GAME=SET."),
        temperature: float = typer.Option(0.0, "--temperature", help="Sampling temperature of every model."),
        resume: str = typer.Option(None, "--resume", help="Finish an interrupted run by id."),
        no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the response cache."),
        executor: str = typer.Option("asyncio", "--executor",
                                     help="Where matches are played: 'asyncio' (in this process) or 'ray' (one Ray "
                                          "task per match, on a local Ray or a cluster; needs a PostgreSQL --db)."),
        ray_address: str = typer.Option(None, "--ray-address",
                                        help="Ray cluster for --executor ray: auto, HOST:6379 or ray://HOST:10001 "
                                             "(default: $RAY_ADDRESS, else a local Ray)."),
        timeout: float = typer.Option(None, "--timeout", metavar="SECONDS",
                                      help="Seconds one attempt of a model call may take, above 0 and at most "
                                           f"{MAX_TIMEOUT_S:g} (default: the provider's own, 60 s for remote APIs, "
                                           "300 s for local models; a call gives up after 120 s of retries). Kept "
                                           "with the run for --resume."),
        no_calibration: bool = typer.Option(False, "--no-calibration",
                                            help="Let every judge's verdict be its own word, even where a "
                                                 "calibration fitted for that judge model holds a threshold (by "
                                                 "default the threshold decides; the calibrations used are kept "
                                                 "with the run for --resume)."),
        baselines: bool = typer.Option(False, "--baselines",
                                       help="Add each game's baseline players (random, and naive or passive where "
                                            "the game has them; see `playeval games`) to its lineups after the "
                                            "models, on the same setups, so each model's rate stands beside "
                                            "chance's. They run no model and cost nothing."),
        until_separated: bool = typer.Option(False, "--until-separated",
                                             help="Play in rounds until every adjacent pair of the overall ranking "
                                                  "is separated at 95 % (the first round: --n game numbers of "
                                                  "everything; each later one goes to the pair least certain), or "
                                                  "--budget matches are spent; says which. Resumable."),
        budget: int = typer.Option(None, "--budget", help="With --until-separated: the most matches the run plays."),
        round_size: int = typer.Option(0, "--round-size",
                                       help="With --until-separated: matches per later round (default: as many as "
                                            "one game number of every game and model)."),
        allocation: str = typer.Option("adaptive", "--allocation",
                                       help="With --until-separated: 'adaptive' (the least certain pair next) or "
                                            "'uniform' (every model in every game each round, for comparison)."),
        db: str | None = db_option(),
    ) -> None:
        """Run a batch of matches and print the results table."""
        if (budget is not None or round_size or allocation != "adaptive") and not until_separated:
            fail("--budget, --round-size and --allocation go with --until-separated")
        if until_separated and resume:
            fail("--until-separated: a resumed run keeps how it was recorded; pass only --resume RUN_ID")
        if until_separated and (budget is None or budget < 1):
            fail("--until-separated needs --budget N, the most matches the run may play (see `playeval plan`)")
        if allocation not in ("adaptive", "uniform"):
            fail(f"--allocation: expected adaptive or uniform, got {allocation!r}")
        if round_size < 0:
            fail(f"--round-size must be 0 (the default) or more, not {round_size}")
        if not resume and not game:
            fail("name a game (see `playeval games`) or pass --resume RUN_ID")
        if executor not in EXECUTORS:
            fail(f"--executor: expected one of {', '.join(EXECUTORS)}, got {executor!r}")
        if ray_address and executor != "ray":
            fail("--ray-address is for --executor ray")
        if not resume and not 1 <= n <= MAX_N:
            fail(f"--n: a run plays each game 1 to {MAX_N:,} times, not {n:,}")
        if timeout is not None:
            try:
                check_timeout(timeout)
            except ValueError as err:
                fail(f"--timeout: {err}")
        if resume and no_calibration:
            fail("--no-calibration: a resumed run decides its verdicts as it was recorded (with or without "
                 "calibration); start a new run to change it")
        if resume and baselines:
            fail("--baselines: a resumed run keeps the lineups it was recorded with (with or without baselines); "
                 "start a new run to change them")
        with Store.open(db) as store:
            if resume:
                config = run_config(store, resume)
            else:
                games = game_ids(game, default_registry())
                config = RunConfig(games=games, level=level, models=_split(models), opponent=opponent, n=n,
                                   seed=seed, concurrency=concurrency, secret_sets=_secret_sets(secret_set, games),
                                   temperature=temperature, roles=dict(_pairs(role, "--role")),
                                   options=_options(option, games), timeout_s=timeout,
                                   calibration=not no_calibration, baselines=baselines,
                                   until=UntilSeparated(budget=budget, round_size=round_size, strategy=allocation)
                                   if until_separated else None)
                if config.until is not None and config.first_round_size > config.until.budget:
                    fail(f"--budget {config.until.budget}: the first round alone (--n {config.n}) holds "
                         f"{config.first_round_size} matches")
            run_id = asyncio.run(_run(store, config, resume, use_cache=not no_cache, executor=executor,
                                      ray_address=ray_address))
            print_results(store, run_id)


async def _run(store: Store, config: RunConfig, resume: str | None, use_cache: bool, executor: str = "asyncio",
               ray_address: str | None = None) -> str:
    registry = default_registry()
    async with ModelHub(use_cache=use_cache, timeout_s=config.timeout_s) as hub:
        check_config(registry, config)  # bad levels, roles and options fail here, before anything is recorded
        config = with_baselines(config, registry)  # the baselines each game declares, kept with the run
        # the first game number uses every game, model and role of the run; setting a match up may run code
        first = first_matches(config, registry, DEFAULT_MODEL)
        # unknown models, missing keys and weights, the defaults of the roles a match asks included: one line,
        # before the run is recorded
        check_models(hub, config, first, registry)
        runner: MatchRunner = (_ray_runner(store, registry, ray_address, use_cache) if executor == "ray"
                               else BatchRunner(store, hub, registry))
        run_id = resume or create_run(store, registry, config, first=first)
        config = run_config(store, run_id)  # as recorded: with the calibrations found for its models
        pending = pending_matches(store, run_id, registry)
        total = pending.total
        err = stderr()
        err.print(f"run [bold]{run_id}[/]: {config.label} L{config.level}, {', '.join(config.models)} "
                  f"vs {config.opponent}; {len(pending)} of {total} matches to play")
        for line in [*baseline_lines(config), *calibration_lines(config)]:
            err.print(f"  {line}", markup=False)
        if resume:
            for line in interruption_lines(store, run_id):
                err.print(f"  {line}; playing on from their events", markup=False)
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TimeRemainingColumn(), console=err) as progress:
            task = progress.add_task("matches", total=total, completed=total - len(pending))

            def on_match(planned: PlannedMatch, outcome: Outcome) -> None:
                evaluated = [seat.seat for seat in planned.seats if seat.evaluated]
                label = outcome_label(outcome, evaluated[0]) if len(evaluated) == 1 else outcome.headline()
                progress.console.print(f"  #{planned.index:<3} {planned.game:<9} {planned.label:<28} "
                                       f"{label:<8} {outcome.rounds:>3} rounds  {outcome.reason}", markup=False)
                progress.advance(task)

            def on_round(report: RoundReport) -> None:
                progress.console.print(f"  {round_line(report)}", markup=False)
                if report.next_round:
                    progress.update(task, total=pending_matches(store, run_id, registry).total)

            with _cancelled_on_sigterm() as signalled:
                try:
                    if config.until is not None:
                        await play_until_separated(runner, store, registry, run_id, on_match=on_match,
                                                   on_round=on_round)
                    else:
                        await runner.run(run_id, on_match=on_match)
                except asyncio.CancelledError as err:
                    if not signalled:
                        raise
                    left = sum(1 for m in store.run_matches(run_id) if m.status == "interrupted")
                    raise RunInterrupted(run_id, err, left) from None
    return run_id


SIGTERM_REASON = "the process got SIGTERM"
"""Why a run stopped by SIGTERM stopped, as stored with the matches it left interrupted."""


@contextmanager
def _cancelled_on_sigterm() -> Iterator[list[int]]:
    """Within the block, SIGTERM cancels the current task with ``SIGTERM_REASON`` (as Ctrl-C cancels it), so the
    runner marks the run's unfinished matches interrupted with that reason instead of the process dying with the
    run left ``running``. The list it gives holds the signal once it came."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    came: list[int] = []

    def stop() -> None:
        came.append(signal.SIGTERM)
        if task is not None:
            task.cancel(SIGTERM_REASON)

    loop.add_signal_handler(signal.SIGTERM, stop)
    try:
        yield came
    finally:
        loop.remove_signal_handler(signal.SIGTERM)
