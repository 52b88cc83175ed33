"""playeval against its peers, side by side on this machine, with instant scripted players.

Measures, in one run: playeval's Akinator in memory, recorded to SQLite and recorded to PostgreSQL
(``akinator_throughput.measure``), and TextArena's TwentyQuestions and Taboo (``_peers_textarena.py``,
run by the Python of a separate virtualenv holding ``textarena==0.7.4``, created here on first use).
Prints games/s, steps/s and the ratios issue 12 sets targets for, plus clemcore's figures, quoted
(clemcore from the package index ships no games, so it cannot be measured here).

    .venv/bin/python bench/peers.py [--seconds 10] [--venv DIR] [--skip-peers] [--no-postgres]

Each measurement first plays a few games to estimate the rate, then enough games to last about
``--seconds``. PostgreSQL runs in a throwaway server (``tests/pg_server.py``); its line is skipped,
with the reason, when the server binaries are absent.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _support import pg_server
from akinator_throughput import MEMORY, Measured, measure, measure_rules_only

from playeval.models.cache import default_cache_path

BENCH = Path(__file__).resolve().parent
DRIVER = BENCH / "_peers_textarena.py"
TEXTARENA_VERSION = "0.7.4"
INSTALL_TIMEOUT_S = 900

PLAYEVAL = "playeval Akinator"
PLAYEVAL_RULES = "playeval Akinator rules, no engine"
TEXTARENA = f"TextArena {TEXTARENA_VERSION}"
TWENTY_QUESTIONS = f"{TEXTARENA} TwentyQuestions-v0"
TABOO = f"{TEXTARENA} Taboo-v0"
CLEMCORE = "clemcore taboo, QUOTED (not measured)"
IN_MEMORY, SQLITE, POSTGRESQL, RESULT_FILES = "memory", "SQLite", "PostgreSQL", "result files"
# clemcore's taboo with instant players, measured on this machine before issue 12 (steps/s).
CLEMCORE_QUOTED = ((IN_MEMORY, 7508.0), (RESULT_FILES, 1488.0))


class PeersUnavailable(RuntimeError):
    """The peers' virtualenv cannot be made or run; the message is one line saying what failed."""


@dataclass(frozen=True)
class Row:
    """One line of the table: a measurement, a quoted steps/s figure, or the reason it was skipped."""

    system: str
    stored_in: str
    measured: Measured | None = None
    quoted_steps_per_s: float | None = None
    skipped: str | None = None
    note: str = ""

    @property
    def steps_per_s(self) -> float | None:
        return self.measured.steps_per_s if self.measured is not None else self.quoted_steps_per_s


@dataclass(frozen=True)
class Ratio:
    """``numerator`` steps/s ÷ ``denominator`` steps/s, with issue 12's target for it (None: no target)."""

    label: str
    numerator: tuple[str, str]
    denominator: tuple[str, str]
    target: float | None


RATIOS = (
    Ratio("playeval memory / TextArena TwentyQuestions", (PLAYEVAL, IN_MEMORY), (TWENTY_QUESTIONS, IN_MEMORY), 2.0),
    Ratio("playeval SQLite / playeval memory", (PLAYEVAL, SQLITE), (PLAYEVAL, IN_MEMORY), 0.5),
    Ratio("playeval PostgreSQL / playeval memory", (PLAYEVAL, POSTGRESQL), (PLAYEVAL, IN_MEMORY), None),
    Ratio("playeval rules alone / TextArena TwentyQuestions", (PLAYEVAL_RULES, IN_MEMORY),
          (TWENTY_QUESTIONS, IN_MEMORY), None),
)

NOTES = (
    ("A step is one player's turn. playeval counts a move applied: in Akinator a guess, and the answerer's reply "
     "to it, are two steps. TextArena counts an env.step call: in TwentyQuestions its game master answers inside "
     "step, so a question with its answer is one step. Per round playeval thus counts two steps where TextArena's "
     "TwentyQuestions counts one; in TextArena's Taboo the clue and the guess are a step each, as in playeval."),
    ("TextArena builds a fresh env per game (its observation wrapper keeps history across resets); its times "
     "include textarena.make, whose share the note gives. Its TwentyQuestions game master is scripted "
     "(answers Yes when the question names the word) in place of its OpenRouter LLM."),
    ("clemcore's figures are quoted from issue 12, measured earlier on this machine; they are not measured by this "
     "run. The machine may be shared, so every figure is noisy."),
)


def ratio(rows: Sequence[Row], wanted: Ratio) -> float | None:
    """The ratio's value from the rows' steps/s; None when either side was skipped or is missing."""
    by_key = {(row.system, row.stored_in): row.steps_per_s for row in rows}
    top, bottom = by_key.get(wanted.numerator), by_key.get(wanted.denominator)
    if top is None or bottom is None or bottom == 0:
        return None
    return top / bottom


