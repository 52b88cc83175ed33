"""A seeded run of Undercover and Bluffing with mock players, and what ``results``, ``report`` and ``analyze`` print
for it: the fixtures under tests/fixtures/declared were written by this module from the code before the analyses
became declarations (``python tests/analysis/stored_outputs.py``), and test_declared_outputs.py plays the run
again and compares. They were written again when the team tables' intervals moved from seats to matches (issue
21): only the intervals, the n column (matches, seats beside) and the captions changed, no count or rate. And
when each Undercover seat's asks became one growing conversation (issue 22): only the calls' token counts changed.

Normalised, because they change from one playing to the next: the run's and the matches' ids (random; a match's
id becomes ``match-N`` in order of first mention), the report's creation time and the results' seconds per match
(the mock models' own time, 0.0 on a quick machine).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from typer.testing import CliRunner

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "declared"
RUN = ("run", "undercover,bluffing", "--models", "mock/player,mock/garbage", "--opponent", "mock/player", "--role",
       "judge=mock/player", "--n", "2", "--seed", "1", "--no-cache")
COMMANDS: dict[str, tuple[str, ...]] = {
    "results.txt": ("results",),
    "analyze_metrics.txt": ("analyze", "metrics"),
    "analyze_elo.txt": ("analyze", "elo"),
    "analyze_undercover.txt": ("analyze", "undercover"),
}
_SECONDS = re.compile(r"^(\s+(?:bluffing|undercover)\s+mock/\S+.*\s)\d+\.\d(\s*)$", re.MULTILINE)
_CREATED = re.compile(r"created \d{4}-\d\d-\d\d \d\d:\d\d UTC")
_MATCH_ID = re.compile(r"\b[0-9a-f]{16}\b")


def _invoke(*args: str) -> str:
    from playeval.cli.main import app

    done = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert done.exit_code == 0, done.output
    return done.output


def _normal(text: str, run_id: str) -> str:
    text = _CREATED.sub("created (time)", _SECONDS.sub(r"\g<1>(s)\g<2>", text.replace(run_id, "RUN")))
    names: dict[str, str] = {}
    return _MATCH_ID.sub(lambda found: names.setdefault(found.group(), f"match-{len(names) + 1}"), text)


def outputs(folder: Path) -> dict[str, str]:
    """Play the run into a new database in ``folder`` and give every output, normalised, by fixture name."""
    from playeval.store import Store

    db = f"sqlite:///{folder / 'run.db'}"
    _invoke(*RUN, "--db", db)
    with Store.open(db) as store:
        run_id = store.latest_run_id()
    assert run_id is not None
    _invoke("analyze", "retro", run_id, "--no-cache", "--db", db)
    found = {name: _normal(_invoke(*command, run_id, "--db", db), run_id) for name, command in COMMANDS.items()}
    _invoke("report", run_id, "--out", str(folder / "report"), "--db", db)
    found["report.md"] = _normal((folder / "report" / "report.md").read_text("utf-8"), run_id)
    return found


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["PLAYEVAL_HOME"] = str(Path(tmp) / "home")
        os.environ["PLAYEVAL_CACHE_DIR"] = str(Path(tmp) / "cache")
        FIXTURES.mkdir(parents=True, exist_ok=True)
        for name, text in outputs(Path(tmp)).items():
            (FIXTURES / name).write_text(text, "utf-8")
            sys.stdout.write(f"wrote {FIXTURES / name}\n")
