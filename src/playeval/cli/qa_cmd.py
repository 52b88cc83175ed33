"""``playeval qa``: CK-Arena's snapshot QA benchmark, built from stored Undercover games and asked of models."""

from __future__ import annotations

import asyncio
from pathlib import Path

import typer
from rich import box
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from playeval.analysis.qa import GAME, TASK_NAMES, TASKS, QAItem, build_items, read_items, write_items
from playeval.analysis.qa_eval import (
    DEFAULT_MAX_RETRIES,
    QACall,
    TaskScore,
    evaluate,
    pending,
    qa_win_correlation,
    read_calls,
    score,
    seat_win_rates,
)
from playeval.analysis.sides import elo_games, stored_matches
from playeval.cli.console import db_option, fail, print_table, stderr, stdout
from playeval.core.registry import default_registry
from playeval.models import ModelHub
from playeval.store import Store

qa_app = typer.Typer(help="CK-Arena's snapshot QA benchmark from stored Undercover games.", no_args_is_help=True)


def _split(values: list[str] | None) -> list[str]:
    """Names given as repeated options, comma-separated lists, or both; in order, without repeats."""
    return list(dict.fromkeys(part.strip() for value in values or () for part in value.split(",") if part.strip()))


@qa_app.command("build")
def build_cmd(
    run_ids: list[str] = typer.Argument(..., help="Run ids holding finished Undercover matches."),
    out: Path = typer.Option(..., "--out", "-o", help="The QA file to write (JSONL, one item a line)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the option orders and distractors."),
    db: str | None = db_option(),
) -> None:
    """Build QA items (A: which concept, B: the other concept, C: the odd statement) from the runs' games."""
    with Store.open(db, write=False) as store:
        items, report = build_items(store, run_ids, default_registry(), seed=seed)
    write_items(out, items)
    console = stdout()
    console.print(f"wrote {len(items)} items to {out}: "
                  + ", ".join(f"{task} ({TASK_NAMES[task]}) {report.items[task]}" for task in TASKS))
    console.print(report.filters(), markup=False)


@qa_app.command("eval")
def eval_cmd(
    qa_file: Path = typer.Argument(..., help="A QA file from: playeval qa build."),
    models: list[str] = typer.Option(..., "--models", "-m", help="Models to ask, comma-separated or repeated."),
    calls: Path | None = typer.Option(None, "--calls", help="Where every call is written (default: next to the "
                                                           "QA file, NAME.calls.jsonl); answered items are not "
                                                           "asked again."),
    runs: list[str] | None = typer.Option(None, "--runs", help="Runs whose Undercover win rates the accuracy is "
                                                              "compared with (default: the items' source runs)."),
    max_retries: int = typer.Option(DEFAULT_MAX_RETRIES, "--max-retries", min=0,
                                    help="Re-asks of an unreadable reply before it counts wrong."),
    concurrency: int = typer.Option(4, "--concurrency", min=1, help="Items asked at once."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not read or write the response cache."),
    db: str | None = db_option(),
) -> None:
    """Ask each model every item; print accuracy per model and task, and its rank correlation with win rate."""
    items = read_items(qa_file)
    addresses = _split(models)
    if not addresses:
        fail("give at least one model with --models")
    calls_path = calls if calls is not None else qa_file.with_suffix(".calls.jsonl")
    source_runs = _split(runs) or list(dict.fromkeys(item.run_id for item in items))
    with Store.open(db, write=False) as store:  # a store that cannot be read fails before any model is asked
        game = default_registry().get(GAME)
        win_rates = seat_win_rates(elo_games(game, stored_matches(store, source_runs, GAME)))
    asyncio.run(_ask(items, addresses, calls_path, max_retries, concurrency, use_cache=not no_cache))
    scores = score(items, addresses, read_calls(calls_path))
    _print_scores(scores, win_rates, calls_path, source_runs)


async def _ask(items: list[QAItem], addresses: list[str], calls_path: Path, max_retries: int, concurrency: int,
               use_cache: bool) -> None:
    async with ModelHub(use_cache=use_cache) as hub:
        models = {address: hub.get(address) for address in addresses}  # unknown models fail before any work
        todo = len(pending(items, addresses, read_calls(calls_path)))
        err = stderr()
        err.print(f"{len(items)} items x {len(addresses)} models: {todo} answers to get, "
                  f"{len(items) * len(addresses) - todo} already in {calls_path}")
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      TimeRemainingColumn(), console=err) as progress:
            bar = progress.add_task("answers", total=todo)

            def on_answer(call: QACall) -> None:
                progress.advance(bar)

            await evaluate(items, models, calls_path, max_retries=max_retries, concurrency=concurrency,
                           on_answer=on_answer)


def _cell(result: TaskScore) -> str:
    if result.accuracy is None:
        return "n/a"
    low, high = result.interval
    return f"{result.accuracy:.2f} [{low:.2f}, {high:.2f}] ({result.n})"


def _print_scores(scores: list[TaskScore], win_rates: dict[str, float], calls_path: Path,
                  runs: list[str]) -> None:
    table = Table(title="snapshot QA accuracy [Wilson 95%] (n)", box=box.SIMPLE_HEAD, padding=(0, 1))
    table.add_column("model", overflow="fold")
    for task in TASKS:
        table.add_column(f"{task}: {TASK_NAMES[task]}", justify="right")
    for column in ("overall", "unreadable", "win rate"):
        table.add_column(column, justify="right")
    by_model: dict[str, dict[str, TaskScore]] = {}
    for result in scores:
        by_model.setdefault(result.model, {})[result.task] = result
    for model, results in by_model.items():
        rate = win_rates.get(model)
        table.add_row(model, *(_cell(results[task]) for task in TASKS), _cell(results["all"]),
                      str(results["all"].unreadable), "n/a" if rate is None else f"{rate:.2f}")
    console = stdout()
    print_table(console, table)
    correlation = qa_win_correlation({model: results["all"].accuracy for model, results in by_model.items()},
                                     win_rates)
    rho = "n/a" if correlation.rho is None else f"{correlation.rho:.3f}"
    console.print(f"Spearman rho (overall QA accuracy vs Undercover win rate): {rho}; {correlation.note}",
                  markup=False)
    console.print(f"win rate: seats won over seats held in run(s) {', '.join(runs)}; an unreadable reply (after "
                  f"its re-asks) counts wrong; every call is in {calls_path}.", markup=False)


def register(app: typer.Typer) -> None:
    app.add_typer(qa_app, name="qa")
