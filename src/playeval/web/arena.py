"""The arena service: starting, moving, watching and reading matches, and running the models' moves.

Every request starts from the store, so any server process can serve any match. A model's move runs in a
background task of the process that noticed it was due (after a person's move, a new match, a read of
the match, a poll of its stream, or start-up), under the match's lease: a conditional UPDATE lets one
process at a time move a match, and every append is conditional on the log's tail (``LogMoved``), so a
process that lost its lease cannot write a duplicate move. Nothing secret is logged: match ids, games and
kinds of events only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from playeval.core.ask import CallRecord
from playeval.core.errors import ConfigError, NotFoundError
from playeval.core.events import Event, SeatAssignment
from playeval.core.game import Game
from playeval.core.match import MatchSpec, Outcome
from playeval.core.registry import GameRegistry
from playeval.core.rng import match_rng
from playeval.engine.batch import model_player
from playeval.engine.step import MatchOver, NotYourTurn, abandon, advance, submit
from playeval.models import ModelError, ModelHub
from playeval.players import Player
from playeval.store import DuplicateSurvey, LogMoved, MatchClosed, Store, WebMatchRecord
from playeval.web.bodies import Move, StartMatch, StartWatch, Survey
from playeval.web.present import Loaded, match_view, person_seat, position, replay_view, summary
from playeval.web.settings import ArenaSettings
from playeval.web.tokens import new_token, token_hash, token_matches
from playeval.web.views import MatchSummary, MatchView, Mode, ReplayView, SurveyView

log = logging.getLogger("playeval.web")

MAX_SECRET_CHARS = 100
"""Akinator: the person's object."""
MAX_STATEMENT_CHARS = 300
"""Bluffing: the person's statement."""
MOVE_LEASE_WAIT_S = 3.0
"""How long a person's move waits for a model step that is just finishing to release the match."""
NUDGE_EVERY_S = 2.0
"""How often a stream checks that a due model move is being run by some process."""
ABANDON_REASON = "the person left the game"


class ArenaError(Exception):
    """A request the arena refuses; ``status`` is the HTTP status, ``detail`` the message for the person."""

    status = 400

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class NotFound(ArenaError):
    status = 404


class Forbidden(ArenaError):
    status = 403


class Conflict(ArenaError):
    status = 409


class Invalid(ArenaError):
    status = 422


class Busy(ArenaError):
    status = 429


class MoveRefused(Invalid):
    """A person's move the rules refused: the reason, and the log's seq after the refusal was recorded."""

    def __init__(self, detail: str, seq: int) -> None:
        super().__init__(detail)
        self.seq = seq


NO_SUCH_MATCH = "no such match"


class _TailRecorder:
    """A recorder that writes only where its writer last saw the log end (see ``Store.append_event``)."""

    def __init__(self, store: Store, seq: int) -> None:
        self._store = store
        self.seq = seq

    def create_match(self, *, spec: MatchSpec, seats: Sequence[SeatAssignment], run_id: str | None = None,
                     match_index: int | None = None, evaluated_model: str | None = None) -> str:
        raise TypeError("arena matches are created by Store.create_web_match")

    def append_event(self, match_id: str, event: Event) -> int:
        self.seq = self._store.append_event(match_id, event, after_seq=self.seq)
        return self.seq

    def add_calls(self, match_id: str | None, seat: str | None, calls: Sequence[CallRecord]) -> list[int]:
        return self._store.add_calls(match_id, seat, calls)

    def mark_calls(self, call_ids: Sequence[int], *, parsed: str | None, error: str | None) -> None:
        self._store.mark_calls(call_ids, parsed=parsed, error=error)

    def finish_match(self, match_id: str, outcome: Outcome) -> None:
        self._store.finish_match(match_id, outcome, after_seq=self.seq)
        self.seq += 1


