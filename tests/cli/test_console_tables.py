"""Tables are printed whole on narrow consoles and pipes: no cut numbers, no dropped columns."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table

from playeval.cli.console import print_table


def _table() -> Table:
    table = Table(title="results")
    table.add_column("game")
    table.add_column("model", no_wrap=True)
    table.add_column("win ±sd", no_wrap=True, justify="right")
    table.add_row("akinator", "openai/some-provider/a-very-long-model-name-2026-11-01", "0.33±0.47")
    return table


def test_a_narrow_console_gets_the_whole_table() -> None:
    out = io.StringIO()
    print_table(Console(file=out, width=40, force_terminal=False), _table())
    text = out.getvalue()
    assert "openai/some-provider/a-very-long-model-name-2026-11-01" in text
    assert "0.33±0.47" in text and "akinator" in text and "…" not in text


def test_a_wide_console_prints_as_usual() -> None:
    out = io.StringIO()
    console = Console(file=out, width=200, force_terminal=False)
    print_table(console, _table())
    assert max(len(line) for line in out.getvalue().splitlines()) <= 200
    assert "openai/some-provider/a-very-long-model-name-2026-11-01" in out.getvalue()
