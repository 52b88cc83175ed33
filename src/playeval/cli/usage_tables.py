"""The work a run's model calls cost the backend, at the terminal: two columns of ``playeval results``' cost table
and the table of ``playeval analyze usage``.

The figures come only from a backend that reports them (a local llama.cpp model); a cache hit and a remote API
report none, shown as a dash (``NONE``) rather than a zero that would read as free.
"""

from __future__ import annotations

from rich import box
from rich.table import Table

from playeval.analysis.load import ModelCost
from playeval.cli.console import print_table, stdout
from playeval.core.work import WorkTotals

NONE = "\u2013"
"""A figure no call reported: an en dash."""

WORK_COLUMNS: tuple[str, str] = ("prompt evaluated / needed", "tok/s in / out")

WORK_NOTE = ("prompt evaluated / needed: prompt tokens the local backend computed, against what a perfect prefix "
             "cache would have computed (each prompt minus its longest common prefix with an earlier prompt and "
             "reply of the model), and their ratio (1.00x: no reuse missed); tok/s in / out: prompt tokens "
             "evaluated and reply tokens generated per second; \u2013 where no call reported them (cached calls and "
             "remote APIs do not).")


def _count(value: int | None) -> str:
    return NONE if value is None else f"{value:,}"


def _rate(value: float | None) -> str:
    return NONE if value is None else f"{value:,.1f}"


_seconds = _rate


def evaluated_text(work: WorkTotals) -> str:
    """``1,620 / 1,537 (1.05x)``: tokens evaluated, tokens needed and their ratio; ``NONE`` when no call reported
    them (and for a missing half)."""
    if work.prompt_evaluated is None and work.prompt_needed is None:
        return NONE
    text = f"{_count(work.prompt_evaluated)} / {_count(work.prompt_needed)}"
    excess = work.excess
    return text if excess is None else f"{text} ({excess:.2f}x)"


def rates_text(work: WorkTotals) -> str:
    """``312.0 / 18.4``: prompt tokens evaluated and tokens generated per second; ``NONE`` when neither is known."""
    prompt, generation = work.prompt_rate, work.generation_rate
    if prompt is None and generation is None:
        return NONE
    return f"{_rate(prompt)} / {_rate(generation)}"


def work_cells(work: WorkTotals) -> tuple[str, str]:
    """The cells of ``WORK_COLUMNS`` for one row."""
    return evaluated_text(work), rates_text(work)


def print_usage(costs: list[ModelCost]) -> None:
    """Per model and in all: the calls, how many reported their work, the prompt tokens sent, evaluated and
    needed, the reply tokens, the seconds of prompt and of generation, and the rates (``playeval analyze usage``)."""
    console = stdout()
    if not costs:
        console.print("no model calls in this run yet")
        return
    table = Table(title="model work: every model call of the run", box=box.SIMPLE_HEAD, padding=(0, 1))
    table.add_column("model", no_wrap=True)
    for column in ("calls", "cached", "reported", "tokens in", "evaluated / needed", "tokens out", "s in / out",
                   "tok/s in / out"):
        table.add_column(column, justify="right", no_wrap=True)
    for row in costs:
        work = row.work
        seconds = NONE if work.prompt_s is None and work.generation_s is None else \
            f"{_seconds(work.prompt_s)} / {_seconds(work.generation_s)}"
        table.add_row(row.model, str(row.calls), str(row.cached_calls), str(work.calls), f"{row.prompt_tokens:,}",
                      evaluated_text(work), f"{row.completion_tokens:,}", seconds, rates_text(work))
    print_table(console, table)
    console.print("reported: the calls whose backend reported its work (a local model's fresh calls); evaluated / "
                  "needed and the seconds are summed over those calls, tokens in and out over every call. "
                  "evaluated: prompt tokens the backend computed; needed: what a perfect prefix cache would have "
                  "computed (each prompt minus its longest common prefix with an earlier prompt and reply of the "
                  "model), with their ratio (1.00x: no reuse missed); s and tok/s in / out: seconds, and tokens per "
                  "second, of prompt evaluation and of generation; \u2013 where no call reported them.", markup=False)
