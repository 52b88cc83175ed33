"""The arena service: setting tables up, joining them, moving, watching and reading matches.

Every request starts from the store, so any server process can serve any match. People's moves are appended
conditionally on the log's tail (``web.moves``); the models' moves run in background steps under the match's
lease (``web.runner``); people who do not come, do not move or leave are replaced by the stand-in model
(``web.keeper``), checked on reads, on stream polls and by a periodic sweep. Nothing secret is logged: match
ids, games, seats and kinds of events only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

from playeval.core.errors import ConfigError
from playeval.core.game import Game
from playeval.core.registry import GameRegistry
from playeval.engine.step import MatchOver, NotYourTurn, submit
from playeval.models import ModelHub
from playeval.store import DuplicateSurvey, LogMoved, MatchClosed, Store, WebMatchRecord
from playeval.web import access
from playeval.web.board_state import BoardState
from playeval.web.bodies import Check, Join, Move, StartMatch, StartWatch, Survey
from playeval.web.errors import Conflict, Forbidden, Invalid, MoveRefused, NotFound
from playeval.web.keeper import LEFT, SeatKeeper
from playeval.web.loads import LoadCache
from playeval.web.log_watch import LogWatch, Mark
from playeval.web.moves import attempt_of, check_current, check_not_repeated, check_reply, open_ask
from playeval.web.offload import Background, off_loop
from playeval.web.present import match_view, replay_view, summary
from playeval.web.runner import ModelRunner
from playeval.web.settings import ArenaSettings
from playeval.web.starting import TableMaker
from playeval.web.table import Loaded, Table
from playeval.web.tail import MoveTail
from playeval.web.views import CheckView, InviteView, MatchSummary, MatchView, Mode, ReplayView, SurveyView

log = logging.getLogger("playeval.web")

MAX_TRIES = 10
"""How many times a person's move is judged again after other moves came in first."""
NUDGE_EVERY_S = 10.0
"""How often a stream checks the match's time-outs and that a due model move is being run by some process (the
sweep does so for every live match every ``sweep_s``; this backs it up). It was 2 s and also how a stream saw
people join and leave, which its ``LogWatch`` mark now says: the checks of 200 streams were a tenth of the
server's time under load."""
ABANDON_REASON = "the person left the game"


