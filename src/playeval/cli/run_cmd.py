"""``playeval run``: a batch of matches, persisted as they happen, resumable."""

from __future__ import annotations

import asyncio

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from playeval.cli.console import db_option, fail, outcome_label, stderr
from playeval.cli.results_cmd import print_results
from playeval.core.game import evaluated_seat
from playeval.core.match import Outcome
from playeval.core.registry import GameRegistry, default_registry
from playeval.engine import SCRIPTED, BatchRunner, PlannedMatch, RunConfig, create_run, pending_matches, run_config
from playeval.models import DEFAULT_MODEL, ModelHub
from playeval.store import Store


def _split(models: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in models.split(",") if part.strip())


def _games(text: str, registry: GameRegistry) -> tuple[str, ...]:
    """``akinator``, ``akinator,taboo`` or ``all``; each name checked against the registry."""
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


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run(
        game: str = typer.Argument(None, help="Game id, several separated by commas, or 'all' "
                                               "(see `playeval games`); omit with --resume."),
        models: str = typer.Option(DEFAULT_MODEL, "--models", "-m", help="Comma-separated models to evaluate."),
        opponent: str = typer.Option(DEFAULT_MODEL, "--opponent", help="Model for the other seats, or 'scripted'."),
        n: int = typer.Option(3, "--n", help="Matches per model."),
        level: int = typer.Option(1, "--level", help="Game level."),
        seed: int = typer.Option(0, "--seed", help="Run seed: same seed, same secrets and prompt variants."),
        concurrency: int = typer.Option(1, "--concurrency", help="Matches played at once."),
        secret_set: str = typer.Option(None, "--secret-set",
                                       help="Named set of secrets: SET for one game, or GAME=SET,GAME=SET."),
        temperature: float = typer.Option(0.0, "--temperature", help="Sampling temperature of every model."),
        resume: str = typer.Option(None, "--resume", help="Finish an interrupted run by id."),
        no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the response cache."),
        db: str | None = db_option(),
    ) -> None:
        """Run a batch of matches and print the results table."""
        if not resume and not game:
            fail("name a game (see `playeval games`) or pass --resume RUN_ID")
        with Store.open(db) as store:
            if resume:
                config = run_config(store, resume)
            else:
                games = _games(game, default_registry())
                config = RunConfig(games=games, level=level, models=_split(models), opponent=opponent, n=n,
                                   seed=seed, concurrency=concurrency, secret_sets=_secret_sets(secret_set, games),
                                   temperature=temperature)
            run_id = asyncio.run(_run(store, config, resume, use_cache=not no_cache))
            print_results(store, run_id)


async def _run(store: Store, config: RunConfig, resume: str | None, use_cache: bool) -> str:
    registry = default_registry()
    async with ModelHub(use_cache=use_cache) as hub:
        for address in (*config.models, config.opponent):
            if address != SCRIPTED:
                hub.get(address)  # unknown providers, models and missing keys fail here, before anything is recorded
        run_id = resume or create_run(store, registry, config)
        targets = {name: evaluated_seat(registry.get(name)) for name in config.games}
        pending = pending_matches(store, run_id)
        total = config.n * len(config.models) * len(config.games)
        err = stderr()
        err.print(f"run [bold]{run_id}[/]: {config.label} L{config.level}, {', '.join(config.models)} "
                  f"vs {config.opponent}; {len(pending)} of {total} matches to play")
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TimeRemainingColumn(), console=err) as progress:
            task = progress.add_task("matches", total=total, completed=total - len(pending))

            def on_match(planned: PlannedMatch, outcome: Outcome) -> None:
                label = outcome_label(outcome, targets[planned.game])
                progress.console.print(f"  #{planned.index:<3} {planned.game:<9} {planned.model:<28} "
                                       f"{label:<8} {outcome.rounds:>3} rounds  {outcome.reason}", markup=False)
                progress.advance(task)

            await BatchRunner(store, hub, registry).run(run_id, on_match=on_match)
    return run_id
