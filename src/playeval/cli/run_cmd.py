"""``playeval run``: a batch of matches, persisted as they happen, resumable."""

from __future__ import annotations

import asyncio

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from playeval.cli.console import db_option, fail, outcome_label, stderr
from playeval.cli.results_cmd import print_results
from playeval.core.game import evaluated_seat
from playeval.core.match import Outcome
from playeval.core.registry import default_registry
from playeval.engine import SCRIPTED, BatchRunner, PlannedMatch, RunConfig, create_run, pending_matches, run_config
from playeval.models import DEFAULT_MODEL, ModelHub
from playeval.store import Store


def _split(models: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in models.split(",") if part.strip())


def register(app: typer.Typer) -> None:
    @app.command("run")
    def run(
        game: str = typer.Argument(None, help="Game id (see `playeval games`); omit with --resume."),
        models: str = typer.Option(DEFAULT_MODEL, "--models", "-m", help="Comma-separated models to evaluate."),
        opponent: str = typer.Option(DEFAULT_MODEL, "--opponent", help="Model for the other seats, or 'scripted'."),
        n: int = typer.Option(3, "--n", help="Matches per model."),
        level: int = typer.Option(1, "--level", help="Game level."),
        seed: int = typer.Option(0, "--seed", help="Run seed: same seed, same secrets and prompt variants."),
        concurrency: int = typer.Option(1, "--concurrency", help="Matches played at once."),
        secret_set: str = typer.Option(None, "--secret-set", help="Named set of secrets (game-specific)."),
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
                config = RunConfig(game=game, level=level, models=_split(models), opponent=opponent, n=n, seed=seed,
                                   concurrency=concurrency, secret_set=secret_set, temperature=temperature)
            run_id = asyncio.run(_run(store, config, resume, use_cache=not no_cache))
            print_results(store, run_id)


async def _run(store: Store, config: RunConfig, resume: str | None, use_cache: bool) -> str:
    registry = default_registry()
    game = registry.get(config.game)
    async with ModelHub(use_cache=use_cache) as hub:
        for address in (*config.models, config.opponent):
            if address != SCRIPTED:
                hub.get(address)  # unknown providers, models and missing keys fail here, before anything is recorded
        run_id = resume or create_run(store, registry, config)
        target = evaluated_seat(game)
        pending = pending_matches(store, run_id)
        total = config.n * len(config.models)
        err = stderr()
        err.print(f"run [bold]{run_id}[/]: {config.game} L{config.level}, {', '.join(config.models)} "
                  f"vs {config.opponent}; {len(pending)} of {total} matches to play")
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TimeRemainingColumn(), console=err) as progress:
            task = progress.add_task("matches", total=total, completed=total - len(pending))

            def on_match(planned: PlannedMatch, outcome: Outcome) -> None:
                progress.console.print(f"  #{planned.index:<3} {planned.model:<28} "
                                       f"{outcome_label(outcome, target):<8} {outcome.rounds:>3} rounds  "
                                       f"{outcome.reason}", markup=False)
                progress.advance(task)

            await BatchRunner(store, hub, registry).run(run_id, on_match=on_match)
    return run_id