class Arena:
    """The arena of one server process. Create it in the app's lifespan, ``start`` it, ``aclose`` it."""

    def __init__(self, store: Store, hub: ModelHub, registry: GameRegistry, settings: ArenaSettings,
                 *, owner: str | None = None) -> None:
        self.store = store
        self.hub = hub
        self.registry = registry
        self.settings = settings
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.loads = LoadCache(store)
        self.background = Background()
        """The threads of the process's background work: model steps, streams' later views, the sweep."""
        self.runner = ModelRunner(store, hub, self.game, settings, self.owner, loader=self.loads.load,
                                  background=self.background)
        self.keeper = SeatKeeper(store, self.runner, settings)
        self.maker = TableMaker(store, settings, self.game)
        self.board = BoardState(store, registry)
        self.watch = LogWatch(store, settings.poll_s, self.background)
        self._sweeper: asyncio.Task[None] | None = None
        self._warming: asyncio.Task[None] | None = None

    # -- reading ----------------------------------------------------------------------------------------------

    def game(self, game_id: str) -> Game[Any]:
        try:
            return self.registry.get(game_id)
        except ConfigError as err:
            raise Invalid(str(err)) from None

    def load(self, match_id: str, *, arena_only: bool = True) -> Loaded:
        return self.loads.load(match_id, arena_only=arena_only)

    def _view(self, table: Table, seat: str | None, *, token: str | None = None,
              invites: Sequence[InviteView] | None = None) -> MatchView:
        loaded = table.loaded
        given = loaded.finished and seat is not None and self.store.get_survey(loaded.match.id) is not None
        return match_view(table, seat, survey_given=given, token=token, invites=invites)

    def _seen_by(self, match_id: str, token: str | None) -> tuple[Table, str | None]:
        """The match's table for the request's viewer, after its time-outs were enforced."""
        loaded = self.load(match_id)
        seat = access.viewer(loaded, token)
        joined = access.arrive(self.store, loaded, access.person(loaded, token))
        table = self.keeper.enforce(self.load(match_id) if joined else loaded)
        self.runner.nudge(table)
        return table, seat

    def view(self, match_id: str, token: str | None) -> MatchView:
        table, seat = self._seen_by(match_id, token)
        return self._view(table, seat)

    def replay(self, match_id: str) -> ReplayView:
        loaded = self.load(match_id, arena_only=False)
        public_live = loaded.web is not None and loaded.web.mode == "watch"
        if not loaded.finished and not public_live:
            raise NotFound("no such match")
        retro = self.store.retro_outputs(match_id) if loaded.finished else []
        return replay_view(self.runner.table(loaded), retro)

    def summaries(self, *, mode: Mode | None, status: str | None, game: str | None, limit: int) -> list[MatchSummary]:
        """Public matches, newest first: watched ones (live or not) and finished played ones."""
        stored = "running" if status == "live" else status
        found: list[tuple[WebMatchRecord, Any]] = []
        if mode in (None, "watch"):
            found += self.store.web_matches(mode="watch", status=stored, limit=None if game else limit)
        if mode in (None, "play") and stored != "running":
            found += self.store.web_matches(mode="play", status="finished", limit=None if game else limit)
        known = set(self.registry.ids())
        found = [pair for pair in found if pair[1].game in known and (game is None or pair[1].game == game)]
        found.sort(key=lambda pair: (pair[0].created_at, pair[0].match_id), reverse=True)
        return [summary(self.game(match.game), web, match) for web, match in found[:limit]]

    # -- setting tables up and joining them -------------------------------------------------------------------

    async def start_play(self, body: StartMatch) -> tuple[MatchView, str]:
        """Set a table up; the setter's view (with their token and the invites) and their token."""
        return await off_loop(self._start_play, body)

    def _start_play(self, body: StartMatch) -> tuple[MatchView, str]:
        new = self.maker.play(body)
        log.info("match %s started: %s level %d, %d person(s)", new.match_id, body.game, body.level,
                 1 + len(new.invites))
        table = self.runner.table(self.load(new.match_id))
        view = self._view(table, new.seat, token=new.token, invites=new.invites)
        self.runner.schedule(new.match_id)  # after the view: the setter sees the table as it was set up
        return view, new.token

    async def start_watch(self, body: StartWatch) -> MatchView:
        """Start a model-vs-model match anyone may watch."""
        return await off_loop(self._start_watch, body)

    def _start_watch(self, body: StartWatch) -> MatchView:
        match_id = self.maker.watch(body)
        log.info("watch match %s started: %s level %d", match_id, body.game, body.level)
        view = self._view(self.runner.table(self.load(match_id)), None)
        self.runner.schedule(match_id)  # after the view: it shows the match as it starts
        return view

    def join(self, match_id: str, body: Join, cookie: str | None) -> MatchView:
        """A person comes to their seat with the token of their join link; refused when this browser already
        holds another seat of the match (its cookie), since a browser keeps one token per match."""
        loaded = self.load(match_id)
        if loaded.web is None or loaded.web.mode == "watch":
            raise Forbidden(access.WATCHED)
        held = access.person(loaded, body.token)
        if held is None:
            raise Forbidden("this invitation is not valid for this match")
        other = access.person(loaded, cookie) if cookie and cookie != body.token else None
        if other is not None and other.seat != held.seat:
            raise Conflict(f"this browser already holds the {other.seat} seat of this match; open the invitation "
                           "in another browser (or a private window)")
        if access.arrive(self.store, loaded, held):
            log.info("match %s: the %s joined", match_id, held.seat)
        table, _ = self._seen_by(match_id, body.token)
        return self._view(table, held.seat)

    # -- a person's requests ----------------------------------------------------------------------------------

    async def move(self, match_id: str, token: str | None, body: Move) -> MatchView:
        """A person's move: 409 when it is not theirs to make, ``MoveRefused`` when the rules refuse it."""
        return await off_loop(self._move, match_id, token, body)

    def _move(self, match_id: str, token: str | None, body: Move) -> MatchView:
        for _ in range(MAX_TRIES):
            loaded = self.load(match_id)
            held = access.mover(loaded, token)
            access.arrive(self.store, loaded, held)
            table = self.keeper.enforce(loaded)
            ask = open_ask(table, held.seat, body.party)
            check_current(table, held.seat, ask, body.seq, self.settings.local_model)
            if body.seq is None:
                check_not_repeated(table, ask, body.text)
            attempt = attempt_of(table, ask, body.text)
            loaded = table.loaded
            recorder = MoveTail(self.store, loaded.seq)
            try:
                submit(table.game, loaded.match.spec, loaded.events, ask.party, body.text, recorder, match_id)
                recorder.write(match_id)  # the whole move (and the match's end) or nothing of it
            except (MatchOver, MatchClosed):
                raise Conflict("the match is over") from None
            except NotYourTurn:
                raise Conflict("it is not your turn") from None
            except LogMoved:
                continue  # another move came first; nothing of this one was recorded: judge it again
            break
        else:
            raise Conflict("the match is busy; try again in a moment")
        if attempt.error is not None:
            self.runner.schedule(match_id)
            log.info("match %s: a move of the %s was refused (%s error)", match_id, ask.party, attempt.error.kind)
            raise MoveRefused(attempt.error.reason, recorder.seq)
        log.info("match %s: the %s moved", match_id, ask.party)
        view = self._view(self.runner.table(self.load(match_id)), held.seat)
        self.runner.schedule(match_id)  # after the view: the mover sees their move before the models answer
        return view

    def check(self, match_id: str, token: str | None, body: Check) -> CheckView:
        """The dry run of a reply to the person's open ask: judged by the rules, recorded nowhere."""
        loaded = self.load(match_id)
        held = access.mover(loaded, token)
        table = self.runner.table(loaded)
        return check_reply(table, open_ask(table, held.seat, body.party), body.text)

    def abandon(self, match_id: str, token: str | None) -> MatchView:
        """Leave a live match: a model takes the seat while other people play on; a person alone ends it."""
        for _ in range(MAX_TRIES):
            loaded = self.load(match_id)
            held = access.mover(loaded, token)
            table = self.keeper.enforce(loaded)
            loaded = table.loaded
            if loaded.finished:
                raise Conflict("the match is already over")
            if held.seat not in table.people:
                raise Conflict("a model already plays your seat")
            if any(seat != held.seat for seat in self.keeper.present(table)):
                if not self.keeper.take_over(match_id, held.seat, LEFT):
                    continue
                log.info("match %s: the %s left; the others play on", match_id, held.seat)
                break
            try:
                self.runner.stop(loaded, ABANDON_REASON)
            except (MatchOver, MatchClosed):
                raise Conflict("the match is already over") from None
            except LogMoved:
                continue
            self.store.leave_seat(match_id, held.seat)
            self.runner.cancel(match_id)
            log.info("match %s abandoned", match_id)
            break
        else:
            raise Conflict("the match is busy; try again in a moment")
        return self._view(self.runner.table(self.load(match_id)), held.seat)

    def survey(self, match_id: str, token: str | None, body: Survey) -> SurveyView:
        loaded = self.load(match_id)
        access.mover(loaded, token)
        if not loaded.finished:
            raise Conflict("the survey opens when the match is over")
        try:
            record = self.store.add_survey(match_id, enjoyment=body.enjoyment, satisfaction=body.satisfaction,
                                           frequency=body.frequency)
        except DuplicateSurvey:
            raise Conflict("this match's survey was already answered") from None
        return SurveyView(match_id=record.match_id, enjoyment=record.enjoyment, satisfaction=record.satisfaction,
                          frequency=record.frequency)

    # -- live updates -----------------------------------------------------------------------------------------

    async def stream(self, match_id: str, token: str | None,
                     disconnected: Callable[[], Awaitable[bool]]) -> tuple[MatchView, AsyncIterator[str]]:
        """Check access, then return the first view and the server-sent events of the match's later views.

        The stream polls the store with the process's other streams (``LogWatch``: so it sees moves made by any
        process), sends the viewer's view whenever the
        log grows, a comment every ``heartbeat_s``, and ends after the finished view; every ``NUDGE_EVERY_S`` it
        enforces the match's time-outs and makes sure a due model move runs.
        """
        table, seat = await off_loop(self._seen_by, match_id, token)
        first = await off_loop(self._view, table, seat)
        return first, self._events(match_id, seat, first, disconnected)

    async def _events(self, match_id: str, seat: str | None, first: MatchView,
                      disconnected: Callable[[], Awaitable[bool]]) -> AsyncIterator[str]:
        settings = self.settings
        started = sent = checked = time.monotonic()
        view = first
        yield _event(view)
        seen: Mark = (view.seq, -1, -1)
        with self.watch.following(match_id):
            while view.status != "finished" and time.monotonic() - started < settings.stream_max_s:
                mark = await self.watch.next_mark(match_id)  # every poll_s, read with the other streams' matches
                if await disconnected():
                    return
                now = time.monotonic()
                fresh: MatchView | None = None
                if now - checked >= NUDGE_EVERY_S:
                    checked = now
                    fresh = await self.background.run(self._checked_view, match_id, seat)
                elif mark is not None and mark != seen:
                    fresh = await self.background.run(self._fresh_view, match_id, seat)
                seen = mark or seen
                if fresh is not None and fresh != view:
                    view = fresh
                    sent = now
                    yield _event(view)
                elif now - sent >= settings.heartbeat_s:
                    sent = now
                    yield ": heartbeat\n\n"

    def _checked_view(self, match_id: str, seat: str | None) -> MatchView:
        """The seat's view after the match's time-outs were enforced and a due model move was scheduled."""
        table = self.keeper.enforce(self.load(match_id))
        self.runner.nudge(table)
        return self._view(table, seat)

    def _fresh_view(self, match_id: str, seat: str | None) -> MatchView:
        return self._view(self.runner.table(self.load(match_id)), seat)

    # -- the process's background work ------------------------------------------------------------------------

    async def resume(self) -> int:
        """Pick up every live arena match whose model move is due and free (a restart, a crashed peer) and
        enforce the time-outs; how many were scheduled."""
        count = await self.keeper.sweep()
        if count:
            log.info("resumed %d live match(es)", count)
        return count

    async def start(self) -> None:
        """Resume the live matches, then sweep them every ``sweep_s`` in the background; meanwhile read the
        leaderboard's numbers once (seconds with 100,000 stored matches), so no request waits for that."""
        loop = asyncio.get_running_loop()
        self.runner.bind(loop)
        self._warming = loop.create_task(self._warm_board(), name="arena-board")
        await self.resume()
        self._sweeper = loop.create_task(self._sweep_later(), name="arena-sweep")

    async def _warm_board(self) -> None:
        try:
            await off_loop(self.board.stats)
        except Exception as err:  # the first request reads it again, and says what failed
            log.error("reading the leaderboard at start-up failed with %s", type(err).__name__)

    async def _sweep_later(self) -> None:
        await asyncio.sleep(self.settings.sweep_s)
        await self.keeper.run()

    async def aclose(self) -> None:
        """Stop the sweep and the running model steps (their leases are released) and wait for them."""
        if self._warming is not None:
            await self._warming  # a thread: it cannot be cancelled, and the store must outlive it
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        await self.watch.aclose()
        await self.runner.aclose()


def _event(view: MatchView) -> str:
    return f"event: state\ndata: {view.model_dump_json()}\n\n"
