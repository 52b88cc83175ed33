"""Every command that opens a store, against every kind of bad store: one line on stderr, a non-zero exit, no
traceback, and the bad file left as it was.

The commands are read from the typer app, so a new command with a ``--db`` option is covered without a change
here (one whose arguments cannot be guessed fails below, asking for an entry in ``ARGUMENTS``). The stores are
built for real (``tests/bad_stores.py``): a run played with mock models, then its file damaged.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import pytest
import typer
from bad_stores import DAMAGES, damaged_copy, played_store, run_main

from playeval.cli.main import app

BAD_POSTGRES_URL = "postgresql://u:secret@[::1"

STORELESS = {"games", "analyze judge", "plan", "rule-bank list"}
"""Commands that open no store (they take no --db). A new command belongs here only if it never opens one."""

WRITERS = {"run", "run --resume", "play", "serve", "import", "analyze retro"}
"""Commands that record into the store, so refuse one opened read-only."""


@dataclass(frozen=True)
class Stores:
    """The good store, its run, files the commands read, and a copy of the store for each damage."""

    good: Path
    run_id: str
    export: Path
    folder: Path
    damaged: dict[str, Path]


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stores]:
    folder = tmp_path_factory.mktemp("bad-stores")
    saved = {key: os.environ.get(key) for key in ("PLAYEVAL_CACHE_DIR", "PLAYEVAL_HOME")}
    os.environ["PLAYEVAL_CACHE_DIR"] = str(folder / "cache")
    os.environ["PLAYEVAL_HOME"] = str(folder / "home")
    try:
        good = folder / "good.db"
        run_id = played_store(good)
        export = folder / "run.jsonl"
        assert run_main(["export", run_id, "-o", str(export), "--db", f"sqlite:///{good}"])[0] == 0
        damaged = {damage: damaged_copy(good, folder / "damaged", damage) for damage in DAMAGES}
        yield Stores(good=good, run_id=run_id, export=export, folder=folder, damaged=damaged)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _arguments(name: str, stores: Stores, out: Path) -> list[str]:
    """What each command needs besides --db to get as far as opening its store."""
    run_id = stores.run_id
    rankings = out / "rankings.json"
    rankings.write_text(json.dumps({"paper": ["mock/yes", "mock/no"]}), encoding="utf-8")
    qa_file = out / "qa.jsonl"
    qa_file.write_text(json.dumps({"id": "q1", "task": "A", "question": "Which?", "options": ["a", "b"],
                                   "answer": 0, "run_id": run_id, "match_id": "m", "round": 1, "seat": "p1",
                                   "category": "c", "pair_id": "p"}) + "\n", encoding="utf-8")
    return {
        "run": ["akinator", "--models", "mock/yes", "--opponent", "scripted", "--n", "1"],
        "run --resume": ["--resume", run_id],
        "play": ["akinator", "--model", "mock/yes", "--seed", "1"],
        "export": [run_id, "-o", str(out / "export.jsonl")],
        "import": [str(stores.export)],
        "report": [run_id, "-o", str(out / "report")],
        "serve": ["--models", "mock/yes", "--port", str(_free_port())],
        "analyze retro": [run_id, "--judge", "mock/yes"],
        "analyze compare": [run_id, "--rankings", str(rankings)],
        "analyze stability": [run_id, run_id],
        "qa build": [run_id, "-o", str(out / "qa-built.jsonl")],
        "qa eval": [str(qa_file), "--models", "mock/yes"],
        "rule-bank build": [str(out / "bank.json")],
    }.get(name, [run_id] if name in {"results", "transcript"} or name.startswith("analyze ") else [])


def _commands(group: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(name, command) of every leaf command under a typer group (a group is what has ``commands``; its
    ``list_commands`` and ``get_command`` also give the commands it makes when asked, such as ``analyze GAME``)."""
    context = click.Context(group)
    for name in sorted(group.list_commands(context)):
        command = group.get_command(context, name)
        if hasattr(command, "commands"):
            yield from _commands(command, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", command


def store_commands() -> list[str]:
    """Every command of the app that takes --db, and run's --resume as a command of its own."""
    found = []
    for name, command in _commands(typer.main.get_command(app)):
        if any(param.name == "db" for param in command.params):
            found.append(name)
            if name == "run":
                found.append("run --resume")
        else:
            assert name in STORELESS, f"{name} takes no --db: add it to STORELESS if it never opens a store"
    return found


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _one_line(code: int, err: str, where: str) -> str:
    assert "Traceback" not in err, f"{where}: {err}"
    lines = [line for line in err.splitlines() if line.strip()]
    assert code != 0 and len(lines) == 1 and lines[0].startswith("error: "), f"{where}: exit {code}, {err}"
    return lines[0]


@pytest.fixture(autouse=True)
def _no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve`` must stop at its store: were it to start the server, this test would hang instead of failing."""
    import uvicorn

    def refuse(*args: object, **kwargs: object) -> None:
        pytest.fail("serve started a server on a bad store")

    monkeypatch.setattr(uvicorn, "run", refuse)


def test_the_commands_are_read_from_the_app() -> None:
    names = store_commands()
    for name in ("results", "export", "import", "run", "run --resume", "serve", "transcript", "report",
                 "analyze retro", "analyze metrics", "qa build", "qa eval", "rule-bank build", "play"):
        assert name in names
    assert WRITERS <= set(names)


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_every_command_refuses_a_damaged_store_in_one_line(stores: Stores, damage: str, tmp_path: Path) -> None:
    bad = stores.damaged[damage]
    before = _digest(bad)
    for name in store_commands():
        argv = [*name.split(" --")[0].split(), *_arguments(name, stores, tmp_path), "--db", f"sqlite:///{bad}"]
        code, _, err = run_main(argv)
        line = _one_line(code, err, name)
        assert f"cannot open the database sqlite:///{bad}: " in line and "nothing was written" in line, name
        if damage in ("damaged-page", "truncated"):
            assert "the file is damaged" in line and ".recover" in line, name
        else:
            assert "not an SQLite database" in line, name
        assert _digest(bad) == before, f"{name} wrote into the damaged file"


def test_every_command_refuses_a_malformed_postgresql_url_in_one_line(stores: Stores, tmp_path: Path) -> None:
    for name in store_commands():
        argv = [*name.split(" --")[0].split(), *_arguments(name, stores, tmp_path), "--db", BAD_POSTGRES_URL]
        line = _one_line(*run_main(argv)[::2], name)
        assert line.startswith("error: cannot open the database postgresql://u:***@[::1: not a database URL"), name
        assert "secret" not in line


def test_writers_refuse_a_read_only_uri_and_readers_read_it(stores: Stores, tmp_path: Path) -> None:
    before = _digest(stores.good)
    url = f"sqlite:///file:{stores.good}?mode=ro&uri=true"
    for name in store_commands():
        argv = [*name.split(" --")[0].split(), *_arguments(name, stores, tmp_path), "--db", url]
        code, _, err = run_main(argv)
        if name in WRITERS:
            line = _one_line(code, err, name)
            assert line == (f"error: cannot write to the database {url}: it is opened read-only; this command "
                            "records into it, so give a writable database"), name
        elif code != 0:  # a reader may find nothing to do in this run (no undercover games): one line then
            line = _one_line(code, err, name)
            assert "database" not in line, f"{name} could not read a read-only database: {line}"
        assert _digest(stores.good) == before, f"{name} wrote into a read-only database"
    assert not (Path.cwd() / "file:").exists()


def test_results_reads_a_read_only_uri(stores: Stores) -> None:
    code, out, err = run_main(["results", stores.run_id, "--db", f"sqlite:///file:{stores.good}?mode=ro&uri=true"])
    assert code == 0, err
    assert f"run {stores.run_id}" in out and "mock/yes" in out


def test_export_into_a_missing_directory(stores: Stores, tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "dir" / "run.jsonl"
    code, _, err = run_main(["export", stores.run_id, "-o", str(target), "--db", f"sqlite:///{stores.good}"])
    assert _one_line(code, err, "export") == f"error: cannot write the export to {target}: No such file or directory"
    assert not target.parent.exists()


@pytest.mark.parametrize(("argv", "expected"), [
    (["results"], "the file is damaged"),
    (["run", "akinator", "--models", "mock/yes", "--opponent", "scripted", "--n", "1"], "the file is damaged"),
])
def test_a_real_process_prints_one_line(stores: Stores, argv: list[str], expected: str) -> None:
    env = {**os.environ, "PLAYEVAL_DB": f"sqlite:///{stores.damaged['damaged-page']}", "COLUMNS": "80"}
    result = subprocess.run([sys.executable, "-m", "playeval.cli.main", *argv], capture_output=True, text=True,
                            env=env, timeout=120, check=False)
    line = _one_line(result.returncode, result.stderr, " ".join(argv))
    assert expected in line and result.stdout == ""
