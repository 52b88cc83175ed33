"""``--executor ray``: a run's matches as Ray tasks on a local Ray with 2 worker CPUs, writing to PostgreSQL.

One Ray is shared by the module (it takes seconds to start). Its workers inherit this process's environment at
start: isolated data and cache directories, and a ``mock/player`` that waits a little per reply, so a run is
still going when the test kills one of its workers.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import ray
from pg_server import PgServer

from playeval.core.match import Outcome
from playeval.core.registry import default_registry
from playeval.engine import PlannedMatch, RunConfig, RunInterrupted, create_run
from playeval.engine.ray_executor import RayRunner, task_name
from playeval.store import EventRecord, Store

pytestmark = pytest.mark.postgres

MATCHES = 12
REPLY_DELAY_S = "0.03"  # an Akinator match of mock/player makes about 40 calls: ~1.2 s a match
KILL_AFTER_SEQ = 12  # kill a worker once its match has this many events: well into it, far from its end


@pytest.fixture(scope="module")
def local_ray(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A new local Ray with 2 worker CPUs for the module (never a cluster already running here); yields its
    address, for drivers in other processes."""
    home = tmp_path_factory.mktemp("ray-workers")
    with pytest.MonkeyPatch.context() as env:
        env.setenv("PLAYEVAL_HOME", str(home / "home"))
        env.setenv("PLAYEVAL_CACHE_DIR", str(home / "cache"))
        env.setenv("PLAYEVAL_MOCK_DELAY", REPLY_DELAY_S)
        for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "PLAYEVAL_OPENAI_BASE_URL"):
            env.delenv(key, raising=False)
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.ERROR)
        try:
            yield str(ray.get_runtime_context().gcs_address)
        finally:
            ray.shutdown()


@pytest.fixture
def pg_url(postgres_server: PgServer) -> str:
    url: str = postgres_server.create_database(f"ray_{secrets.token_hex(4)}")
    return url


def config(n: int, model: str = "mock/player") -> RunConfig:
    return RunConfig(games=("akinator",), models=(model,), opponent="mock/player", n=n, concurrency=4)


def running_tasks(run_id: str) -> dict[int, int]:
    """Match index -> pid of the Ray workers now running a task of ``run_id`` (from their process titles)."""
    pattern = re.compile(rb"^ray::" + re.escape(task_name(run_id, 0)[:-1].encode()) + rb"(\d+)\b")
    found: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        match = pattern.match(title)
        if match:
            found[int(match.group(1))] = int(entry.name)
    return found


@dataclass
class Kill:
    index: int
    pid: int
    log_before: list[EventRecord]