class Arena:
    """The arena of one server process. Create it in the app's lifespan; ``aclose`` ends its model tasks."""

    def __init__(self, store: Store, hub: ModelHub, registry: GameRegistry, settings: ArenaSettings,
                 *, owner: str | None = None) -> None:
        self.store = store
        self.hub = hub
        self.registry = registry
        self.settings = settings
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._draw = random.SystemRandom()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._closing = False

    # -- reading ----------------------------------------------------------------------------------------------

    def game(self, game_id: str) -> Game[Any]:
        try:
            return self.registry.get(game_id)
        except ConfigError as err:
            raise Invalid(str(err)) from None

    def load(self, match_id: str, *, arena_only: bool = True) -> Loaded:
        """A match as stored now; ``NotFound`` when there is none (or, with ``arena_only``, not an arena one)."""
        if not match_id.isalnum() or len(match_id) > 32:
            raise NotFound(NO_SUCH_MATCH)
        try:
            match = self.store.get_match(match_id)
        except NotFoundError:
            raise NotFound(NO_SUCH_MATCH) from None
        try:
            web: WebMatchRecord | None = self.store.get_web_match(match_id)
        except NotFoundError:
            if arena_only:
                raise NotFound(NO_SUCH_MATCH) from None
            web = None
        return Loaded(match=match, web=web, records=tuple(self.store.event_records(match_id)))

    def viewer(self, loaded: Loaded, token: str | None) -> str | None:
        """The seat the request may see the match as; raises for a live match it may not read at all."""
        web = loaded.web
        if web is None or web.mode == "watch":
            return None
        owns = token is not None and web.token_sha256 is not None and token_matches(token, web.token_sha256)
        if owns:
            return web.human_seat
        if loaded.finished:
            return None
        if token is None:
            raise NotFound(NO_SUCH_MATCH)
        raise Forbidden("this match belongs to the browser that started it")

    def _owner_seat(self, loaded: Loaded, token: str | None) -> str:
        """The person's seat, for a request that changes the match: only its owner may."""
        web = loaded.web
        if web is None:
            raise NotFound(NO_SUCH_MATCH)
        if web.mode == "watch" or web.token_sha256 is None or web.human_seat is None:
            raise Forbidden("a watched match belongs to no one: it cannot be moved, abandoned or surveyed")
        if token is None:
            raise NotFound(NO_SUCH_MATCH)
        if not token_matches(token, web.token_sha256):
            raise Forbidden("this match belongs to the browser that started it")
        return web.human_seat

    def view(self, match_id: str, token: str | None) -> MatchView:
        loaded = self.load(match_id)
        seat = self.viewer(loaded, token)
        self.nudge(loaded)
        return self._view(loaded, seat)

    def _view(self, loaded: Loaded, seat: str | None, token: str | None = None) -> MatchView:
        given = loaded.finished and seat is not None and self.store.get_survey(loaded.match.id) is not None
        return match_view(self.game(loaded.match.game), loaded, seat, survey_given=given, token=token)

    def replay(self, match_id: str) -> ReplayView:
        loaded = self.load(match_id, arena_only=False)
        public_live = loaded.web is not None and loaded.web.mode == "watch"
        if not loaded.finished and not public_live:
            raise NotFound(NO_SUCH_MATCH)
        retro = self.store.retro_outputs(match_id) if loaded.finished else []
        return replay_view(self.game(loaded.match.game), loaded, retro)

    def summaries(self, *, mode: Mode | None, status: str | None, game: str | None, limit: int) -> list[MatchSummary]:
        """Public matches, newest first: watched ones (live or not) and finished played ones."""
        stored = "running" if status == "live" else status
        found: list[tuple[WebMatchRecord, Any]] = []
        if mode in (None, "watch"):
            found += self.store.web_matches(mode="watch", status=stored, limit=None if game else limit)
        if mode in (None, "play") and stored != "running":
            found += self.store.web_matches(mode="play", status="finished", limit=None if game else limit)
        found = [pair for pair in found if game is None or pair[1].game == game]
        found.sort(key=lambda pair: (pair[0].created_at, pair[0].match_id), reverse=True)
        return [summary(self.game(match.game), web, match) for web, match in found[:limit]]

    # -- starting ---------------------------------------------------------------------------------------------

    def _model(self, address: str | None) -> str:
        if address is None:
            return self._draw.choice(self.settings.models)
        if address not in self.settings.models:
            raise Invalid(f"unknown model {address!r}; choose one of: {', '.join(self.settings.models)}")
        return address

    def _level(self, game: Game[Any], level: int) -> int:
        levels = [info.level for info in game.levels]
        if level not in levels:
            raise Invalid(f"{game.id} has levels {', '.join(map(str, levels))}, not {level}")
        return level

    def _person_spec(self, game: Game[Any], level: int, seed: int, inputs: dict[str, str]) -> MatchSpec:
        """The spec of a match whose secret a person holds, from what they typed."""
        wanted = {item.key: item for item in game.person_inputs}
        unknown = sorted(set(inputs) - set(wanted))
        if unknown:
            expected = ", ".join(wanted) if wanted else "none"
            raise Invalid(f"unknown input(s) for {game.id}: {', '.join(unknown)}; expected: {expected}")
        values: dict[str, str] = {}
        for key, item in wanted.items():
            typed = inputs.get(key, "").strip()
            if not typed:
                raise Invalid(f"inputs.{key} is required: {item.prompt}")
            limit = MAX_SECRET_CHARS if key == "secret" and not item.choices else MAX_STATEMENT_CHARS
            if len(typed) > limit:
                raise Invalid(f"inputs.{key} is too long: at most {limit} characters")
            if "\n" in typed or "\r" in typed:
                raise Invalid(f"inputs.{key} must be on one line")
            if item.choices:
                chosen = next((c for c in item.choices if c.lower() == typed.lower()), None)
                if chosen is None:
                    raise Invalid(f"inputs.{key} must be one of: {', '.join(item.choices)}")
                typed = chosen
            values[key] = typed
        secret = values.pop("secret", None)
        return game.new_spec(level, seed, match_rng(seed), secret=secret, options=values or None)

    async def start_play(self, body: StartMatch) -> tuple[MatchView, str]:
        """Start a match of a person against a model; returns the person's view and their token."""
        game = self.game(body.game)
        level = self._level(game, body.level)
        names = [seat.name for seat in game.seats]
        seat = body.seat or person_seat(game)
        if seat not in names:
            raise Invalid(f"{game.id} has the seats {', '.join(names)}, not {seat!r}")
        model = self._model(body.model)
        seed = secrets.randbelow(2**31)
        try:
            if seat == game.secret_owner:
                spec = self._person_spec(game, level, seed, dict(body.inputs))
            elif body.inputs:
                raise Invalid(f"inputs are given only by the {game.secret_owner}; as the {seat}, send none")
            else:
                spec = game.new_spec(level, seed, match_rng(seed))
            game.initial_state(spec)
        except ConfigError as err:
            raise Invalid(str(err)) from None
        seats = [SeatAssignment(seat=name, player_kind="human" if name == seat else "llm",
                                model=None if name == seat else model, prompt_variant=spec.variants.get(name))
                 for name in names]
        token = new_token()
        match_id = self.store.create_web_match(spec=spec, seats=seats, mode="play", human_seat=seat,
                                               token_sha256=token_hash(token), anonymous=body.model is None)
        log.info("match %s started: %s level %d, person as %s", match_id, game.id, level, seat)
        loaded = self.load(match_id)
        self.schedule(match_id)
        return self._view(loaded, seat, token=token), token

    async def start_watch(self, body: StartWatch) -> MatchView:
        """Start a model-vs-model match anyone may watch."""
        game = self.game(body.game)
        level = self._level(game, body.level)
        names = [seat.name for seat in game.seats]
        chosen = dict(body.models or {})
        unknown = sorted(set(chosen) - set(names))
        if unknown:
            raise Invalid(f"{game.id} has the seats {', '.join(names)}; unknown: {', '.join(unknown)}")
        models = {name: self._model(chosen.get(name)) for name in names}
        live = self.store.web_matches(mode="watch", status="running", limit=self.settings.max_live_watches)
        if len(live) >= self.settings.max_live_watches:
            raise Busy("too many model-vs-model matches are running; watch one of them or try again later")
        seed = secrets.randbelow(2**31)
        try:
            spec = game.new_spec(level, seed, match_rng(seed))
        except ConfigError as err:
            raise Invalid(str(err)) from None
        seats = [SeatAssignment(seat=name, player_kind="llm", model=models[name],
                                prompt_variant=spec.variants.get(name)) for name in names]
        match_id = self.store.create_web_match(spec=spec, seats=seats, mode="watch", human_seat=None,
                                               token_sha256=None, anonymous=False)
        log.info("watch match %s started: %s level %d", match_id, game.id, level)
        self.schedule(match_id)
        return self._view(self.load(match_id), None)

    # -- a person's requests ------------------------------------------------------------------------------------

    async def move(self, match_id: str, token: str | None, body: Move) -> MatchView:
        """A person's move: 409 when it is not theirs to make, ``MoveRefused`` when the rules refuse it."""
        loaded = self.load(match_id)
        seat = self._owner_seat(loaded, token)
        self._check_movable(loaded, seat, body.seq)
        if not await self._lease_for_move(match_id):
            raise Conflict("another move of this match is being processed; try again in a moment")
        try:
            loaded = self.load(match_id)  # fresh, now that nobody else writes
            self._check_movable(loaded, seat, body.seq)
            game = self.game(loaded.match.game)
            recorder = _TailRecorder(self.store, loaded.seq)
            try:
                result = submit(game, loaded.match.spec, loaded.events, seat, body.text, recorder, match_id)
            except NotYourTurn:
                raise Conflict("it is not your turn: wait for the model's move") from None
            except (MatchOver, MatchClosed):
                raise Conflict("the match is over") from None
            except LogMoved:
                raise Conflict("the match moved on while your move was sent; reload it") from None
        finally:
            self.store.release_lease(match_id, self.owner)
        if not result.accepted:
            log.info("match %s: a move of the %s was refused (%s error)", match_id, seat, result.error)
            raise MoveRefused(result.reason or "the move was refused", recorder.seq)
        log.info("match %s: the %s moved", match_id, seat)
        self.schedule(match_id)
        return self._view(self.load(match_id), seat)

    def _check_movable(self, loaded: Loaded, seat: str, seq: int | None) -> None:
        if loaded.finished:
            raise Conflict("the match is over")
        if seq is not None:
            if seq > loaded.seq:
                raise Conflict(f"seq {seq} is ahead of the match (its last seq is {loaded.seq}); reload it")
            if any(record.seq > seq and record.type != "ask" for record in loaded.records):
                raise Conflict("the match has moved on since the view this move was made on; reload it")
        where = position(self.game(loaded.match.game), loaded)
        if where.to_move != seat:
            raise Conflict("it is not your turn: wait for the model's move")

    async def _lease_for_move(self, match_id: str) -> bool:
        deadline = time.monotonic() + MOVE_LEASE_WAIT_S
        while True:
            if self.store.take_lease(match_id, self.owner, self.settings.lease_s):
                return True
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.05)

    def abandon(self, match_id: str, token: str | None) -> MatchView:
        loaded = self.load(match_id)
        seat = self._owner_seat(loaded, token)
        if loaded.finished:
            raise Conflict("the match is already over")
        try:
            self._stop(loaded, ABANDON_REASON)
        except (MatchOver, MatchClosed):
            raise Conflict("the match is already over") from None
        task = self._tasks.get(match_id)
        if task is not None:
            task.cancel()
        log.info("match %s abandoned", match_id)
        return self._view(self.load(match_id), seat)

    def survey(self, match_id: str, token: str | None, body: Survey) -> SurveyView:
        loaded = self.load(match_id)
        self._owner_seat(loaded, token)
        if not loaded.finished:
            raise Conflict("the survey opens when the match is over")
        try:
            record = self.store.add_survey(match_id, enjoyment=body.enjoyment, satisfaction=body.satisfaction,
                                           frequency=body.frequency)
        except DuplicateSurvey:
            raise Conflict("this match's survey was already answered") from None
        return SurveyView(match_id=record.match_id, enjoyment=record.enjoyment, satisfaction=record.satisfaction,
                          frequency=record.frequency)

    # -- live updates -------------------------------------------------------------------------------------------

    async def stream(self, match_id: str, token: str | None,
                     disconnected: Callable[[], Awaitable[bool]]) -> tuple[MatchView, AsyncIterator[str]]:
        """Check access, then return the first view and the server-sent events of the match's later views.

        The stream polls the store (so it sees moves made by any process), sends a view whenever the log
        grows, a comment every ``heartbeat_s``, and ends after the finished view.
        """
        loaded = self.load(match_id)
        seat = self.viewer(loaded, token)
        first = self._view(loaded, seat)
        self.nudge(loaded)
        return first, self._events(match_id, seat, first, disconnected)

    async def _events(self, match_id: str, seat: str | None, first: MatchView,
                      disconnected: Callable[[], Awaitable[bool]]) -> AsyncIterator[str]:
        settings = self.settings
        started = sent = nudged = time.monotonic()
        view = first
        yield _event(view)
        while view.status != "finished" and time.monotonic() - started < settings.stream_max_s:
            await asyncio.sleep(settings.poll_s)
            if await disconnected():
                return
            now = time.monotonic()
            if self.store.last_seq(match_id) != view.seq:
                loaded = self.load(match_id)
                view = self._view(loaded, seat)
                sent = now
                yield _event(view)
            elif now - sent >= settings.heartbeat_s:
                sent = now
                yield ": heartbeat\n\n"
            if view.status in ("thinking", "watching") and now - nudged >= NUDGE_EVERY_S:
                nudged = now
                self.nudge(self.load(match_id))

    # -- running the models' moves ---------------------------------------------------------------------------------

    def nudge(self, loaded: Loaded) -> None:
        """Schedule the match's model move if one is due and no process holds the match's lease."""
        web = loaded.web
        if web is None or loaded.finished or self._closing:
            return
        task = self._tasks.get(loaded.match.id)
        if task is not None and not task.done():
            return
        if web.lease_until is not None and web.lease_until > datetime.now(UTC):
            return
        where = position(self.game(loaded.match.game), loaded)
        waiting = where.to_move is not None and where.to_move == web.human_seat
        if waiting and loaded.records and loaded.records[-1].type == "ask":
            return  # the person's ask is recorded: nothing to do until they move
        self.schedule(loaded.match.id)

    def schedule(self, match_id: str) -> None:
        """Run the match's due steps in the background (once per process; again if asked while running)."""
        if self._closing:
            return
        task = self._tasks.get(match_id)
        if task is not None and not task.done():
            self._again.add(match_id)
            return
        self._tasks[match_id] = asyncio.get_running_loop().create_task(self._drive(match_id),
                                                                        name=f"arena-{match_id}")

    async def _drive(self, match_id: str) -> None:
        try:
            while True:
                self._again.discard(match_id)
                await self._step(match_id)
                if match_id not in self._again or self._closing:
                    return
        finally:
            self._tasks.pop(match_id, None)
            self._again.discard(match_id)

    async def _step(self, match_id: str) -> None:
        if not self.store.take_lease(match_id, self.owner, self.settings.lease_s):
            return
        renewer = asyncio.get_running_loop().create_task(self._renew(match_id))
        try:
            loaded = self.load(match_id)
            if loaded.finished:
                return
            game = self.game(loaded.match.game)
            await advance(game, loaded.match.spec, loaded.events, self._players(game, loaded),
                          _TailRecorder(self.store, loaded.seq), match_id)
        except (LogMoved, MatchClosed):
            log.info("match %s moved on elsewhere; this step stops", match_id)
        except ModelError as err:
            log.warning("match %s: the model failed (%s); the match is aborted", match_id, type(err).__name__)
            self._abort(match_id, "the model could not answer, so the match was stopped")
        except asyncio.CancelledError:
            raise
        except Exception as err:  # keep the person from waiting forever; never log the message (it may quote input)
            log.error("match %s: the step failed with %s; the match is aborted", match_id, type(err).__name__)
            self._abort(match_id, "the server could not continue this match, so it was stopped")
        finally:
            renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewer
            self.store.release_lease(match_id, self.owner)

    async def _renew(self, match_id: str) -> None:
        while True:
            await asyncio.sleep(self.settings.lease_s / 3)
            if not self.store.renew_lease(match_id, self.owner, self.settings.lease_s):
                log.warning("match %s: the lease was lost while the model was moving", match_id)
                return

    def _abort(self, match_id: str, reason: str) -> None:
        try:
            loaded = self.load(match_id)
            if not loaded.finished:
                self._stop(loaded, reason)
        except (MatchOver, MatchClosed, ArenaError):
            return

    def _stop(self, loaded: Loaded, reason: str) -> None:
        """Record the end of a live match from outside (``engine.step.abandon``): aborted with ``reason``."""
        match = loaded.match
        abandon(self.game(match.game), match.spec, loaded.events, self.store, match.id, reason)

    def _players(self, game: Game[Any], loaded: Loaded) -> dict[str, Player | None]:
        human = loaded.web.human_seat if loaded.web is not None else None
        players: dict[str, Player | None] = {}
        for assignment in loaded.match.seats:
            if assignment.seat == human:
                players[assignment.seat] = None
            elif assignment.model:
                players[assignment.seat] = model_player(game, assignment.seat, self.hub.get(assignment.model),
                                                        seed=loaded.match.seed, temperature=self.settings.temperature)
            else:
                players[assignment.seat] = game.scripted_player(assignment.seat, loaded.match.spec)
        return players

    async def resume(self) -> int:
        """Schedule every live arena match whose model move is due and free (a restart, a crashed peer)."""
        count = 0
        for web, _ in self.store.web_matches(status="running"):
            try:
                loaded = self.load(web.match_id)
            except ArenaError:
                continue
            before = len(self._tasks)
            self.nudge(loaded)
            count += len(self._tasks) - before
        if count:
            log.info("resumed %d live match(es)", count)
        return count

    async def aclose(self) -> None:
        """Stop scheduling, cancel the running model steps (their leases are released) and wait for them."""
        self._closing = True
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _event(view: MatchView) -> str:
    return f"event: state\ndata: {view.model_dump_json()}\n\n"
