"""Running many matches: scheduling, persistence as it happens, and resume."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from playeval.core.baselines import baseline_name, game_baselines
from playeval.core.errors import ConfigError, NotFoundError, PlayevalError
from playeval.core.events import RoleAssignment, SeatAssignment
from playeval.core.game import Game, roles_not_asked, seat_evaluated
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import GameRegistry
from playeval.engine.calibrations import CalibrationBook
from playeval.engine.match import play_match
from playeval.engine.plan import (
    SCRIPTED,
    PlannedMatch,
    RunConfig,
    first_matches,
    iter_allocated,
    iter_plan,
    with_baselines,
)
from playeval.engine.players import build_players
from playeval.engine.recorder import BufferedRecorder
from playeval.engine.writer import CommitWriter
from playeval.models import DEFAULT_MODEL, ModelError, ModelHub
from playeval.players.base import Player
from playeval.store import MatchRecord, Store

_log = logging.getLogger(__name__)

OnMatch = Callable[[PlannedMatch, Outcome], None]

COMMIT_EVERY_S = 5.0
"""A batch match's buffered moves are committed at least this often (and with its end). Committing every half
second, on the event loop's thread, made 1,000 matches against a 100 ms endpoint at concurrency 64 take 2.2x the
ideal time instead of 1.4x (``bench/endpoint_fill.py``, a loaded 2-core machine); the commits now go to a writer
thread (1.12x on the event loop's thread, 1.09x in the writer, on a quiet machine). A crash loses at most this
much play per match in flight, which ``--resume`` replays (from the response cache, for cached models)."""


class RunInterrupted(PlayevalError):
    """A run stopped before its end; it can be finished with ``--resume``.

    ``interrupted`` is how many matches it left unfinished (marked ``interrupted`` in the store), when known.

    ``stalled``: this was a resume that stopped with the same reason as the run's last stop before any match
    moved, so resuming again would stop the same way; the message says so instead of suggesting it.
    """

    def __init__(self, run_id: str, cause: BaseException, interrupted: int | None = None, *,
                 stalled: bool = False) -> None:
        left = "" if interrupted is None else f"; {_matches(interrupted)} left interrupted"
        if stalled:
            then = (". This resume made no progress: it stopped with the same error as the run's last stop, before "
                    "any match moved, so resuming again will stop the same way until the cause is fixed (the "
                    "failure repeats: a seeded mock/sim endpoint, for one, draws the same faults in every process)")
        else:
            then = f". Finish it with: playeval run --resume {run_id}"
        super().__init__(f"run {run_id} stopped: {cause}{left}{then}")
        self.run_id = run_id
        self.interrupted = interrupted
        self.stalled = stalled


def stop_reason(err: BaseException) -> str:
    """Why a run stopped, in one line, as stored with the matches it left unfinished."""
    if isinstance(err, KeyboardInterrupt):
        return "stopped by the user (Ctrl-C)"
    if isinstance(err, asyncio.CancelledError):  # asyncio.run turns Ctrl-C into this, as does a caller's cancel
        said = err.args[0] if err.args and isinstance(err.args[0], str) else ""  # task.cancel(msg): the why
        return " ".join(said.split()) or "stopped (Ctrl-C, or the run was cancelled)"
    text = " ".join(str(err).split())
    return text or type(err).__name__


def interrupt_unfinished(store: Store, run_id: str, err: BaseException) -> int:
    """Mark a stopping run ``interrupted`` and its unfinished matches ``interrupted`` with the reason; returns
    how many matches it left unfinished. Every executor calls this when a run stops on an error or a signal."""
    store.set_run_status(run_id, "interrupted")
    return store.set_unfinished_matches(run_id, "interrupted", stop_reason(err))


def resume_unfinished(store: Store, run_id: str) -> int:
    """Set a run's interrupted matches back to ``running`` (their reason cleared) so they play on from their
    events; returns how many unfinished matches the run had. Every executor calls this before playing."""
    return store.set_unfinished_matches(run_id, "running")


@dataclass(frozen=True)
class RunProgress:
    """Where a run's play stood: how many matches it has stored and finished, the last seq of each interrupted
    match and why they were interrupted. Taken before a resume and compared after it stops, it tells a resume
    that moved nothing (see ``RunInterrupted.stalled``)."""

    matches: int
    finished: int
    interrupted: Mapping[str, int]
    reasons: frozenset[str]

    @classmethod
    def of(cls, store: Store, run_id: str) -> RunProgress:
        records = store.run_matches(run_id)
        left = [m for m in records if m.status == "interrupted"]
        return cls(matches=len(records), finished=sum(1 for m in records if m.status == "finished"),
                   interrupted=store.last_seqs([m.id for m in left]) if left else {},
                   reasons=frozenset(m.stop_reason for m in left if m.stop_reason))

    def stalled(self, store: Store, run_id: str, err: BaseException) -> bool:
        """Whether the run, resumed from this point, stopped again for the same reason without moving."""
        if stop_reason(err) not in self.reasons:
            return False
        now = RunProgress.of(store, run_id)
        return ((now.matches, now.finished) == (self.matches, self.finished)
                and all(now.interrupted.get(match_id) == seq for match_id, seq in self.interrupted.items()))


def interruptions(store: Store, run_id: str) -> dict[str, int]:
    """How many of a run's matches are ``interrupted``, by reason (most first)."""
    counts = Counter(m.stop_reason or "no reason recorded" for m in store.run_matches(run_id)
                     if m.status == "interrupted")
    return dict(counts.most_common())


def interruption_lines(store: Store, run_id: str) -> list[str]:
    """One line per reason: ``3 matches interrupted: <reason>`` (nothing when no match is interrupted)."""
    return [f"{_matches(count)} interrupted: {reason}" for reason, count in interruptions(store, run_id).items()]


def _matches(count: int) -> str:
    return f"{count} match" if count == 1 else f"{count} matches"


def check_config(registry: GameRegistry, config: RunConfig) -> None:
    """The config against the games: levels, role names, options (``ConfigError`` on the first problem)."""
    for name in config.games:
        game = registry.get(name)
        if config.level not in {level.level for level in game.levels}:
            levels = ", ".join(str(level.level) for level in game.levels)
            raise ConfigError(f"{name} has levels {levels}, not {config.level}")
        for flag, address in [*(("--models", model) for model in config.models), ("--opponent", config.opponent)]:
            wanted = baseline_name(address)
            offered = [info.name for info in game_baselines(game)]
            if wanted is not None and wanted not in offered:
                raise ConfigError(f"{flag} {address}: {name} has no baseline player {wanted!r} (it offers: "
                                  f"{', '.join(offered) or 'none'})")
    for key in config.roles:
        game_id, _, role = key.rpartition(".")
        games = [game_id] if game_id else list(config.games)
        if game_id and game_id not in config.games:
            raise ConfigError(f"--role {key}: {game_id} is not a game of this run")
        if not any(role in {info.name for info in registry.get(name).roles} for name in games):
            known = sorted({f"{name}.{info.name}" for name in config.games for info in registry.get(name).roles})
            raise ConfigError(f"--role {key}: no game of this run has a role {role!r}; roles: "
                              f"{', '.join(known) or 'none'}")


def create_run(store: Store, registry: GameRegistry, config: RunConfig, *,
               first: Sequence[PlannedMatch] | None = None, book: CalibrationBook | None = None) -> str:
    """Check the config against the games (and plan its first game number, so a bad option fails now, unless the
    caller has: ``first``), record the baselines its games declare (with ``--baselines``: see
    ``plan.with_baselines``) and the calibration of each of its models (see :func:`calibrated`) and record a
    new run."""
    check_config(registry, config)
    config = with_baselines(config, registry)
    if first is None:
        first = first_matches(config, registry, DEFAULT_MODEL)
    config = calibrated(config, first, book)
    return store.create_run(config.label, config.level, config.model_dump(mode="json"))


def calibrated(config: RunConfig, first: Sequence[PlannedMatch], book: CalibrationBook | None = None) -> RunConfig:
    """``config`` with the calibration found for each model of its plan (``first``: its first game number, which
    uses every model of the run), unless calibration is off or the caller recorded them already. A calibration
    file that cannot be read fails here, before the run is recorded."""
    if not config.calibration or config.calibrations:
        return config
    book = book or CalibrationBook()
    found = {address: held for address in run_addresses(first)
             if (held := book.recorded(address, config.games)) is not None}
    return config.model_copy(update={"calibrations": found}) if found else config


def run_config(store: Store, run_id: str) -> RunConfig:
    return RunConfig.model_validate(store.get_run(run_id).config)


def recorded_config(store: Store, run_id: str) -> RunConfig | None:
    """The run's configuration, or ``None`` for a run stored without one (made through the store's API rather than
    ``playeval run``): what reports read, where a missing configuration only leaves a note out."""
    try:
        return run_config(store, run_id)
    except ValidationError:
        return None


def run_addresses(plan: Sequence[PlannedMatch], registry: GameRegistry | None = None) -> list[str]:
    """Every model address a run's plan uses (to check them before anything is recorded); with ``registry``,
    without the roles a match never asks (``core.game.roles_not_asked``)."""
    found: list[str] = []
    for planned in plan:
        idle = frozenset() if registry is None else roles_not_asked(registry.get(planned.game), planned.spec)
        used = [role.model for role in planned.roles if role.role not in idle]
        for address in [seat.model for seat in planned.seats] + used:
            if address and address != SCRIPTED and address not in found:
                found.append(address)
    return found


class PendingMatches:
    """The planned matches of a run that have not finished: ``len`` says how many at once, iterating plans each
    when it is taken (game numbers whose matches have all finished are skipped without being planned)."""

    def __init__(self, config: RunConfig, registry: GameRegistry, finished: set[int]) -> None:
        config = with_baselines(config, registry)
        self._config = config
        self._registry = registry
        self._finished = finished
        self.total = config.size
        """How many matches the whole run holds."""

    def __len__(self) -> int:
        return self.total - sum(1 for index in self._finished if 0 <= index < self.total)

    def __iter__(self) -> Iterator[PlannedMatch]:
        per_number = self._config.matches_per_number
        numbers = (number for number in range(self._config.n)
                   if any(index not in self._finished for index in range(number * per_number,
                                                                         (number + 1) * per_number)))
        for planned in iter_plan(self._config, self._registry, DEFAULT_MODEL, numbers=numbers):
            if planned.index not in self._finished:
                yield planned
        for planned in iter_allocated(self._config, self._registry, DEFAULT_MODEL, skip=self._finished):
            if planned.index not in self._finished:
                yield planned


def pending_matches(store: Store, run_id: str, registry: GameRegistry) -> PendingMatches:
    """The planned matches of a run that have not finished (planned lazily: see :class:`PendingMatches`)."""
    finished = {m.match_index for m in store.run_matches(run_id)
                if m.status == "finished" and m.match_index is not None}
    return PendingMatches(run_config(store, run_id), registry, finished)


def check_models(hub: ModelHub, config: RunConfig, plan: Sequence[PlannedMatch],
                 registry: GameRegistry | None = None) -> None:
    """Every model a run's plan uses, checked ready to be called before anything is recorded (``ModelHub.check``):
    the evaluated models, the opponent and every role's binding, a game's default included (with ``registry``,
    only the roles a match asks: Dynamic Picnic's default asks no game master). An unknown model or a missing key
    raises the provider's ``ModelError``; a model that cannot run here (weights not installed) one that says where
    the run uses it."""
    for address in run_addresses(plan, registry):
        hub.get(address)
        try:
            hub.check(address)
        except ModelError as err:
            raise ModelError(f"{_used_as(config, plan, address)}: {err}") from None


def _used_as(config: RunConfig, plan: Sequence[PlannedMatch], address: str) -> str:
    """Where a run's plan first uses ``address``: a seat, or a role's binding (the run's or the game's default)."""
    for planned in plan:
        seat = next((seat.seat for seat in planned.seats if seat.model == address), None)
        if seat is not None:
            return f"the model of {planned.game}'s {seat} seat"
        role = next((role.role for role in planned.roles if role.model == address), None)
        if role is not None:
            bound = "bound by --role" if config.role_binding(planned.game, role) else "its default binding"
            return f"the {role} role of {planned.game} ({bound})"
    return "a model of the run"


class BatchRunner:
    """Plays a run's planned matches with bounded concurrency, recording each as it happens (a match's moves are
    committed at least every ``commit_every_s`` seconds, and with its end)."""

    def __init__(self, store: Store, hub: ModelHub, registry: GameRegistry, *,
                 commit_every_s: float = COMMIT_EVERY_S) -> None:
        self._store = store
        self._hub = hub
        self._registry = registry
        self._commit_every_s = commit_every_s

    async def run(self, run_id: str, on_match: OnMatch | None = None) -> None:
        """Play every match of ``run_id`` not yet finished (a fresh run, or one being resumed)."""
        config = run_config(self._store, run_id)
        before = RunProgress.of(self._store, run_id)
        self._store.set_run_status(run_id, "running")
        resume_unfinished(self._store, run_id)
        existing = {m.match_index: m for m in self._store.run_matches(run_id)}
        pending = pending_matches(self._store, run_id, self._registry)
        queue = iter(pending)
        # The run's commits are written by one thread, in order, so the event loop never waits on the database
        # (those of several matches waiting together in one transaction).
        writer = CommitWriter(self._store)

        async def worker() -> None:
            # ``concurrency`` workers take the next planned match in turn: as many tasks as slots, not as matches
            for planned in queue:
                game = self._registry.get(planned.game)
                outcome = await self._play(game, config, run_id, planned, existing.pop(planned.index, None), writer)
                if on_match is not None:
                    on_match(planned, outcome)

        tasks = [asyncio.create_task(worker()) for _ in range(min(config.concurrency, len(pending)))]
        try:
            try:
                await asyncio.gather(*tasks)
            finally:
                writer.shutdown(wait=True)
        except BaseException as err:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            left = interrupt_unfinished(self._store, run_id, err)
            if isinstance(err, (KeyboardInterrupt, asyncio.CancelledError)):
                raise
            raise RunInterrupted(run_id, err, left, stalled=before.stalled(self._store, run_id, err)) from err
        self._store.set_run_status(run_id, "finished")

    async def _play(self, game: Game[Any], config: RunConfig, run_id: str, planned: PlannedMatch,
                    record: MatchRecord | None, writer: CommitWriter) -> Outcome:
        if record is not None and record.status == "finished" and record.outcome is not None:
            return record.outcome
        recorder = BufferedRecorder(self._store, max_age_s=self._commit_every_s, writer=writer)
        if record is None:  # stored with its first commit
            models = planned.evaluated_models
            match_id = recorder.create_match(spec=planned.spec, seats=planned.seats, roles=planned.roles,
                                             run_id=run_id, match_index=planned.index,
                                             evaluated_model=models[0] if len(models) == 1 else None)
            spec, seats, roles, events = planned.spec, planned.seats, planned.roles, []
        else:
            match_id, spec, seats, roles = record.id, record.spec, record.seats, record.roles
            events = self._store.events(record.id)
        players = run_players(game, config, spec, seats, roles, self._hub)
        try:
            outcome = await play_match(game, spec, players, recorder, match_id, prior_events=events)
            await recorder.settled()  # played once its end is stored
            return outcome
        except BaseException:
            recorder.flush()  # a run stopping keeps the whole moves made so far: --resume plays on from there
            try:
                recorder.drain()
            except Exception as failed:  # the first error goes on; what did not land is replayed by --resume
                _log.warning("match %s: a commit failed while the run stopped: %s", match_id, failed)
            raise


def run_players(game: Game[Any], config: RunConfig, spec: MatchSpec, seats: Sequence[SeatAssignment],
                roles: Sequence[RoleAssignment], hub: ModelHub) -> dict[str, Player | None]:
    """The players of one match of a run (models from ``hub``, the run's temperature and re-asks); shared by
    every executor, so a match plays the same whichever process plays it."""
    return build_players(game, spec, seats, roles, hub.get, people={}, temperature=config.temperature,
                         max_retries=config.max_retries, evaluated=lambda seat: seat_evaluated(game, spec, seat))


def require_run(store: Store, run_id: str | None) -> str:
    """The given run id, or the latest run's; a clear error when there is none."""
    if run_id:
        store.get_run(run_id)
        return run_id
    latest = store.latest_run_id()
    if latest is None:
        raise NotFoundError("no runs recorded yet; start one with: playeval run GAME --models ...")
    return latest