def format_table(rows: Sequence[Row]) -> str:
    """The figures as an aligned text table, one line per row."""
    width = max(len(row.system) for row in (*rows, Row("system", "")))
    lines = [(f"{'system':<{width}}  {'stored in':<12} {'games':>7} {'seconds':>8} {'games/s':>10} {'steps/s':>10}"
             f" {'steps/game':>10}  note")]
    for row in rows:
        start = f"{row.system:<{width}}  {row.stored_in:<12}"
        if row.skipped is not None:
            lines.append(f"{start} skipped: {row.skipped}")
        elif row.measured is not None:
            m = row.measured
            lines.append(f"{start} {m.games:>7} {m.seconds:>8.2f} {m.games_per_s:>10,.1f} {m.steps_per_s:>10,.0f}"
                         f" {m.steps / m.games:>10.1f}  {row.note}".rstrip())
        elif row.quoted_steps_per_s is not None:
            lines.append(f"{start} {'-':>7} {'-':>8} {'-':>10} {row.quoted_steps_per_s:>10,.0f} {'-':>10}"
                         f"  {row.note}".rstrip())
    return "\n".join(lines)


def format_ratios(rows: Sequence[Row]) -> str:
    """Each ratio of :data:`RATIOS` with its target and whether it is met."""
    width = max(len(r.label) for r in RATIOS)
    lines = [f"{'ratio of steps/s':<{width}}  {'value':>7}  target (issue 12)"]
    for wanted in RATIOS:
        value = ratio(rows, wanted)
        shown = "n/a" if value is None else f"{value:.2f}"
        if wanted.target is None:
            verdict = "-"
        else:
            met = "" if value is None else ("  met" if value >= wanted.target else "  NOT met")
            verdict = f">= {wanted.target:g}{met}"
        lines.append(f"{wanted.label:<{width}}  {shown:>7}  {verdict}")
    return "\n".join(lines)


def calibrated(run: Callable[[int], Measured], probe_games: int, seconds: float) -> Measured:
    """Play ``probe_games`` to estimate the rate, then as many games as last about ``seconds``; the second run."""
    probe = run(probe_games)
    return run(max(probe_games, round(seconds * probe.games_per_s)))


# --- the peers' virtualenv and TextArena driver ---------------------------------------------------------------


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("WARNING:")]
    return lines[-1] if lines else "no output"


def _run(args: Sequence[str], what: str, timeout: float) -> str:
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise PeersUnavailable(f"{what} failed: {exc}") from exc
    if done.returncode != 0:
        raise PeersUnavailable(f"{what} failed (exit {done.returncode}): {_last_line(done.stderr or done.stdout)}")
    return done.stdout


def _textarena_version(python: Path) -> str | None:
    if not python.is_file():
        return None
    done = subprocess.run([str(python), "-c", "import importlib.metadata as m; print(m.version('textarena'))"],
                          capture_output=True, text=True, timeout=60, check=False)
    return done.stdout.strip() if done.returncode == 0 else None


def default_venv() -> Path:
    """``peers-venv`` in playeval's cache directory (``$PLAYEVAL_CACHE_DIR``, else ``~/.cache/playeval``)."""
    return default_cache_path().parent / "peers-venv"


def ensure_peers(venv: Path) -> Path:
    """The Python of ``venv``, with ``textarena==0.7.4`` installed from the package index if it is not already."""
    python = venv / "bin" / "python"
    if _textarena_version(python) == TEXTARENA_VERSION:
        return python
    if not python.is_file():
        _run([sys.executable, "-m", "venv", str(venv)], f"creating the peers' virtualenv {venv}", INSTALL_TIMEOUT_S)
    requirement = f"textarena=={TEXTARENA_VERSION}"
    _run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", requirement],
         f"installing {requirement} into {venv}", INSTALL_TIMEOUT_S)
    found = _textarena_version(python)
    if found != TEXTARENA_VERSION:
        raise PeersUnavailable(f"{venv} holds textarena {found or 'nothing'} after installing {requirement}")
    return python


def run_textarena(python: Path, game: str, games: int) -> tuple[Measured, float]:
    """Play ``games`` of ``game`` (``twenty-questions`` or ``taboo``) in the driver; the figures and make seconds."""
    out = _run([str(python), str(DRIVER), game, "--games", str(games)], f"TextArena {game} ({DRIVER.name})",
               timeout=3600)
    try:
        figures: dict[str, Any] = json.loads(out)
        measured = Measured(games=int(figures["games"]), steps=int(figures["steps"]),
                            seconds=float(figures["seconds"]))
        return measured, float(figures["make_seconds"])
    except (ValueError, KeyError, TypeError) as exc:
        raise PeersUnavailable(f"TextArena {game} ({DRIVER.name}) printed no figures: {_last_line(out)}") from exc


