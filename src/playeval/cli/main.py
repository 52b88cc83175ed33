"""The ``playeval`` command.

Its commands are listed here and each module is imported only when its command is used
(``playeval.cli.lazy_commands``): ``playeval --help`` imports none of them, ``playeval games`` only the games.
"""

from __future__ import annotations

import typer

from playeval.cli.console import fail
from playeval.cli.lazy_commands import LazyCommands, ListedCommand

# In the order of the listing: typer lists plain commands before the groups (analyze, rule-bank, qa).
COMMANDS: tuple[ListedCommand, ...] = (
    ListedCommand("games", "playeval.cli.games_cmd",
                  "List the games with their levels, seats, roles (and who plays them by default) and options; then "
                  "each\ngame's baseline players and its pair of disjoint secret sets for a held-out comparison."),
    ListedCommand("run", "playeval.cli.run_cmd", "Run a batch of matches and print the results table."),
    ListedCommand("plan", "playeval.cli.plan_cmd",
                  "Matches per model a run needs to separate two models whose true win rates differ by --detect, at "
                  "95 %\nwith 80 % power (normal approximation), per game and for the overall rating; or, with --n, "
                  "what a run of\nthat size can separate."),
    ListedCommand("play", "playeval.cli.play_cmd",
                  "Play a game in the terminal against models; the match is recorded like any other."),
    ListedCommand("results", "playeval.cli.results_cmd",
                  "Per model: win rate with its 95% interval over matches, beside chance, rounds, forfeits, tokens, "
                  "time."),
    ListedCommand("export", "playeval.cli.export_cmd",
                  "Write a self-contained export of a run: every match with its events and model calls."),
    ListedCommand("transcript", "playeval.cli.export_cmd",
                  "Print every match of a run as a plain transcript (diff two runs to compare them)."),
    ListedCommand("import", "playeval.cli.import_cmd",
                  "Load an exported run, with every match, event and model call, into the database (all or "
                  "nothing)."),
    ListedCommand("leaderboard", "playeval.cli.leaderboard_cmd",
                  "Ratings per game and configuration and overall (every game weighing the same), with 95% "
                  "intervals,\neach model's win rate beside the baselines' and people's, and Undercover's team Elo."),
    ListedCommand("report", "playeval.cli.report_cmd",
                  "Write index.html and report.md: Tables 2 and 3, plots, capability profile, transcripts."),
    ListedCommand("serve", "playeval.cli.serve_cmd",
                  "Start the web arena: people play the games against the models, watch models play, see the "
                  "leaderboard."),
    ListedCommand("analyze", "playeval.cli.analyze_cmd",
                  "Retrospective analysis, procedural metrics, ranking comparisons, and each team game's tables "
                  "(playeval analyze GAME)."),
    ListedCommand("rule-bank", "playeval.cli.rule_bank_cmd",
                  "Dynamic Picnic's rule bank: rules game masters wrote, de-duplicated, to replay."),
    ListedCommand("qa", "playeval.cli.qa_cmd", "CK-Arena's snapshot QA benchmark from stored Undercover games."),
)


class PlayevalCommands(LazyCommands):
    listed = COMMANDS


app = typer.Typer(
    name="playeval",
    help="Evaluate language models by having them play language games.",
    cls=PlayevalCommands,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def installed_version() -> str:
    """The version pip installed (the distribution's metadata), else the source tree's ``playeval.__version__``
    when playeval runs from a checkout it was never installed from. Read only when asked: start-up stays light."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("playeval")
    except PackageNotFoundError:
        from playeval import __version__

        return __version__


def _print_version(asked: bool) -> None:
    if asked:
        typer.echo(f"playeval {installed_version()}")
        raise typer.Exit()


@app.callback()
def _playeval(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version,
                                 help="Print playeval's version and exit."),
) -> None:
    """Nothing to do before a command but ``--version``: typer builds a group (and so the listing) only for an app
    with a callback or a command of its own, and every command here is added later, when used."""


def failure_line(err: Exception) -> str | None:
    """The one line a command's error is reported in, or None for an error that is a bug (its traceback shows).

    The error classes are imported here, once a command has failed, not at start-up: pydantic and SQLAlchemy are
    only loaded by the commands that use them.
    """
    from pydantic import ValidationError

    from playeval.core.errors import PlayevalError

    if isinstance(err, PlayevalError):
        return str(err)
    if isinstance(err, ValidationError):
        first = err.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ())) or "input"
        return f"invalid {where}: {first.get('msg', err)}"
    from sqlalchemy.exc import DBAPIError

    if isinstance(err, DBAPIError):  # met after the store opened: its checks at open could not see it coming
        from playeval.store.engine import failure_line as store_failure_line

        return store_failure_line(err)
    return None


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        fail("interrupted", code=130)
    except Exception as err:
        line = failure_line(err)
        if line is None:
            raise
        fail(line)


if __name__ == "__main__":
    main()
