"""Bad databases, built for real: a run played with mock models, then its file damaged on purpose; and the
``playeval`` command run in this process against them.

Each maker copies a good database file (``played_store``) and breaks the copy the way a disk or a person does:
a page of the event log overwritten, the file cut short, the header garbled, or a text file in its place.
"""

from __future__ import annotations

import io
import shutil
import sqlite3
import sys
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from typer.testing import CliRunner

from playeval.cli.main import app, main

PAGE_TABLE_INTERIOR = 0x05


def played_store(path: Path, n: int = 6) -> str:
    """A database at ``path`` holding one finished akinator run (mock model against the scripted answerer);
    checkpointed, so the whole database is in the file itself. Returns the run's id."""
    result = CliRunner().invoke(app, ["run", "akinator", "--models", "mock/yes", "--opponent", "scripted",
                                      "--n", str(n), "--db", f"sqlite:///{path}"])
    assert result.exit_code == 0, result.output
    with sqlite3.connect(path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        run_id = str(connection.execute("SELECT id FROM runs").fetchone()[0])
    return run_id


def _page_size(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA page_size").fetchone()[0])


def first_leaf_of_events(path: Path) -> tuple[int, int]:
    """(page number, page size) of the leftmost leaf page of the events table: a page a new run never reads,
    since rows are appended on the right. The table must have grown past one page (its root is interior)."""
    with sqlite3.connect(path) as connection:
        root = int(connection.execute("SELECT rootpage FROM sqlite_master WHERE name = 'events'").fetchone()[0])
        size = _page_size(connection)
    data = path.read_bytes()
    page = data[(root - 1) * size: root * size]
    assert page[0] == PAGE_TABLE_INTERIOR, "the events table fits one page: play more matches"
    first_cell = int.from_bytes(page[12:14], "big")
    return int.from_bytes(page[first_cell:first_cell + 4], "big"), size


def damage_page(path: Path) -> None:
    """Overwrite the events table's leftmost leaf page with bytes that are no b-tree page."""
    number, size = first_leaf_of_events(path)
    with path.open("r+b") as handle:
        handle.seek((number - 1) * size)
        handle.write(bytes([0xA5]) * size)


def truncate(path: Path) -> None:
    """Cut the file short in the middle of its fourth page."""
    with sqlite3.connect(path) as connection:
        size = _page_size(connection)
    assert path.stat().st_size > 4 * size
    with path.open("r+b") as handle:
        handle.truncate(3 * size + size // 2)


def garble_header(path: Path) -> None:
    """Overwrite the 100-byte database header."""
    with path.open("r+b") as handle:
        handle.write(b"this is not the header of an SQLite database file, whatever its name says... " + b"!" * 23)


def text_file(path: Path) -> None:
    """Put a text file where the database was."""
    path.write_text("run,model,wins\nabc,mock/yes,3\n", encoding="utf-8")


DAMAGES: dict[str, Callable[[Path], None]] = {
    "damaged-page": damage_page,
    "truncated": truncate,
    "garbled-header": garble_header,
    "text-file": text_file,
}


def damaged_copy(good: Path, folder: Path, damage: str) -> Path:
    """A copy of the database ``good`` in ``folder``, broken by ``DAMAGES[damage]``."""
    folder.mkdir(parents=True, exist_ok=True)
    copy = folder / f"{damage}.db"
    shutil.copyfile(good, copy)
    DAMAGES[damage](copy)
    return copy


def run_main(argv: list[str]) -> tuple[int, str, str]:
    """``playeval ARGV`` in this process, as the console script runs it (errors turned into lines by ``main``):
    exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv
    sys.argv = ["playeval", *argv]
    code = 0
    try:
        with redirect_stdout(out), redirect_stderr(err):
            main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.argv = saved
    return code, out.getvalue(), err.getvalue()