def textarena_rows(python: Path, seconds: float) -> list[Row]:
    rows: list[Row] = []
    for game, system, probe in (("twenty-questions", TWENTY_QUESTIONS, 500), ("taboo", TABOO, 100)):
        make_seconds: list[float] = []

        def run(games: int, game: str = game, make_seconds: list[float] = make_seconds) -> Measured:
            measured, made = run_textarena(python, game, games)
            make_seconds.append(made)
            return measured

        measured = calibrated(run, probe, seconds)
        rows.append(_progress(Row(system, IN_MEMORY, measured,
                                  note=f"textarena.make {make_seconds[-1] / measured.seconds:.0%} of the time")))
    return rows


def _progress(row: Row) -> Row:
    done = row.skipped if row.measured is None else f"{row.measured.steps_per_s:,.0f} steps/s"
    print(f"  {row.system}, {row.stored_in}: {done}", file=sys.stderr, flush=True)
    return row


# --- playeval ---------------------------------------------------------------------------------------------------


@contextmanager
def postgres_databases() -> Iterator[Callable[[str], str] | str]:
    """A throwaway PostgreSQL server's ``create_database(name) -> URL``, or why there is none (a string)."""
    pg = pg_server()
    if importlib.util.find_spec("psycopg") is None:
        yield "psycopg is not installed; pip install 'psycopg[binary]'"
        return
    bin_dir = pg.find_pg_bin()
    if bin_dir is None:
        yield f"PostgreSQL server binaries (initdb, pg_ctl) not found; {pg.INSTALL_HINT}"
        return
    try:
        server = pg.start_server(bin_dir)
    except (pg.PgUnavailable, RuntimeError) as exc:
        yield _last_line(str(exc))
        return
    try:
        yield server.create_database
    finally:
        server.stop()


def playeval_rows(seconds: float, postgres: bool) -> list[Row]:
    rows = [_progress(Row(PLAYEVAL_RULES, IN_MEMORY, calibrated(measure_rules_only, 50, seconds),
                          note="next_ask, act, parse, apply in a bare loop: any engine's ceiling")),
            _progress(Row(PLAYEVAL, IN_MEMORY, calibrated(lambda games: measure(MEMORY, games), 50, seconds)))]
    with tempfile.TemporaryDirectory() as tmp:
        files = iter(range(1_000_000))  # a fresh database file for each run
        rows.append(_progress(Row(PLAYEVAL, SQLITE, calibrated(
            lambda games: measure(f"sqlite:///{Path(tmp) / f'bench{next(files)}.db'}", games), 20, seconds))))
    if not postgres:
        rows.append(_progress(Row(PLAYEVAL, POSTGRESQL, skipped="--no-postgres")))
        return rows
    with postgres_databases() as databases:
        if isinstance(databases, str):
            rows.append(_progress(Row(PLAYEVAL, POSTGRESQL, skipped=databases)))
        else:
            names = iter(range(1_000_000))  # a fresh database for each run
            rows.append(_progress(Row(PLAYEVAL, POSTGRESQL, calibrated(
                lambda games: measure(databases(f"bench{next(names)}"), games), 20, seconds))))
    return rows


# --- the run ----------------------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="about how long each measurement lasts")
    parser.add_argument("--venv", type=Path, default=default_venv(),
                        help="virtualenv for the peers, created if needed (default: %(default)s)")
    parser.add_argument("--skip-peers", action="store_true", help="measure playeval only (no virtualenv)")
    parser.add_argument("--no-postgres", action="store_true", help="skip the PostgreSQL measurement")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error(f"--seconds must be positive, got {args.seconds}")

    print(f"playeval against its peers, instant scripted players, ~{args.seconds:g} s per measurement "
          f"(Python {platform.python_version()}, {platform.machine()})", flush=True)
    python: Path | None = None
    if not args.skip_peers:
        try:
            python = ensure_peers(args.venv)
        except PeersUnavailable as exc:
            raise SystemExit(f"error: {exc} (--skip-peers measures playeval alone)") from exc
    rows = playeval_rows(args.seconds, postgres=not args.no_postgres)
    if python is None:
        rows += [Row(system, IN_MEMORY, skipped="--skip-peers") for system in (TWENTY_QUESTIONS, TABOO)]
    else:
        try:
            rows += textarena_rows(python, args.seconds)
        except PeersUnavailable as exc:
            raise SystemExit(f"error: {exc}") from exc
    rows += [Row(CLEMCORE, where, quoted_steps_per_s=value) for where, value in CLEMCORE_QUOTED]
    print()
    print(format_table(rows))
    print()
    print(format_ratios(rows))
    print()
    for note in NOTES:
        print(f"- {note}")


if __name__ == "__main__":
    main()
