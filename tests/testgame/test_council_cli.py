"""Council, installed through the entry point, in a batch run with a lineup and at the terminal."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from playeval.core.events import ActionApplied, SeatEliminated
from playeval.store import Store


def playeval_bin() -> str:
    found = shutil.which("playeval", path=str(Path(sys.executable).parent)) or shutil.which("playeval")
    assert found, "the playeval command is not installed"
    return found


def _run(env: dict[str, str], *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([playeval_bin(), *args], capture_output=True, text=True, input=stdin,
                          env={**env, "COLUMNS": "200"}, timeout=300, check=False)


def test_a_batch_run_seats_every_model_in_every_seat_and_reports_per_seat(council_installed: dict[str, str],
                                                                          tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'c.db'}"
    done = _run(council_installed, "run", "council", "--models", "mock/player,mock/garbage", "--opponent",
                "mock/player", "--role", "judge=mock/player", "--option", "rounds=2", "--n", "2", "--seed", "3",
                "--db", db)
    assert done.returncode == 0, done.stderr
    assert "4 of 4 matches to play" in done.stderr
    with Store.open(db) as store:
        run_id = store.latest_run_id()
        assert run_id is not None
        matches = store.run_matches(run_id)
        assert len(matches) == 4 and all(m.status == "finished" for m in matches)
        seats_held = Counter((s.seat, s.model) for m in matches for s in m.seats)
        tables = Counter(key for m in matches if m.outcome is not None
                         for key in {(str(s.model), m.outcome.result_for(s.seat).team) for s in m.seats})
        assert all(count == 2 for count in seats_held.values()) and len(seats_held) == 8
        assert all(m.roles[0].role == "judge" and m.roles[0].model == "mock/player" for m in matches)
        assert all(m.spec.params["rounds"] == 2 for m in matches)
        first = matches[0]
        events = store.events(first.id)
        # mock/garbage runs out of re-asks and is put out; the match goes on to a team's win
        assert [e for e in events if isinstance(e, SeatEliminated)]
        assert first.outcome is not None and first.outcome.winning_team in ("red", "blue")
        judged = [e.action for e in events if isinstance(e, ActionApplied) and e.action.role == "judge"]
        assert judged and all(a.seat is None for a in judged)
        assert {c.role for c in store.calls(first.id) if c.role} == {"judge"}
    results = done.stdout
    assert "team" in results.splitlines()[2] and "judge" not in results
    results_table = results.split("cost: every model call of the run")[0]  # the cost table follows
    rows = [line.split() for line in results_table.splitlines() if line.strip().startswith("mock/")]
    assert {(row[0], row[1]) for row in rows} == {(m, t) for m in ("mock/player", "mock/garbage")
                                                  for t in ("red", "blue")}
    # matches: those the model held a seat of for that team (four seats each, in fewer matches)
    assert all(row[2] == str(tables[(row[0], row[1])]) for row in rows) and sum(tables.values()) < 4 * len(rows)
    transcript = _run(council_installed, "transcript", run_id, "--db", db).stdout
    assert "red_word=" in transcript and "roles: judge=mock/player" in transcript


def test_a_person_plays_council_at_the_terminal(council_installed: dict[str, str], tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 't.db'}"
    # north's clues and votes; the three model seats and the judge are mock/player
    moves = "\n".join(["Water runs through it", "east", "It flows to the sea", "east", "Banks on both sides",
                       "west"] + ["east"] * 6) + "\n"
    done = _run(council_installed, "play", "council", "--as", "north", "--model", "mock/player", "--seed", "2",
                "--db", db, stdin=moves)
    assert done.returncode == 0, done.stderr
    assert "Your team's word: river" in done.stdout and "The blue team's word: mountain" in done.stdout
    assert "mountain" not in done.stdout.split("The blue team's word")[0]  # never shown before the end
    with Store.open(db) as store, store.engine.connect() as connection:
        from sqlalchemy import text

        [(match_id,)] = connection.execute(text("select id from matches")).all()
        match = store.get_match(match_id)
    assert match.status == "finished" and match.outcome is not None
    seats = {s.seat: s for s in match.seats}
    assert seats["north"].player_kind == "human" and seats["east"].model == "mock/player"
    assert [r.role for r in match.roles] == ["judge"]


def test_the_judge_is_not_bound_to_a_persons_seat(council_installed: dict[str, str], tmp_path: Path) -> None:
    """Council's judge is shown both teams' words (``RoleInfo.sees``): bound to the person's seat, it would show
    north the blue word. The terminal refuses before the match starts, in one line."""
    db = f"sqlite:///{tmp_path / 'c.db'}"
    refused = _run(council_installed, "play", "council", "--as", "north", "--model", "mock/player", "--role",
                   "judge=seat:north", "--db", db, stdin="")
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    assert refused.stderr.strip() == ("error: council: the role judge cannot be bound to seat north: its asks show "
                                      "the hidden blue_word, which north may not see")
    assert "word" not in refused.stdout
    batch = _run(council_installed, "run", "council", "--models", "mock/player", "--opponent", "mock/player",
                 "--role", "judge=seat:east", "--n", "1", "--db", db)
    assert batch.returncode != 0 and batch.stderr.strip().endswith("hidden red_word, which east may not see")
