"""A batch run's matches as Ray tasks, on one machine or a cluster (``playeval run ... --executor ray``).

Each pending match is one Ray task. The task gets plain data only (the store's URL, the run id, the run's
config and the planned match, as JSON) and builds everything else in its worker: it opens the store, builds its
models with a :class:`~playeval.models.ModelHub` (so each node's environment decides where ``openai/...``
models are served), and plays the match with :func:`~playeval.engine.fenced.play_run_match`. Every worker
writes to one PostgreSQL store; SQLite and in-memory stores are refused.

Exactly once: the match is created under ``UNIQUE(run_id, match_index)`` or, when a task finds it created,
continued from its log; a task whose worker dies is retried by Ray (``MAX_TASK_RETRIES``) and so resumes the
match from the last move its predecessor recorded; a worker that was only cut off and comes back (a zombie)
cannot write over its successor, since every write is fenced on the log's end (see ``fenced``).

The driver keeps at most the run's ``concurrency`` tasks in flight, reports each match as it finishes, and sets
the run's status at the end: ``finished``, or ``interrupted`` when a task fails or the driver is interrupted
(its tasks are cancelled; once they have stopped, or after ``CANCEL_WAIT_S``, the matches they leave are marked
``interrupted`` with the reason, which also stops a straggler at its next write; ``playeval run --resume``
finishes the run, with either executor). Tasks die with the driver that owns them: a driver killed outright
leaves its matches ``running``, and ``--resume`` plays them on.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Collection, Iterable, Mapping
from typing import Any

import ray
from pydantic import TypeAdapter
from ray.exceptions import RayTaskError

from playeval.core.errors import ConfigError, PlayevalError
from playeval.core.match import Outcome
from playeval.core.registry import GameRegistry, default_registry
from playeval.engine.batch import (
    OnMatch,
    RunInterrupted,
    RunProgress,
    interrupt_unfinished,
    pending_matches,
    resume_unfinished,
    run_config,
)
from playeval.engine.fenced import play_run_match
from playeval.engine.plan import PlannedMatch, RunConfig
from playeval.models import ModelHub
from playeval.store import Store

__all__ = ["MAX_TASK_RETRIES", "MatchFailed", "RayRunner", "RayUnavailable", "shared_store_url", "task_name"]

MAX_TASK_RETRIES = 3
"""How many times Ray runs a match's task again after its worker died (a task that raises is not retried)."""

CANCEL_WAIT_S = 10.0
"""How long a stopping run waits for its cancelled tasks to stop before it marks their matches interrupted."""

_PLANNED: TypeAdapter[PlannedMatch] = TypeAdapter(PlannedMatch)


def shared_store_url(store: Store) -> str:
    """The URL every worker opens (password included): the store must be a PostgreSQL server."""
    dialect = store.engine.dialect.name
    if dialect != "postgresql":
        raise ConfigError(f"--executor ray needs a PostgreSQL store that every Ray node can reach "
                          f"(--db postgresql+psycopg://USER:PASSWORD@HOST/DB), not {dialect}")
    return store.engine.url.render_as_string(hide_password=False)


def task_name(run_id: str, index: int) -> str:
    """A match task's name, which Ray shows in its dashboard and as the worker's process title (``ray::NAME``)."""
    return f"playeval-{run_id}-{index}"


async def _play_here(db_url: str, run_id: str, config: RunConfig, planned: PlannedMatch, use_cache: bool) -> Outcome:
    game = default_registry().get(planned.game)
    with Store.open(db_url) as store:
        async with ModelHub(use_cache=use_cache, timeout_s=config.timeout_s) as hub:
            return await play_run_match(store, hub, game, config, run_id, planned)


class MatchFailed(PlayevalError):
    """A match's task failed in its worker; the message is the worker's reason, in one line.

    The worker's own exception does not travel: many of playeval's take several arguments, which Ray cannot
    rebuild on the driver. Its traceback is in the worker's log.
    """


def _play_task(db_url: str, run_id: str, config: Mapping[str, Any], planned: Mapping[str, Any],
               use_cache: bool) -> dict[str, Any]:
    """The body of a match's Ray task: play it in this worker and return its outcome as JSON."""
    try:
        outcome = asyncio.run(_play_here(db_url, run_id, RunConfig.model_validate(config),
                                         _PLANNED.validate_python(planned), use_cache))
    except Exception as err:
        logging.getLogger(__name__).exception("match #%s of run %s failed", planned.get("index"), run_id)
        reason = " ".join(str(err).split())
        raise MatchFailed(reason if isinstance(err, PlayevalError) and reason
                          else f"{type(err).__name__}: {reason}") from None
    return outcome.model_dump(mode="json")


_remote_play = ray.remote(_play_task)


