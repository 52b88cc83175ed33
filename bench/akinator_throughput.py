"""Akinator games per second with instant scripted players: the engine's own overhead.

Both seats are scripted (a list guesser against an oracle answerer), so no
model runs and every second measured is spent in the rules, the game-master
loop and, for the persisted case, the store. Prints games/s, steps/s and
events/s in memory and recorded to a database as batch runs record
(``BufferedRecorder``: a temporary SQLite file, and ``--db URL``, e.g.
``postgresql+psycopg://...``). SQLite is measured twice: with the commits made
on the event loop's thread (the store's own cost per game), and as ``playeval
run`` records, by a writer thread (``CommitWriter``), each match counting as
played once its end has landed (at the default concurrency of 1, the loop then
waits for that commit; with more matches at once it would play others). With
instant players the loop never waits on anything else, so the thread buys
nothing here and its hand-over costs; against a model endpoint it keeps the
loop free while SQLite writes.

In memory, each game's log is dropped once the game has ended and its events
are counted (``"memory"``), as TextArena's benchmark builds a fresh env per
game; ``"memory-kept"`` keeps every game's log, whose objects the garbage
collector then scans again and again as the run grows (at 300 games that run
does about a third fewer steps per second).

A step is one move applied by the game (an ``ActionApplied`` event: one
player's turn), what TextArena counts as a step.

``"rules only"`` plays the same games with no engine at all: the game's ``next_ask``, the scripted player's
``act``, ``parse`` and ``apply`` in a bare loop, nothing recorded, no re-asks. It is the ceiling any engine
running these rules and players could reach, printed to tell the engine's cost from the game's.

    python bench/akinator_throughput.py [--games N] [--db URL]

Other scripts call :func:`measure`.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from playeval.core.attempt import Attempt
from playeval.core.events import ActionApplied, Event, RoleAssignment, SeatAssignment
from playeval.core.match import MatchSpec, Outcome
from playeval.core.rng import derive_seed, match_rng
from playeval.engine import BufferedRecorder, MemoryRecorder, Recorder, play_match
from playeval.engine.writer import CommitWriter
from playeval.games.akinator import ANSWERER, GUESSER, Akinator
from playeval.players import Player
from playeval.store import Store

MEMORY = "memory"
MEMORY_KEPT = "memory-kept"


@dataclass(frozen=True)
class Measured:
    """One measurement: ``games`` played to their end in ``seconds``, ``steps`` moves applied in all."""

    games: int
    steps: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds


@dataclass
class _Counting:
    """A recorder that counts the moves applied (steps) and events written on their way to ``inner``."""

    inner: Recorder
    steps: int = 0
    events: int = 0

    def create_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment],
                     roles: Sequence[RoleAssignment] = (), run_id: str | None = None,
                     match_index: int | None = None, evaluated_model: str | None = None) -> str:
        self.events += 1
        return self.inner.create_match(spec=spec, seats=seats, roles=roles, run_id=run_id,
                                       match_index=match_index, evaluated_model=evaluated_model)

    def append_event(self, match_id: str, event: Event) -> int:
        self.events += 1
        self.steps += isinstance(event, ActionApplied)
        return self.inner.append_event(match_id, event)

    def append_move(self, match_id: str, attempts: Sequence[Attempt]) -> int:
        for attempt in attempts:  # a loop, not sum() over generators: the count is part of every step timed
            self.events += attempt.event_count
            self.steps += attempt.action is not None
        return self.inner.append_move(match_id, attempts)

    def finish_match(self, match_id: str, outcome: Outcome) -> None:
        self.events += 1
        self.inner.finish_match(match_id, outcome)


@dataclass
class _LogPerGame:
    """In memory, a fresh log per game (a ``MemoryRecorder`` of its own), dropped when the game ends."""

    live: dict[str, tuple[MemoryRecorder, str]] = field(default_factory=dict)
    created: int = 0

    def create_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment],
                     roles: Sequence[RoleAssignment] = (), run_id: str | None = None,
                     match_index: int | None = None, evaluated_model: str | None = None) -> str:
        recorder = MemoryRecorder()
        self.created += 1
        match_id = f"g{self.created:06d}"
        self.live[match_id] = recorder, recorder.create_match(spec=spec, seats=seats, roles=roles)
        return match_id

    def append_event(self, match_id: str, event: Event) -> int:
        recorder, inner = self.live[match_id]
        return recorder.append_event(inner, event)

    def append_move(self, match_id: str, attempts: Sequence[Attempt]) -> int:
        recorder, inner = self.live[match_id]
        return recorder.append_move(inner, attempts)

    def finish_match(self, match_id: str, outcome: Outcome) -> None:
        recorder, inner = self.live.pop(match_id)
        recorder.finish_match(inner, outcome)


async def play_games(recorder: Recorder, games: int, settle: Callable[[], Awaitable[None]] | None = None) -> float:
    """Play ``games`` seeded Akinator matches recorded by ``recorder``, awaiting ``settle`` after each; returns the
    seconds taken."""
    game = Akinator()
    started = time.perf_counter()
    for number in range(games):
        seed = derive_seed("bench", number)
        spec = game.new_spec(1, seed, match_rng(seed))
        parties = [seat.name for seat in game.seats] + [role.name for role in game.roles]
        players: dict[str, Player | None] = {party: game.scripted_player(party, spec) for party in parties}
        seats = [SeatAssignment(seat=name, player_kind="scripted") for name in (GUESSER, ANSWERER)]
        match_id = recorder.create_match(spec=spec, seats=seats)
        await play_match(game, spec, players, recorder, match_id)
        if settle is not None:
            await settle()
    return time.perf_counter() - started


def _measure(recorder: Recorder, games: int,
             settle: Callable[[], Awaitable[None]] | None = None) -> tuple[Measured, int]:
    counting = _Counting(recorder)
    seconds = asyncio.run(play_games(counting, games, settle))
    return Measured(games=games, steps=counting.steps, seconds=seconds), counting.events


def measure_events(target: str, games: int, *, writer: bool = False) -> tuple[Measured, int]:
    """As :func:`measure`, with the number of events recorded."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if target == MEMORY:
        return _measure(_LogPerGame(), games)
    if target == MEMORY_KEPT:
        return _measure(MemoryRecorder(), games)
    with Store.open(target) as store:
        if not writer:
            return _measure(BufferedRecorder(store), games)
        with CommitWriter(store) as commits:  # as BatchRunner records
            recorder = BufferedRecorder(store, writer=commits)
            return _measure(recorder, games, recorder.settled)


