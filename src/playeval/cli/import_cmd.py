"""``playeval import``: load a run's export (``playeval export``) into a store."""

from __future__ import annotations

from pathlib import Path

import typer

from playeval.cli.console import db_option, fail, stderr
from playeval.store import Store, read_run_jsonl


def register(app: typer.Typer) -> None:
    @app.command("import")
    def import_run(file: Path = typer.Argument(..., help="A JSON-lines export, from: playeval export RUN -o FILE."),
                   db: str | None = db_option()) -> None:
        """Load an exported run, with every match, event and model call, into the database (all or nothing)."""
        try:
            with file.open(encoding="utf-8") as handle:
                exported = read_run_jsonl(handle)
        except OSError as err:
            fail(f"cannot read {file}: {err.strerror}")
        except UnicodeDecodeError as err:
            fail(f"{file} is not a text export: {err.reason} at byte {err.start}")
        with Store.open(db) as store:
            ids = store.import_run(exported)
            shown = store.url
        moved = sum(1 for old, new in ids.items() if old != new)
        stderr().print(f"imported run {exported.run.id} ({len(exported.matches)} matches, {len(ids)} model calls) "
                       f"into {shown}" + ("; its model calls took new ids, the ones the export gave were in use"
                                          if moved else ""), markup=False, soft_wrap=True)
