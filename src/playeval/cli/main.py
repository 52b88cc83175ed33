"""The ``playeval`` command."""

from __future__ import annotations

import typer
from pydantic import ValidationError
from sqlalchemy.exc import DBAPIError

from playeval.cli import (
    analyze_cmd,
    export_cmd,
    games_cmd,
    import_cmd,
    leaderboard_cmd,
    plan_cmd,
    play_cmd,
    qa_cmd,
    report_cmd,
    results_cmd,
    rule_bank_cmd,
    run_cmd,
    serve_cmd,
)
from playeval.cli.console import fail
from playeval.core.errors import PlayevalError
from playeval.store.engine import failure_line

app = typer.Typer(
    name="playeval",
    help="Evaluate language models by having them play language games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
games_cmd.register(app)
run_cmd.register(app)
plan_cmd.register(app)
play_cmd.register(app)
results_cmd.register(app)
export_cmd.register(app)
import_cmd.register(app)
analyze_cmd.register(app)
leaderboard_cmd.register(app)
report_cmd.register(app)
serve_cmd.register(app)
rule_bank_cmd.register(app)
qa_cmd.register(app)


def main() -> None:
    try:
        app()
    except PlayevalError as err:
        fail(str(err))
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ())) or "input"
        fail(f"invalid {where}: {first.get('msg', err)}")
    except DBAPIError as err:  # met after the store opened: its checks at open could not see it coming
        fail(failure_line(err))
    except KeyboardInterrupt:
        fail("interrupted", code=130)


if __name__ == "__main__":
    main()