async def kill_one_worker(store: Store, run_id: str, deadline_s: float = 30.0) -> Kill:
    """SIGKILL the worker of the first match seen well under way, and return what its log held just before."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + deadline_s
    while loop.time() < give_up:
        for index, pid in running_tasks(run_id).items():
            match = next((m for m in store.run_matches(run_id) if m.match_index == index), None)
            if match is None or match.status != "running":
                continue
            log = store.event_records(match.id)
            if len(log) >= KILL_AFTER_SEQ:
                os.kill(pid, signal.SIGKILL)
                return Kill(index=index, pid=pid, log_before=log)
        await asyncio.sleep(0.05)
    raise AssertionError("no worker was seen mid-match to kill")


def assert_whole_run(store: Store, run_id: str, planned: int) -> None:
    """The run finished with every planned match once, each finished, each log numbered 1..n with one start and
    one end."""
    assert store.get_run(run_id).status == "finished"
    matches = store.run_matches(run_id)
    assert [m.match_index for m in matches] == list(range(planned))  # by index: each once
    assert {m.status for m in matches} == {"finished"}
    for match in matches:
        types = [entry.type for entry in store.event_records(match.id)]
        seqs = [entry.seq for entry in store.event_records(match.id)]
        assert seqs == list(range(1, len(seqs) + 1)), match.match_index
        assert types[0] == "match_started" and types.count("match_started") == 1
        assert types[-1] == "match_ended" and types.count("match_ended") == 1


async def test_a_killed_worker_s_match_is_retried_and_resumed_not_duplicated(local_ray: str, pg_url: str) -> None:
    registry = default_registry()
    with Store.open(pg_url) as store:
        run_id = create_run(store, registry, config(MATCHES))
        reported: list[int] = []

        def on_match(planned: PlannedMatch, outcome: Outcome) -> None:
            reported.append(planned.index)

        run = asyncio.create_task(RayRunner(store, registry, use_cache=False).run(run_id, on_match=on_match))
        killed = await kill_one_worker(store, run_id)
        await run

        assert sorted(reported) == list(range(MATCHES))
        assert_whole_run(store, run_id, MATCHES)
        with pytest.raises(ProcessLookupError):
            os.kill(killed.pid, 0)
        # The killed worker's match went on from the events it had recorded: they are still the start of its log,
        # and the retried task added the rest. Its log has the same shape as a match nobody interrupted (the
        # mock plays every Akinator match alike), so no move was recorded twice or lost.
        by_index = {m.match_index: m for m in store.run_matches(run_id)}
        resumed = store.event_records(by_index[killed.index].id)
        assert resumed[:len(killed.log_before)] == killed.log_before
        assert len(resumed) > len(killed.log_before)
        untouched = next(i for i in range(MATCHES) if i != killed.index)
        assert [e.type for e in resumed] == [e.type for e in store.event_records(by_index[untouched].id)]


async def test_a_match_that_fails_in_its_worker_stops_the_run_with_the_worker_s_reason(local_ray: str,
                                                                                        pg_url: str) -> None:
    # The workers have no OpenAI key (whatever the driver has): each task fails building its model.
    registry = default_registry()
    with Store.open(pg_url) as store:
        run_id = create_run(store, registry, config(2, model="openai/gpt-4o-mini"))
        with pytest.raises(RunInterrupted, match=r"stopped: openai: no API key; set the environment variable "
                                                 r"OPENAI_API_KEY; \d match(es)? left interrupted"):
            await RayRunner(store, registry, use_cache=False).run(run_id)
        assert store.get_run(run_id).status == "interrupted"
        matches = store.run_matches(run_id)
        assert matches and {m.status for m in matches} == {"interrupted"}
        assert {m.stop_reason for m in matches} == {"openai: no API key; set the environment variable OPENAI_API_KEY"}


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``playeval run akinator`` with mock/player in every seat, in a process of its own (wide, for whole lines)."""
    return subprocess.run([sys.executable, "-m", "playeval.cli.main", "run", "akinator", "--models", "mock/player",
                           "--opponent", "mock/player", *args], capture_output=True, text=True, timeout=120,
                          check=False, env={**os.environ, "COLUMNS": "200"})


def test_the_cli_runs_on_a_ray_cluster_by_address(local_ray: str, pg_url: str) -> None:
    result = run_cli("--n", "2", "--concurrency", "2", "--executor", "ray", "--ray-address", local_ray, "--db", pg_url)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "2 of 2 matches to play" in result.stderr
    assert len(re.findall(r"#\d+\s+akinator\s+mock/player", result.stderr)) == 2
    with Store.open(pg_url) as store:
        run_id = store.latest_run_id()
        assert run_id is not None
        assert_whole_run(store, run_id, 2)


def test_the_cli_refuses_ray_with_a_store_workers_cannot_share(tmp_path: Path) -> None:
    db = tmp_path / "local.db"
    result = run_cli("--executor", "ray", "--db", f"sqlite:///{db}")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        ("error: --executor ray needs a PostgreSQL store that every Ray node can reach "
         "(--db postgresql+psycopg://USER:PASSWORD@HOST/DB), not sqlite")]
    with Store.open(f"sqlite:///{db}") as store:
        assert store.latest_run_id() is None


def test_the_cli_refuses_a_ray_cluster_it_cannot_reach_before_recording_a_run(pg_url: str) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    result = run_cli("--executor", "ray", "--ray-address", f"127.0.0.1:{port}", "--db", pg_url)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        f"error: cannot reach the Ray cluster at 127.0.0.1:{port}: Connection refused"]
    with Store.open(pg_url) as store:
        assert store.latest_run_id() is None