def measure(target: str, games: int, *, writer: bool = False) -> Measured:
    """Play ``games`` Akinator matches with scripted players, recorded in ``target``: ``"memory"`` (each game's
    log dropped when it ends), ``"memory-kept"`` (every log kept) or a database URL (``sqlite:///PATH``,
    ``postgresql+psycopg://...``; the schema is created if needed) through a ``BufferedRecorder``: committing on
    the event loop's thread, or with ``writer`` as ``playeval run`` does (a ``CommitWriter`` thread writes the
    commits, and each match counts as played once its end has landed, at the default concurrency of 1)."""
    return measure_events(target, games, writer=writer)[0]


async def _rules_only(games: int) -> Measured:
    game = Akinator()
    steps = 0
    started = time.perf_counter()
    for number in range(games):
        seed = derive_seed("bench", number)
        spec = game.new_spec(1, seed, match_rng(seed))
        parties = [seat.name for seat in game.seats] + [role.name for role in game.roles]
        players = {party: game.scripted_player(party, spec) for party in parties}
        state = game.initial_state(spec)
        while game.outcome(state) is None:
            ask = game.next_ask(state)
            player = players[ask.party]
            if player is None:
                raise RuntimeError(f"akinator has no scripted player for {ask.party}")
            reply = await player.act(ask)
            state = game.apply(state, game.parse(state, ask, reply.text))
            steps += 1
    return Measured(games=games, steps=steps, seconds=time.perf_counter() - started)


def measure_rules_only(games: int) -> Measured:
    """The same games as :func:`measure` with no engine: the rules and the scripted players in a bare loop."""
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    return asyncio.run(_rules_only(games))


def report(label: str, measured: Measured, events: int | None) -> None:
    """One row; ``events`` None: nothing was recorded (the rules-only loop)."""
    rate = "-" if events is None else f"{events / measured.seconds:.0f}"
    print(f"{label:<22} {measured.games:>6} games  {measured.seconds:8.3f} s  {measured.games_per_s:10.1f} games/s  "
          f"{measured.steps_per_s:10.0f} steps/s  {rate:>10} events/s  "
          f"({measured.steps / measured.games:.1f} steps/game)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3000,
                        help="games per measurement (a run under a second swings by a third on a shared machine)")
    parser.add_argument("--db", default=None,
                        help="database URL for another persisted case, e.g. postgresql+psycopg://... (SQLite, in a "
                             "temporary file, is always measured)")
    args = parser.parse_args()
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")

    measure_events(MEMORY, min(args.games, 20))  # warm-up (imports, the secrets' lists, pydantic's first builds)
    rules = measure_rules_only(args.games)
    report("rules only, no engine", rules, None)
    print(f"{'':<22} (the game's next_ask, act, parse and apply in a bare loop: the ceiling of any engine for them)")
    kept, events = measure_events(MEMORY_KEPT, args.games)
    report("in memory, logs kept", kept, events)
    memory, events = measure_events(MEMORY, args.games)
    report("in memory", memory, events)
    print(f"{'':<22} (in memory: each game's log dropped once it ended and its events were counted, as TextArena's "
          "bench builds a fresh env per game)")
    for label, writer in (("SQLite", False), ("SQLite, writer thread", True)):
        with tempfile.TemporaryDirectory() as tmp:
            measured, events = measure_events(f"sqlite:///{Path(tmp) / 'bench.db'}", args.games, writer=writer)
        report(label, measured, events)
        print(f"{'':<22} {label} / memory: {measured.games_per_s / memory.games_per_s:.2f}, store "
              f"{(measured.seconds - memory.seconds) / args.games * 1000:.3f} ms/game")
    if args.db:
        measured, events = measure_events(args.db, args.games)
        report(args.db.split(":", 1)[0], measured, events)
        print(f"{'':<22} {args.db.split(':', 1)[0]} / memory: {measured.games_per_s / memory.games_per_s:.2f}")


if __name__ == "__main__":
    main()
