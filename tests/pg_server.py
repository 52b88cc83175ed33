"""Start a throwaway PostgreSQL server for tests.

Finds ``initdb``/``pg_ctl`` (under ``/usr/lib/postgresql/*/bin``, Debian's
layout, or on PATH), creates a cluster in a fresh temporary directory and
starts it on a free localhost port with its unix socket in the same
directory. As root, the server binaries run as the ``postgres`` OS user via
``runuser`` (``initdb`` refuses root), and the directory is chowned to it.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

PG_BIN_GLOB = "/usr/lib/postgresql/*/bin"
PG_OS_USER = "postgres"
PG_DB_USER = "playeval"
INSTALL_HINT = "install the PostgreSQL server binaries with `apt-get install postgresql` (Debian/Ubuntu)"


class PgUnavailable(RuntimeError):
    """PostgreSQL cannot be started here; the message says why and how to fix it."""


def _version_key(path: Path) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", path.parent.name))


def find_pg_bin() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl``, newest version first; None if absent."""
    candidates = sorted(Path("/").glob(PG_BIN_GLOB.lstrip("/")), key=_version_key, reverse=True)
    for directory in candidates:
        if (directory / "initdb").is_file() and (directory / "pg_ctl").is_file():
            return directory
    initdb = shutil.which("initdb")
    if initdb is not None and shutil.which("pg_ctl") is not None:
        return Path(initdb).parent
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass(frozen=True)
class PgServer:
    """A running test server; :meth:`stop` ends it and removes its files."""

    bin_dir: Path
    base_dir: Path
    port: int
    as_postgres_user: bool

    @property
    def data_dir(self) -> Path:
        return self.base_dir / "data"

    @property
    def socket_dir(self) -> Path:
        return self.base_dir / "sock"

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{PG_DB_USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create database ``name`` and return its URL."""
        _run(
            [str(self.bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", PG_DB_USER, name],
            self.as_postgres_user,
        )
        return self.url(name)

    def stop(self) -> None:
        try:
            _run(
                [str(self.bin_dir / "pg_ctl"), "-D", str(self.data_dir), "-m", "fast", "-w", "stop"],
                self.as_postgres_user,
            )
        finally:
            shutil.rmtree(self.base_dir, ignore_errors=True)


def _command(args: Sequence[str], as_postgres_user: bool) -> list[str]:
    prefix = ["runuser", "-u", PG_OS_USER, "--"] if as_postgres_user else []
    return [*prefix, *args]


def _run(args: Sequence[str], as_postgres_user: bool) -> None:
    result = subprocess.run(_command(args, as_postgres_user), capture_output=True, text=True, timeout=120, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")


def start_server(bin_dir: Path, *, attempts: int = 3) -> PgServer:
    """Create a cluster in a new temporary directory and start it; raise :class:`PgUnavailable` if it cannot run."""
    as_postgres_user = os.geteuid() == 0
    if as_postgres_user and shutil.which("runuser") is None:
        raise PgUnavailable("running as root needs `runuser` (util-linux) to start PostgreSQL as the postgres user")
    if as_postgres_user:
        try:
            pwd.getpwnam(PG_OS_USER)
        except KeyError as exc:
            raise PgUnavailable(f"no `{PG_OS_USER}` OS user to run the server as; {INSTALL_HINT}") from exc
    # Not under pytest's tmp dir: that is private to root, and the postgres user must reach it.
    base_dir = Path(tempfile.mkdtemp(prefix="playeval-pg-"))
    data_dir = base_dir / "data"
    socket_dir = base_dir / "sock"
    socket_dir.mkdir()
    if as_postgres_user:
        for path in (base_dir, socket_dir):
            shutil.chown(path, user=PG_OS_USER, group=PG_OS_USER)
    try:
        _run(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data_dir),
                "-U",
                PG_DB_USER,
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
            as_postgres_user,
        )
        last_error: Exception | None = None
        for _ in range(attempts):
            port = _free_port()
            options = f"-p {port} -k {socket_dir} -c listen_addresses=127.0.0.1 -F"
            try:
                _run(
                    [
                        str(bin_dir / "pg_ctl"),
                        "-D",
                        str(data_dir),
                        "-l",
                        str(base_dir / "server.log"),
                        "-w",
                        "-t",
                        "60",
                        "-o",
                        options,
                        "start",
                    ],
                    as_postgres_user,
                )
            except RuntimeError as exc:
                last_error = exc
                continue
            return PgServer(bin_dir=bin_dir, base_dir=base_dir, port=port, as_postgres_user=as_postgres_user)
        log = base_dir / "server.log"
        detail = log.read_text(errors="replace") if log.exists() else ""
        raise RuntimeError(f"PostgreSQL did not start: {last_error}\n{detail}")
    except BaseException:
        shutil.rmtree(base_dir, ignore_errors=True)
        raise