async def _settle(futures: Collection[asyncio.Future[Any]]) -> None:
    """Give cancelled tasks up to ``CANCEL_WAIT_S`` to stop, so that none creates or writes a match after the run's
    unfinished matches are marked interrupted; a straggler finds its match interrupted at its next write."""
    waiting = [future for future in futures if not future.done()]
    if waiting:
        await asyncio.wait(waiting, timeout=CANCEL_WAIT_S)
    for future in futures:
        if future.done() and not future.cancelled():
            future.exception()  # retrieved: a cancelled task's error is expected, not worth a warning
        else:
            future.cancel()


def _cause(err: BaseException) -> BaseException:
    """The worker's own exception inside Ray's wrapper (whose message is a whole remote traceback)."""
    cause = getattr(err, "cause", None) if isinstance(err, RayTaskError) else None
    return cause if isinstance(cause, BaseException) else err


class RayUnavailable(PlayevalError):
    """The Ray cluster named cannot be reached."""


CONNECT_TIMEOUT_S = 5.0
"""How long the driver waits for a cluster's address to answer before it gives up (Ray itself would wait on)."""


def _probe(address: str) -> None:
    """Fail at once, in one line, when ``HOST:PORT`` (or ``ray://HOST:PORT``) does not answer."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        raise RayUnavailable(f"--ray-address {address!r}: expected auto, HOST:PORT or ray://HOST:PORT")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as err:
        raise RayUnavailable(f"cannot reach the Ray cluster at {address}: {err.strerror or err}") from err


class RayRunner:
    """Plays a run's pending matches as Ray tasks (see the module's note).

    ``address`` is a Ray cluster's (``auto``, ``HOST:6379``, ``ray://HOST:10001``); ``None`` joins the cluster
    Ray is already connected to in this process, else the one ``RAY_ADDRESS`` names, else starts a local one.
    A cluster this runner connected to is disconnected from at the end of :meth:`run`.
    """

    def __init__(self, store: Store, registry: GameRegistry, *, address: str | None = None, use_cache: bool = True,
                 max_task_retries: int = MAX_TASK_RETRIES) -> None:
        self._store = store
        self._registry = registry
        self._address = address
        self._use_cache = use_cache
        self._max_task_retries = max_task_retries
        self._joined = False

    def connect(self) -> None:
        """Join (or start) the Ray cluster now, unless this process already has; one that cannot be reached
        fails here (:class:`RayUnavailable`), so a caller can check before it records a run."""
        if ray.is_initialized():
            return
        address = self._address or os.environ.get("RAY_ADDRESS") or None
        if address is not None and address not in {"auto", "local"}:
            _probe(address)
        try:
            ray.init(address=self._address, log_to_driver=False, logging_level=logging.ERROR)
        except ConnectionError as err:
            raise RayUnavailable(f"cannot join the Ray cluster{f' at {address}' if address else ''}: "
                                 f"{' '.join(str(err).split())}") from err
        self._joined = True

    async def run(self, run_id: str, on_match: OnMatch | None = None) -> None:
        """Play every match of ``run_id`` not yet finished, on Ray."""
        db_url = shared_store_url(self._store)
        config = run_config(self._store, run_id)
        self.connect()
        try:
            before = RunProgress.of(self._store, run_id)
            self._store.set_run_status(run_id, "running")
            resume_unfinished(self._store, run_id)
            await self._play(db_url, run_id, config, pending_matches(self._store, run_id, self._registry), on_match,
                             before)
        finally:
            if self._joined:
                ray.shutdown()
                self._joined = False

    async def _play(self, db_url: str, run_id: str, config: RunConfig, pending: Iterable[PlannedMatch],
                    on_match: OnMatch | None, before: RunProgress) -> None:
        config_json = config.model_dump(mode="json")
        waiting = iter(pending)  # planned as each is sent
        in_flight: dict[asyncio.Future[Any], tuple[ray.ObjectRef[Any], PlannedMatch]] = {}
        try:
            while True:
                while len(in_flight) < config.concurrency:
                    planned = next(waiting, None)
                    if planned is None:
                        break
                    ref = _remote_play.options(max_retries=self._max_task_retries, retry_exceptions=False,
                                               name=task_name(run_id, planned.index)).remote(
                        db_url, run_id, config_json, _PLANNED.dump_python(planned, mode="json"), self._use_cache)
                    in_flight[asyncio.wrap_future(ref.future())] = (ref, planned)
                if not in_flight:
                    break
                done, _ = await asyncio.wait(in_flight, return_when=asyncio.FIRST_COMPLETED)
                for future in done:
                    _, planned = in_flight.pop(future)
                    outcome = Outcome.model_validate(future.result())
                    if on_match is not None:
                        on_match(planned, outcome)
        except BaseException as err:
            for ref, _ in in_flight.values():
                ray.cancel(ref)
            await _settle(in_flight)
            cause = _cause(err)
            left = interrupt_unfinished(self._store, run_id, cause)  # also stops the next write of a straggler
            if isinstance(err, (KeyboardInterrupt, asyncio.CancelledError)):
                raise
            raise RunInterrupted(run_id, cause, left, stalled=before.stalled(self._store, run_id, cause)) from err
        self._store.set_run_status(run_id, "finished")
