"""``playeval export`` and ``playeval transcript``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from playeval.cli.console import db_option, fail, stderr, stdout
from playeval.core.game import Game
from playeval.core.registry import default_registry
from playeval.engine import require_run, state_from_events
from playeval.store import MatchRecord, Store, export_run_jsonl


def transcript_header(game: Game[Any], match: MatchRecord, state: Any = None) -> str:
    """``## match N [status] key='hidden value' ... seat=model, ...``, then the roles a run bound to models of
    their own (a role played by a seat's occupant is not repeated)."""
    hidden = " ".join(f"{item.key}={item.value!r}" for item in game.disclosures(match.spec, state))
    seats = ", ".join(f"{s.seat}={s.model or s.player_kind}" for s in match.seats)
    roles = ", ".join(f"{r.role}={r.model or r.player_kind}" for r in match.roles if r.seat is None)
    return f"## match {match.match_index} [{match.status}] {hidden} {seats}" + (f"; roles: {roles}" if roles else "")


def register(app: typer.Typer) -> None:
    @app.command("export")
    def export(run_id: str = typer.Argument(..., help="Run id."),
               fmt: str = typer.Option("jsonl", "--format", help="Export format (jsonl)."),
               output: Path = typer.Option(None, "--output", "-o", help="File to write (default: stdout)."),
               db: str | None = db_option()) -> None:
        """Write a self-contained export of a run: every match with its events and model calls."""
        if fmt != "jsonl":
            fail(f"unknown export format {fmt!r}; known: jsonl")
        with Store.open(db, write=False) as store:
            store.get_run(run_id)
            if output is None:
                count = export_run_jsonl(store, run_id, sys.stdout)
            else:
                try:
                    handle = output.open("w", encoding="utf-8")
                except OSError as err:
                    fail(f"cannot write the export to {output}: {err.strerror}")
                with handle:
                    count = export_run_jsonl(store, run_id, handle)
        stderr().print(f"exported {count} matches of run {run_id}" + (f" to {output}" if output else ""))

    @app.command("transcript")
    def transcript(run_id: str = typer.Argument(None, help="Run id (default: the latest run)."),
                   db: str | None = db_option()) -> None:
        """Print every match of a run as a plain transcript (diff two runs to compare them)."""
        registry = default_registry()
        console = stdout()
        with Store.open(db, write=False) as store:
            run_id = require_run(store, run_id)
            for match in store.run_matches(run_id):
                game = registry.get(match.game)
                state = state_from_events(game, match.spec, store.events(match.id))
                console.print(transcript_header(game, match, state), markup=False)
                for seat, text in game.transcript(state):
                    console.print(f"{seat}: {text}", markup=False)
                if match.outcome:
                    console.print(f"-> {match.outcome.headline()}: {match.outcome.reason}", markup=False)
