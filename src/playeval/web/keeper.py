"""Keeping a table moving: people who do not come, do not move, or leave are replaced by the stand-in model.

A table waits for its people: an ask to the seat of a person who has not joined stays open. The seat is taken
over by the table's stand-in model (``web_matches.stand_in``) through ``engine.step.take_over`` (a
``SeatTakenOver`` event in the log) and marked left in the store (``Store.leave_seat``) when

* its invited person has not joined within ``join_timeout_s`` of the start;
* its person has not moved within ``turn_timeout_s`` of their ask (or of joining, if later), at a table where
  two or more people are present;
* its person leaves while another person is still at the table (a person alone who leaves aborts the match).

The time-outs are checked on every read and stream poll of a match and by a periodic sweep of every live arena
match in each server process (``sweep_s``), so nothing depends on a request arriving. Like a person's move, a
take-over is appended conditionally on the log it was decided on: of several processes that decide it at once,
one writes it and the others find the log moved, read it again and see the seat taken. The stand-in's moves
then run as model steps, under the match's lease.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

from playeval.engine.step import MatchOver, take_over
from playeval.store import LogMoved, MatchClosed, Store
from playeval.web.errors import ArenaError
from playeval.web.runner import ModelRunner
from playeval.web.settings import ArenaSettings
from playeval.web.table import Loaded, Table, load
from playeval.web.tail import TailRecorder

log = logging.getLogger("playeval.web")

MAX_TRIES = 10
NO_SHOW = "the person invited to this seat did not join within {seconds:g} s; a model plays it"
TOO_SLOW = "the person in this seat did not move within {seconds:g} s; a model plays it"
LEFT = "the person in this seat left the game; a model plays it"


class SeatKeeper:
    """Take-overs and the time-outs that cause them, for one server process."""

    def __init__(self, store: Store, runner: ModelRunner, settings: ArenaSettings) -> None:
        self.store = store
        self.load = runner.load
        """How the sweep reads a match (the runner's: the arena's ``LoadCache``)."""
        self.runner = runner
        self.settings = settings

    def present(self, table: Table) -> list[str]:
        """The seats whose people are at the table now: joined, and not replaced."""
        found: list[str] = []
        for seat in table.people:
            person = table.loaded.person(seat)
            if person is None or person.joined_at is not None:
                found.append(seat)
        return found

    def due(self, table: Table, now: datetime) -> list[tuple[str, str]]:
        """The seats to take over now, each with the reason."""
        loaded = table.loaded
        web = loaded.web
        if web is None or web.mode != "play" or not table.live:
            return []
        found: list[tuple[str, str]] = []
        join_by = web.created_at + timedelta(seconds=self.settings.join_timeout_s)
        for seat in table.people:
            person = loaded.person(seat)
            if person is not None and person.joined_at is None and now >= join_by:
                found.append((seat, NO_SHOW.format(seconds=self.settings.join_timeout_s)))
        present = self.present(table)
        if len(present) < 2:
            return found
        limit = timedelta(seconds=self.settings.turn_timeout_s)
        last = loaded.records[-1].created_at if loaded.records else web.created_at
        for seat in present:
            person = loaded.person(seat)
            for ask in table.asks_of(seat):
                since = table.asked_at(ask.party) or last
                if person is not None and person.joined_at is not None:
                    since = max(since, person.joined_at)
                if now - since >= limit:
                    found.append((seat, TOO_SLOW.format(seconds=self.settings.turn_timeout_s)))
                    break
        return found

    def take_over(self, match_id: str, seat: str, reason: str) -> bool:
        """Hand a person's seat to the stand-in model from a fresh read of the log; whether this call did."""
        for _ in range(MAX_TRIES):
            loaded = load(self.store, match_id)
            if loaded.finished or loaded.web is None:
                return False
            table = self.runner.table(loaded)
            if seat not in table.people:
                return False
            stand_in = loaded.web.stand_in or self.settings.default_model
            try:
                take_over(loaded.events, TailRecorder(self.store, loaded.seq), match_id, seat, model=stand_in,
                          reason=reason)
            except LogMoved:
                continue
            except (MatchOver, MatchClosed):
                return False
            self.store.leave_seat(match_id, seat)
            log.info("match %s: a model took over the %s seat", match_id, seat)
            self.runner.schedule(match_id)
            return True
        return False

    def enforce(self, loaded: Loaded) -> Table:
        """Take over the seats whose time is up; the match's table as it stands afterwards."""
        table = self.runner.table(loaded)
        if loaded.web is None or loaded.web.mode != "play" or loaded.finished:
            return table
        for person in loaded.people:  # a take-over cut short before the store heard of it
            if person.left_at is None and person.seat not in table.people:
                self.store.leave_seat(loaded.match.id, person.seat)
        due = self.due(table, datetime.now(UTC))
        taken = [self.take_over(loaded.match.id, seat, reason) for seat, reason in due]
        return self.runner.table(load(self.store, loaded.match.id)) if any(taken) else table

    async def sweep(self) -> int:
        """Check every live arena match once: its time-outs, and whether its model step is due; how many moved."""
        moved = 0
        for web, _ in await self.runner.background.run(self.store.web_matches, status="running"):
            try:
                moved += await self.runner.background.run(self.check, web.match_id)
            except ArenaError:
                continue
            except Exception as err:  # one broken match must not stop the sweep of the others
                log.error("match %s: the sweep failed with %s", web.match_id, type(err).__name__)
            await asyncio.sleep(0)
        return moved

    def check(self, match_id: str) -> bool:
        """Enforce one live match's time-outs and schedule its model step if due; whether it was scheduled."""
        return self.runner.nudge(self.enforce(self.load(match_id)))

    async def run(self) -> None:
        """Sweep every ``sweep_s`` until cancelled."""
        while True:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.error("the arena's sweep failed with %s", type(err).__name__)
            await asyncio.sleep(self.settings.sweep_s)
