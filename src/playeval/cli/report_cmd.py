"""``playeval report``: an HTML and Markdown report of a run, with plots and transcripts."""

from __future__ import annotations

from pathlib import Path

import typer

from playeval.cli.console import db_option, stdout
from playeval.core.registry import default_registry
from playeval.engine import require_run
from playeval.report import build_report, write_report
from playeval.store import Store


def register(app: typer.Typer) -> None:
    @app.command("report")
    def report(
        run_id: str = typer.Argument(None, help="Run id (default: the latest run)."),
        out: Path = typer.Option(None, "--out", "-o", help="Directory to write (default: ./reports/RUN_ID)."),
        db: str | None = db_option(),
    ) -> None:
        """Write index.html and report.md: Tables 2 and 3, plots, capability profile, transcripts."""
        with Store.open(db, write=False) as store:
            run_id = require_run(store, run_id)
            data = build_report(store, run_id, default_registry())
        files = write_report(data, out or Path("reports") / run_id)
        console = stdout()
        console.print(f"wrote {files.html} and {files.markdown} ({len(files.plots)} plots, "
                      f"{len(files.transcripts)} transcripts)")
        console.print(f"open: file://{files.html.resolve()}")
